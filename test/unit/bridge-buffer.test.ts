// The hub's bridge buffers (broker/hub/bridge.ts): numbering in arrival order, non-consuming reads with independent
// cursors, bounds in count and bytes with drops reported to readers, long polls that wake, end and cancel, and a Hub
// that feeds them only from shared tabs.
import { describe, expect, it } from 'vitest';
import { BridgeBuffers } from '../../broker/hub/bridge.js';
import { Hub, type BrowserLink } from '../../broker/hub/hub.js';
import { logger } from '../../broker/common/log.js';
import { OrielError } from '../../shared/errors.js';

const msg = (data: unknown, skipped = 0, document = 'doc1') => ({ document, origin: 'http://a.test', data: JSON.stringify(data), skipped });
const codeOf = async (p: Promise<unknown>) => p.then(() => 'none', (e: OrielError) => e.code);

describe('BridgeBuffers', () => {
  it('numbers messages from 1 in arrival order and labels each with its document', () => {
    const b = new BridgeBuffers();
    for (let i = 0; i < 5; i++) b.append('s', msg({ i }, 0, i < 3 ? 'first' : 'second'));
    const read = b.read('s', 0, 100);
    expect(read.messages.map((m) => [m.seq, (m.data as { i: number }).i, m.document])).toEqual([
      [1, 0, 'first'],
      [2, 1, 'first'],
      [3, 2, 'first'],
      [4, 3, 'second'],
      [5, 4, 'second'],
    ]);
    expect(read).toMatchObject({ next: 5, dropped: 0 });
  });

  it('does not consume: two readers with their own cursors see the same stream', () => {
    const b = new BridgeBuffers();
    for (let i = 1; i <= 6; i++) b.append('s', msg(i));
    const a1 = b.read('s', 0, 4);
    const r1 = b.read('s', 2, 100);
    expect(a1.messages.map((m) => m.data)).toEqual([1, 2, 3, 4]);
    expect(r1.messages.map((m) => m.data)).toEqual([3, 4, 5, 6]);
    expect(b.read('s', a1.next, 100).messages.map((m) => m.data)).toEqual([5, 6]);
    expect(b.read('s', 0, 100).messages).toHaveLength(6);
  });

  it('drops the oldest past the count bound and tells a reader behind how many it missed', () => {
    const b = new BridgeBuffers({ messages: 3 });
    for (let i = 1; i <= 10; i++) b.append('s', msg(i));
    const read = b.read('s', 0, 100);
    expect(read.messages.map((m) => m.seq)).toEqual([8, 9, 10]);
    expect(read.dropped).toBe(7);
    expect(b.read('s', 5, 100).dropped).toBe(2);
    expect(b.read('s', 8, 100).dropped).toBe(0);
    // "8", "9", "10" as JSON: 4 bytes.
    expect(b.stats('s')).toEqual({ messages: 3, bytes: 4, last_seq: 10 });
  });

  it('keeps the bytes under the bound however many messages arrive', () => {
    const b = new BridgeBuffers({ bytes: 1000 });
    for (let i = 0; i < 500; i++) b.append('s', msg('x'.repeat(98)));
    const stats = b.stats('s')!;
    expect(stats.bytes).toBeLessThanOrEqual(1000);
    expect(stats.messages).toBe(10);
    expect(stats.last_seq).toBe(500);
  });

  it('refuses a message over the size bound but gives it a number, so readers count it as dropped', () => {
    const b = new BridgeBuffers({ messageBytes: 100 });
    b.append('s', msg('small'));
    expect(b.append('s', msg('y'.repeat(200)))).toEqual({ refused: expect.stringContaining('over 100') });
    b.append('s', msg('after'));
    const read = b.read('s', 1, 100);
    expect(read.messages.map((m) => [m.seq, m.data])).toEqual([[3, 'after']]);
    expect(read.dropped).toBe(1);
  });

  it('numbers past messages refused in the page (skipped), which readers see as dropped', () => {
    const b = new BridgeBuffers();
    b.append('s', msg('a'));
    b.append('s', msg('b', 4));
    const read = b.read('s', 0, 100);
    expect(read.messages.map((m) => m.seq)).toEqual([1, 6]);
    expect(read.dropped).toBe(4);
  });

  it('refuses a cursor past the end (another session, or a hub since restarted)', () => {
    const b = new BridgeBuffers();
    b.append('s', msg(1));
    expect(() => b.read('s', 2, 10)).toThrow(OrielError);
    expect(() => b.read('other', 1, 10)).toThrow(/past the end/);
  });

  it('long-polls: a wait after the end resolves with the next message', async () => {
    const b = new BridgeBuffers();
    b.append('s', msg('old'));
    const waiting = b.wait('s', 1, 10, 10_000);
    b.append('s', msg('new'));
    const read = await waiting;
    expect(read.messages.map((m) => m.data)).toEqual(['new']);
    expect(read.timed_out).toBe(false);
  });

  it('long-polls: a wait with nothing new times out empty, keeping the cursor', async () => {
    const b = new BridgeBuffers();
    b.append('s', msg('old'));
    await expect(b.wait('s', 1, 10, 20)).resolves.toMatchObject({ messages: [], next: 1, dropped: 0, timed_out: true });
  });

  it('a waiting reader fails with session_gone when the session ends, and cancelled when its client cancels', async () => {
    const b = new BridgeBuffers();
    const gone = b.wait('s', 0, 10, 10_000);
    b.end(['s']);
    expect(await codeOf(gone)).toBe('session_gone');
    expect(b.stats('s')).toBeUndefined();
    const ac = new AbortController();
    const cancelled = b.wait('t', 0, 10, 10_000, ac.signal);
    ac.abort();
    expect(await codeOf(cancelled)).toBe('cancelled');
  });
});

describe('Hub and the bridge', () => {
  const quiet = { ...logger('test'), info: () => {}, warn: () => {}, debug: () => {} } as ReturnType<typeof logger>;
  const link: BrowserLink = { info: { name: 'chromium', version: '1', instance: 'inst01', extension_id: 'x' }, send: () => {}, close: () => {} };
  const tab = { tab: 7, title: 'T', url: 'http://a.test/', origin: 'http://a.test', active: true };
  const event = (tab: number, data: unknown) => ({ t: 'event' as const, event: { kind: 'page_message' as const, tab, document: 'd1', origin: 'http://a.test', data: JSON.stringify(data), skipped: 0 } });

  it("buffers page messages of shared tabs, ignores other tabs', and forgets them when the session ends", () => {
    const hub = new Hub(quiet);
    hub.attachBrowser(link, [tab]);
    hub.fromBrowser(link, event(7, { hi: 1 }));
    hub.fromBrowser(link, event(8, { not: 'shared' }));
    expect(hub.bridge.read('inst01-7', 0, 10).messages.map((m) => m.data)).toEqual([{ hi: 1 }]);
    expect(hub.bridge.stats('inst01-8')).toBeUndefined();
    hub.fromBrowser(link, { t: 'tabs', tabs: [] });
    expect(hub.bridge.stats('inst01-7')).toBeUndefined();
  });
});
