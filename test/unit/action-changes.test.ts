// The pure parts of "actions report what changed": how an acting tool's answer shows the changes the browser sent
// (broker/mcp/changes.ts), and the bounded memory of what each client last saw of a tab
// (extension/background/snapshot-seen.ts). The behaviour itself is tested in real browsers: e2e/action-changes.test.ts.
import { describe, expect, it } from 'vitest';
import { changesPart } from '../../broker/mcp/changes.js';
import { finishAnswer } from '../../broker/mcp/tools/response.js';
import type { ToolContext, ToolOutput } from '../../broker/mcp/tools/types.js';

/** The answer as the tool wrapper finishes it, for a call whose page calls reported `pageChanges`. */
const withChanges = (ctx: { pageChanges: unknown[] }, answer: ToolOutput) => finishAnswer(answer, { ...ctx, startedDownloads: [] } as unknown as ToolContext, false);
import { forgetSeen, noteSeen, seenBy } from '../../extension/background/snapshot-seen.js';

const out = { structured: { dispatched: true }, text: 'Clicked a.1 (synthetic input): page changed.' };
const diff = { since: 'sabcd1', shown_as: 'diff', snapshot: 'sabcd2', changed: 1, added: 0, removed: 0, text: 'changes since sabcd1, now snapshot=sabcd2: 1 changed, 0 added, 0 removed\n~ at the top level, at its start:\n button "Go" [focused] @a.1' };

describe('the changes part of an answer', () => {
  it('appends the diff to the text and its data, without the text, to structuredContent', async () => {
    expect(changesPart.name).toBe('changes');
    const r = await withChanges({ pageChanges: [diff] }, out);
    expect(r.text).toBe(`${out.text}\n${diff.text}`);
    expect(r.structured).toEqual({ dispatched: true, changes: { since: 'sabcd1', shown_as: 'diff', snapshot: 'sabcd2', changed: 1, added: 0, removed: 0 } });
  });

  it('shows the last page call\'s changes only', async () => {
    const note = { since: 'sabcd2', shown_as: 'note', changed: 0, added: 0, removed: 0, reason: 'too_large', text: 'changes since sabcd2: not shown, too large' };
    expect((await withChanges({ pageChanges: [diff, note] }, out)).text).toBe(`${out.text}\n${note.text}`);
  });

  it('leaves the answer alone with nothing or something malformed from the browser', async () => {
    expect(await withChanges({ pageChanges: [] }, out)).toBe(out);
    expect(await withChanges({ pageChanges: [{ since: 'sabcd1', changed: 1 }] }, out)).toBe(out);
    expect(await withChanges({ pageChanges: [{ ...diff, text: 'x'.repeat(10_000) }] }, out)).toBe(out);
  });
});

describe('what each client saw', () => {
  const view = (tab: number, caller: string, chars = 10) => ({ id: `s${caller}x`, tab, caller, document: 'doc1', args: {}, lines: [], whole: true, chars, frames: false });

  it('keeps one view per client and tab, and four clients per tab', () => {
    for (const c of ['c1', 'c2', 'c3', 'c4', 'c5']) noteSeen(view(7, c));
    expect(seenBy(7, 'c1')).toBeUndefined();
    expect(seenBy(7, 'c5')?.id).toBe('sc5x');
    noteSeen({ ...view(7, 'c2'), id: 'snewer' });
    expect(seenBy(7, 'c2')?.id).toBe('snewer');
    noteSeen(view(8, 'c2'));
    expect(seenBy(8, 'c2')?.tab).toBe(8);
    forgetSeen(7);
    expect(seenBy(7, 'c2')).toBeUndefined();
    expect(seenBy(8, 'c2')).toBeDefined();
  });

  it('lets the least recently seen go when the lines held pass their bound', () => {
    noteSeen(view(20, 'a', 5_000_000));
    noteSeen(view(21, 'b', 5_000_000));
    expect(seenBy(20, 'a')).toBeUndefined();
    expect(seenBy(21, 'b')).toBeDefined();
  });
});
