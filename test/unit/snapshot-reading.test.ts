// The background's reading of a tab's outline (extension/background/snapshot-reading.ts) when its first lines come
// with an action's own exchange (`firstAsk` / `seed`): it asks what `fill` would have asked, goes on from the lines it
// was given, and reads afresh — frames introduced first — when those lines reached an iframe. The frames are stubs.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinesReply } from '../../shared/snapshot/reading.js';

const stubs = vi.hoisted(() => ({
  sendToFrame: vi.fn(async (..._a: unknown[]): Promise<{ value: unknown; document: string }> => ({ value: {}, document: 'doc1' })),
  introduceFrames: vi.fn(async () => ({ frameOfToken: new Map(), childTokens: new Map() })),
  listFrames: vi.fn(async () => [{ frameId: 0, parentFrameId: -1, url: 'https://a.test/' }]),
}));
vi.mock('../../extension/background/frames.js', () => stubs);

const { Reading } = await import('../../extension/background/snapshot-reading.js');

const FLAGS = { redactSelectors: [], valueLimit: 200, nameLimit: 300, textLimit: 2000, maxNodes: 100_000, maxDepth: 40 };

function reply(lines: string[], extra: Partial<LinesReply> = {}): LinesReply {
  return {
    reading: 'r1',
    document: 'doc1',
    url: 'https://a.test/',
    title: 'A',
    ready_state: 'complete',
    lines: lines.map((t, i) => ({ t, d: 0, h: `doc1.${i}` })),
    done: false,
    visited: lines.length,
    dropped: 0,
    changed: false,
    lateModal: false,
    ms: 1,
    ...extra,
  };
}

beforeEach(() => {
  stubs.sendToFrame.mockReset();
  stubs.introduceFrames.mockClear();
  stubs.listFrames.mockClear();
});

describe('a reading whose first lines came with an action', () => {
  it('asks first what fill would ask', async () => {
    stubs.sendToFrame.mockResolvedValueOnce({ value: reply(['button "A"'], { done: true }), document: 'doc1' });
    const plain = new Reading(1, 0, FLAGS, undefined);
    await plain.fill(12_000, Date.now() + 10_000, 0);
    expect(stubs.sendToFrame.mock.calls[0]![3]).toEqual(new Reading(1, 0, FLAGS, undefined).firstAsk(12_000));
    // A filter drops most lines: both ask for more of them alike.
    const filtered = new Reading(1, 0, FLAGS, { query: 'A' });
    stubs.sendToFrame.mockResolvedValueOnce({ value: reply(['button "A"'], { done: true }), document: 'doc1' });
    await filtered.fill(12_000, Date.now() + 10_000, 0);
    expect(stubs.sendToFrame.mock.calls[1]![3]).toEqual(new Reading(1, 0, FLAGS, { query: 'A' }).firstAsk(12_000));
  });

  it('goes on from the lines it was given, without starting or introducing frames again', async () => {
    const r = new Reading(1, 0, FLAGS, undefined);
    expect(r.seed(reply(['heading "Cart"', 'button "Add"']))).toBe(true);
    expect(r.ready.map((l) => l.t)).toEqual(['heading "Cart"', 'button "Add"']);
    expect(r.top.document).toBe('doc1');
    stubs.sendToFrame.mockResolvedValueOnce({ value: reply(['link "More"'], { done: true }), document: 'doc1' });
    await r.fill(1_000_000, Date.now() + 10_000, 0);
    expect(stubs.introduceFrames).not.toHaveBeenCalled();
    expect(stubs.sendToFrame.mock.calls[0]![3]).toMatchObject({ reading: 'r1' });
    expect(r.ready.map((l) => l.t)).toEqual(['heading "Cart"', 'button "Add"', 'link "More"']);
    expect(r.readAll).toBe(true);
    expect(r.seed(reply(['x']))).toBe(false);
  });

  it('is read afresh, frames introduced first, when the lines reached an iframe or the reading starts in a child frame', async () => {
    const r = new Reading(1, 0, FLAGS, undefined);
    const stop = { node: { role: 'iframe', name: 'Inset' }, depth: 0, ref: 'ft1', inert: false, inherit: [] };
    expect(r.seed(reply(['button "Show"'], { stop }))).toBe(false);
    expect(r.ready).toEqual([]);
    stubs.sendToFrame.mockResolvedValueOnce({ value: reply(['button "Show"'], { done: true }), document: 'doc1' });
    await r.fill(1_000, Date.now() + 10_000, 0);
    expect(stubs.introduceFrames).toHaveBeenCalledOnce();
    expect(stubs.sendToFrame.mock.calls[0]![3]).toMatchObject({ flags: FLAGS, expect: [] });
    expect(new Reading(1, 3, FLAGS, undefined).seed(reply(['button "In a frame"']))).toBe(false);
    expect(new Reading(1, 0, FLAGS, undefined).seed({ lost: true })).toBe(false);
  });
});
