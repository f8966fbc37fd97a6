// The hub's call bookkeeping with a scripted browser link: deadlines, client cancellation, disconnects (navigate
// survives, other calls fail and are not replayed), results routed to the right call.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Hub, type BrowserLink } from '../../broker/hub/hub.js';
import type { HubToBrowser } from '../../shared/protocol.js';
import { logger } from '../../broker/common/log.js';
import { OrielError } from '../../shared/errors.js';
import { MAX_QUEUE_DEPTH } from '../../broker/hub/scheduler.js';

const quiet = { ...logger('test'), info: () => {}, warn: () => {}, debug: () => {} } as ReturnType<typeof logger>;
const caller = { id: 'c1', name: 'test client' };
const tab = { tab: 7, title: 'T', url: 'http://a.test/', origin: 'http://a.test', active: true };

/** Answers that fit their op's result schema (shared/ops.ts): the hub checks every answer against it. */
const clicked = { dispatched: true, trusted: false, navigation_started: false, dom_changed: true };
const evaluated = (value: unknown) => ({ value, type: typeof value, truncated: false, via: 'scripting' });
const snapshotOf = (text: string) => ({
  snapshot: 'sabcd1',
  document: 'doc1',
  url: 'http://a.test/',
  title: 'T',
  text,
  coverage: { visited: 1, shown: 1, omitted: 0, truncated: false, read_all: true },
});

function fakeBrowser(instance = 'inst01') {
  const sent: HubToBrowser[] = [];
  const link: BrowserLink = { info: { name: 'chromium', version: '1', instance, extension_id: 'x' }, send: (m) => sent.push(m), close: () => {} };
  return { link, sent, calls: () => sent.filter((m): m is Extract<HubToBrowser, { t: 'call' }> => m.t === 'call') };
}

describe('Hub calls', () => {
  it('routes a result to its call', async () => {
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    const p = hub.callPage({ op: 'click', args: { handle: 'abcd.1' }, caller, deadline: Date.now() + 5_000 });
    await new Promise((r) => setTimeout(r, 0));
    const [frame] = b.calls();
    // One envelope: the op's own arguments, and the call's facts beside them (who asks, what it needs, until when).
    expect(frame!.call).toMatchObject({ tab: 7, op: 'click', args: { handle: 'abcd.1' }, session: 'inst01-7', client: caller, capability: 'act' });
    expect(frame!.call.args).toEqual({ handle: 'abcd.1' });
    hub.fromBrowser(b.link, { t: 'result', id: frame!.call.id, ok: true, value: clicked });
    await expect(p).resolves.toEqual({ value: clicked });
  });

  it('splits what the background put beside the result (changes, downloads) from the typed value', async () => {
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    const p = hub.callPage({ op: 'click', args: { handle: 'abcd.1' }, caller, deadline: Date.now() + 5_000 });
    await new Promise((r) => setTimeout(r, 0));
    const changes = { text: 'changed', since: 's1' };
    hub.fromBrowser(b.link, { t: 'result', id: b.calls()[0]!.call.id, ok: true, value: { ...clicked, changes, downloads: ['3'], unlisted: 1 } });
    // The value is what the click result schema lists, nothing else; changes and downloads travel beside it.
    await expect(p).resolves.toStrictEqual({ value: clicked, changes, downloads: ['3'] });
  });

  it('answers a malformed page answer with a structured internal error naming the op and the field, and goes on', async () => {
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    const bad = hub.callPage({ op: 'click', args: { handle: 'abcd.1' }, caller, deadline: Date.now() + 5_000 }).catch((e: unknown) => e);
    const next = hub.callPage({ op: 'click', args: { handle: 'abcd.2' }, caller, deadline: Date.now() + 5_000 });
    await new Promise((r) => setTimeout(r, 0));
    hub.fromBrowser(b.link, { t: 'result', id: b.calls()[0]!.call.id, ok: true, value: { ...clicked, dispatched: 'yes' } });
    const error = await bad;
    expect(error).toBeInstanceOf(OrielError);
    expect(error).toMatchObject({ data: { code: 'internal', message: expect.stringMatching(/answer to click does not fit its result schema \(dispatched\)/) } });
    // The tab's queue moves on: the next call is sent and answered.
    await new Promise((r) => setTimeout(r, 0));
    hub.fromBrowser(b.link, { t: 'result', id: b.calls()[1]!.call.id, ok: true, value: clicked });
    await expect(next).resolves.toEqual({ value: clicked });
  });

  it('reads a PDF tab\'s bytes as the answer of an op that reads PDF tabs, and only of one', async () => {
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    const pdf = { pdf: { url: 'http://a.test/doc.pdf', data: 'JVBERi0=' } };
    const snap = hub.callPage({ op: 'snapshot', args: {}, caller, deadline: Date.now() + 5_000 });
    const click = hub.callPage({ op: 'click', args: { handle: 'abcd.1' }, caller, deadline: Date.now() + 5_000 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 0));
    hub.fromBrowser(b.link, { t: 'result', id: b.calls()[0]!.call.id, ok: true, value: pdf });
    await expect(snap).resolves.toEqual({ value: pdf });
    await new Promise((r) => setTimeout(r, 0));
    hub.fromBrowser(b.link, { t: 'result', id: b.calls()[1]!.call.id, ok: true, value: pdf });
    await expect(click).resolves.toMatchObject({ data: { code: 'internal' } });
  });

  it('answers timeout at the deadline and sends the page a cancel', async () => {
    // The hub's own clock decides, not the machine's speed: timers (and Date) are advanced by hand.
    vi.useFakeTimers();
    try {
      const hub = new Hub(quiet);
      const b = fakeBrowser();
      hub.attachBrowser(b.link, [tab]);
      let outcome: unknown;
      const p = hub.callPage({ op: 'wait_for', args: {}, caller, deadline: Date.now() + 100 }).catch((e: unknown) => (outcome = e));
      await vi.advanceTimersByTimeAsync(100);
      expect(outcome).toBeUndefined(); // not before the deadline (plus the hub's slack for the page's own answer)
      await vi.advanceTimersByTimeAsync(300);
      await p;
      expect(outcome).toMatchObject({ data: { code: 'timeout' } });
      expect(b.sent.some((m) => m.t === 'cancel')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers cancelled at once when the client cancels', async () => {
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    const ac = new AbortController();
    const p = hub.callPage({ op: 'click', args: {}, caller, deadline: Date.now() + 10_000, signal: ac.signal });
    await new Promise((r) => setTimeout(r, 0));
    ac.abort();
    await expect(p).rejects.toMatchObject({ data: { code: 'cancelled' } });
    expect(b.sent.filter((m) => m.t === 'cancel')).toHaveLength(1);
  });

  it('fails ordinary calls on disconnect but lets navigate finish with the next document', async () => {
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab, { ...tab, tab: 8 }]);
    const click = hub.callPage({ session: 'inst01-7', op: 'click', args: {}, caller, deadline: Date.now() + 10_000 });
    const nav = hub.callPage({ session: 'inst01-8', op: 'navigate', args: { url: 'http://a.test/next' }, caller, deadline: Date.now() + 10_000 });
    await new Promise((r) => setTimeout(r, 0));
    hub.detachBrowser(b.link);
    await expect(click).rejects.toMatchObject({ data: { code: 'browser_disconnected' } });
    // The same browser instance comes back; the tab now shows the new document.
    const again = fakeBrowser();
    hub.attachBrowser(again.link, [tab, { ...tab, tab: 8, url: 'http://a.test/next', document: 'newdoc1' }]);
    await expect(nav).resolves.toMatchObject({ value: { document: 'newdoc1', url: 'http://a.test/next' } });
    // Nothing was replayed on the new link.
    expect(again.calls()).toEqual([]);
    expect(hub.sessions.get('inst01-7')?.connected).toBe(true);
  });

  it('refuses calls while the browser is away, with browser_disconnected', async () => {
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    hub.detachBrowser(b.link);
    await expect(hub.callPage({ session: 'inst01-7', op: 'snapshot', args: {}, caller, deadline: Date.now() + 1_000 })).rejects.toMatchObject({ data: { code: 'browser_disconnected' } });
  });

  it('says whether a browser is connected at all when no tab is shared, and why a session ended', async () => {
    vi.useFakeTimers();
    try {
      const hub = new Hub(quiet);
      const noSession = () => hub.callPage({ op: 'snapshot', args: {}, caller, deadline: Date.now() + 1_000 });
      // Just started: a running browser has yet to connect.
      await expect(noSession()).rejects.toMatchObject({ data: { code: 'no_session', message: expect.stringMatching(/^No browser is connected to Oriel yet: the hub has just started/) } });
      vi.advanceTimersByTime(20_000);
      await expect(noSession()).rejects.toMatchObject({ data: { message: expect.stringMatching(/^No browser with the Oriel extension is connected to Oriel\. Ask the user to open it/) } });
      // A browser is connected and shares nothing: the person is asked to share a tab.
      const b = fakeBrowser();
      hub.attachBrowser(b.link, []);
      await expect(noSession()).rejects.toMatchObject({ data: { message: expect.stringMatching(/^No tab is shared\. Ask the user to open the Oriel popup/) } });
      hub.fromBrowser(b.link, { t: 'tabs', tabs: [tab] });
      expect(hub.noSessionText()).toMatch(/^No tab is shared\./);
      // It leaves: reconnecting, then gone; its session ended with it, not by the user.
      hub.detachBrowser(b.link);
      expect(hub.noSessionText()).toMatch(/the browser is reconnecting to Oriel/);
      vi.advanceTimersByTime(31_000);
      expect(hub.noSessionText()).toMatch(/^No browser with the Oriel extension is connected/);
      await expect(hub.callPage({ session: 'inst01-7', op: 'snapshot', args: {}, caller, deadline: Date.now() + 1_000 })).rejects.toMatchObject({
        data: { code: 'session_gone', message: expect.stringMatching(/has ended: its browser disconnected and did not come back within 30 s/) },
      });
      // A tab the user unshared says so.
      const c = fakeBrowser('inst02');
      hub.attachBrowser(c.link, [tab]);
      hub.fromBrowser(c.link, { t: 'tabs', tabs: [] });
      await expect(hub.callPage({ session: 'inst02-7', op: 'snapshot', args: {}, caller, deadline: Date.now() + 1_000 })).rejects.toMatchObject({
        data: { code: 'session_gone', message: expect.stringMatching(/has ended: the user unshared or closed the tab/) },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers a session id it cannot know yet (just started, or a browser reconnecting) with "retry", not "no tab is shared"', async () => {
    vi.useFakeTimers();
    try {
      const hub = new Hub(quiet);
      const known = (session: string) => hub.callPage({ session, op: 'snapshot', args: {}, caller, deadline: Date.now() + 1_000 });
      // Just after the hub's own start, an agent quotes an id from before it: the browser has yet to reconnect.
      await expect(known('inst01-7')).rejects.toMatchObject({
        data: { code: 'no_session', message: expect.stringMatching(/^There is no session "inst01-7" yet: the hub has just started, and a running browser .* Retry in a few seconds/) },
      });
      // One browser is back with its tabs; another's id is still unknown within the window.
      const a = fakeBrowser('inst02');
      hub.attachBrowser(a.link, [tab]);
      await expect(known('inst01-7')).rejects.toMatchObject({ data: { code: 'no_session', message: expect.stringMatching(/yet: .*Retry in a few seconds/) } });
      // An id no browser could bring back (not `<instance>-<tab>`) is unknown at once, with the sessions listed.
      await expect(known('no-such-session')).rejects.toMatchObject({ data: { code: 'no_session', message: expect.stringMatching(/^There is no session "no-such-session"\. Sessions: inst02-7 "T"/) } });
      // The connected browser listed its tabs: an id of it that is not among them is simply not there.
      await expect(known('inst02-9')).rejects.toMatchObject({ data: { code: 'no_session', message: expect.stringMatching(/^There is no session "inst02-9"\. Sessions: inst02-7 "T"/) } });
      // After the window, a browser that left and is within its grace: still "retry".
      vi.advanceTimersByTime(20_000);
      hub.detachBrowser(a.link);
      await expect(known('inst02-9')).rejects.toMatchObject({ data: { message: expect.stringMatching(/yet: the browser is reconnecting to Oriel.* Retry in a few seconds/) } });
      await expect(known('inst01-7')).rejects.toMatchObject({ data: { message: expect.stringMatching(/yet: the browser is reconnecting/) } });
      // Once nothing is pending, an unknown id is unknown, and the text says why no tab is there.
      vi.advanceTimersByTime(31_000);
      await expect(known('inst01-7')).rejects.toMatchObject({ data: { code: 'no_session', message: expect.stringMatching(/^There is no session "inst01-7"\. No browser with the Oriel extension is connected/) } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores a result claimed by another browser', async () => {
    const hub = new Hub(quiet);
    const a = fakeBrowser('aaaa01');
    const other = fakeBrowser('bbbb01');
    hub.attachBrowser(a.link, [tab]);
    hub.attachBrowser(other.link, []);
    const p = hub.callPage({ op: 'click', args: {}, caller, deadline: Date.now() + 300 });
    await new Promise((r) => setTimeout(r, 0));
    hub.fromBrowser(other.link, { t: 'result', id: a.calls()[0]!.call.id, ok: true, value: 'forged' });
    await expect(p).rejects.toMatchObject({ data: { code: 'timeout' } });
  });

  it('answers busy (retryable, wait and retry) when the tab queue is full; the refused call never reaches the browser', async () => {
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    // Each call from its own client, so the per-client bound is not what refuses.
    const click = (handle: string, i: number) => hub.callPage({ op: 'click', args: { handle }, caller: { id: `c${i}`, name: `client ${i}` }, deadline: Date.now() + 60_000 });
    const queued = Array.from({ length: MAX_QUEUE_DEPTH }, (_, i) => click(`abcd.${i}`, i));
    const refused = await click('abcd.zz', MAX_QUEUE_DEPTH).catch((e: unknown) => e);
    expect(refused).toMatchObject({ data: { code: 'busy', retryable: true } });
    expect((refused as { data: { next: string } }).data.next).toMatch(/wait/);
    // Settle the running call and every queued one in turn; the refused one was never sent.
    for (let i = 0; i < MAX_QUEUE_DEPTH; i++) {
      await new Promise((r) => setTimeout(r, 0));
      const frame = b.calls()[i]!;
      hub.fromBrowser(b.link, { t: 'result', id: frame.call.id, ok: true, value: { ...clicked, handle: `abcd.${i}` } });
    }
    await expect(Promise.all(queued)).resolves.toHaveLength(MAX_QUEUE_DEPTH);
    expect(b.calls().map((c) => c.call.args.handle)).not.toContain('abcd.zz');
  });
});

describe('Hub callers, leases and restarts', () => {
  it('a client that leaves loses its lease at once, its running call is cancelled, and waiting calls go on', async () => {
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    const holder = hub.clients.add('ch', 'holder');
    const other = { id: 'co', name: 'other' };
    const lease = await hub.acquireLease({ caller: holder, deadline: Date.now() + 5_000 });
    const running = hub.callPage({ op: 'click', args: {}, caller: holder, lease: lease.lease, deadline: Date.now() + 10_000 });
    const waiting = hub.callPage({ op: 'extract', args: {}, caller: other, deadline: Date.now() + 10_000 });
    await new Promise((r) => setTimeout(r, 0));
    expect(b.calls().map((c) => c.call.op)).toEqual(['click']);
    expect(hub.leaseOf('inst01-7')?.holder).toEqual(holder);
    hub.clients.remove('ch');
    hub.events.emit('client_gone', holder);
    await expect(running).rejects.toMatchObject({ data: { code: 'cancelled' } });
    expect(hub.leaseOf('inst01-7')).toBeUndefined();
    await new Promise((r) => setTimeout(r, 0));
    const next = b.calls()[1]!;
    expect(next.call).toMatchObject({ op: 'extract', client: other });
    const extracted = { handle: 'abcd.1', value: 'v', truncated: false };
    hub.fromBrowser(b.link, { t: 'result', id: next.call.id, ok: true, value: extracted });
    await expect(waiting).resolves.toEqual({ value: extracted });
  });

  it('completes a surviving navigate on the document event of the restarted background, not on the old document', async () => {
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [{ ...tab, document: 'olddoc1' }]);
    const nav = hub.callPage({ op: 'navigate', args: { url: 'http://a.test/next' }, caller, deadline: Date.now() + 10_000 });
    await new Promise((r) => setTimeout(r, 0));
    const again = fakeBrowser();
    // The restarted background connects before its old connection is seen to close; the tab still shows the old page.
    hub.attachBrowser(again.link, [{ ...tab, document: 'olddoc1' }]);
    let settled = false;
    void nav.finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 0));
    expect(settled).toBe(false);
    hub.fromBrowser(again.link, { t: 'event', event: { kind: 'document', tab: 7, document: 'newdoc2', url: 'http://a.test/next' } });
    await expect(nav).resolves.toMatchObject({ value: { document: 'newdoc2', url: 'http://a.test/next' } });
  });

  it('fails the ordinary calls of a connection that a restarted background replaced', async () => {
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    const pending = hub.callPage({ op: 'wait_for', args: {}, caller, deadline: Date.now() + 10_000 });
    await new Promise((r) => setTimeout(r, 0));
    hub.attachBrowser(fakeBrowser().link, [tab]);
    await expect(pending).rejects.toMatchObject({ data: { code: 'browser_disconnected' } });
  });
});

describe('Hub consent plumbing', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a call waiting on a permission prompt keeps waiting past its deadline, and answers permission_timeout after the prompt budget', async () => {
    vi.useFakeTimers();
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    const waits: number[] = [];
    const p = hub.callPage({ op: 'click', args: {}, caller, deadline: Date.now() + 1_000, onPrompt: (until) => waits.push(until) });
    const outcome = p.then(() => 'ok', (e: { data: { code: string } }) => e.data.code);
    await vi.advanceTimersByTimeAsync(0);
    const id = b.calls()[0]!.call.id;
    const until = Date.now() + 5_000;
    hub.fromBrowser(b.link, { t: 'event', event: { kind: 'call_suspended', call: id, until } });
    expect(waits).toEqual([until]);
    // Well past the call's own deadline: still waiting for the person.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await Promise.race([outcome, 'pending'])).toBe('pending');
    await vi.advanceTimersByTimeAsync(4_500);
    expect(await outcome).toBe('permission_timeout');
    expect(b.sent.filter((m) => m.t === 'cancel')).toHaveLength(1);
  });

  it('a call allowed after a prompt resumes with the budget it had left, never more than its own', async () => {
    vi.useFakeTimers();
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    const p = hub.callPage({ op: 'click', args: {}, caller, deadline: Date.now() + 1_000 });
    const outcome = p.then(() => 'ok', (e: { data: { code: string } }) => e.data.code);
    await vi.advanceTimersByTimeAsync(0);
    const id = b.calls()[0]!.call.id;
    hub.fromBrowser(b.link, { t: 'event', event: { kind: 'call_suspended', call: id, until: Date.now() + 60_000 } });
    await vi.advanceTimersByTimeAsync(10_000);
    // A resumed deadline beyond the call's own budget is clamped to it.
    hub.fromBrowser(b.link, { t: 'event', event: { kind: 'call_resumed', call: id, deadline: Date.now() + 50_000 } });
    await vi.advanceTimersByTimeAsync(900);
    expect(await Promise.race([outcome, 'pending'])).toBe('pending');
    await vi.advanceTimersByTimeAsync(400);
    expect(await outcome).toBe('timeout');
  });

  it('a call waiting on a prompt lets the tab\'s next call run, then gets its turn back before later calls', async () => {
    vi.useFakeTimers();
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    const other = { id: 'c2', name: 'other agent' };
    const first = hub.callPage({ op: 'evaluate', args: { expression: '1' }, caller, deadline: Date.now() + 5_000 });
    await vi.advanceTimersByTimeAsync(0);
    const asking = b.calls()[0]!.call.id;
    // Queued behind the first call: not sent while the first holds the tab.
    const second = hub.callPage({ op: 'snapshot', args: {}, caller: other, deadline: Date.now() + 5_000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(b.calls()).toHaveLength(1);
    hub.fromBrowser(b.link, { t: 'event', event: { kind: 'call_suspended', call: asking, until: Date.now() + 60_000 } });
    await vi.advanceTimersByTimeAsync(0);
    // The person is deciding: the second call runs meanwhile.
    expect(b.calls()).toHaveLength(2);
    const running = b.calls()[1]!.call.id;
    const third = hub.callPage({ op: 'snapshot', args: {}, caller: other, deadline: Date.now() + 5_000 });
    await vi.advanceTimersByTimeAsync(0);
    // The person allows while the second call still runs: no turn yet.
    hub.fromBrowser(b.link, { t: 'event', event: { kind: 'call_resumed', call: asking, deadline: Date.now() + 4_000 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(b.sent.filter((m) => m.t === 'turn')).toHaveLength(0);
    hub.fromBrowser(b.link, { t: 'result', id: running, ok: true, value: snapshotOf('second') });
    await vi.advanceTimersByTimeAsync(0);
    // The first call goes on ahead of the third, which arrived after it.
    expect(b.sent.filter((m) => m.t === 'turn')).toEqual([{ t: 'turn', id: asking }]);
    expect(b.calls()).toHaveLength(2);
    hub.fromBrowser(b.link, { t: 'result', id: asking, ok: true, value: evaluated('first') });
    await vi.advanceTimersByTimeAsync(0);
    expect(b.calls()).toHaveLength(3);
    hub.fromBrowser(b.link, { t: 'result', id: b.calls()[2]!.call.id, ok: true, value: snapshotOf('third') });
    expect(await Promise.all([first, second, third])).toEqual([{ value: evaluated('first') }, { value: snapshotOf('second') }, { value: snapshotOf('third') }]);
  });

  it('lets one asking call per tab step aside at a time: a second asking call keeps the tab until its prompt ends', async () => {
    vi.useFakeTimers();
    const hub = new Hub(quiet);
    const b = fakeBrowser();
    hub.attachBrowser(b.link, [tab]);
    const calls = [0, 1, 2].map(() => hub.callPage({ op: 'evaluate', args: { expression: '1' }, caller, deadline: Date.now() + 5_000 }).catch(() => undefined));
    await vi.advanceTimersByTimeAsync(0);
    hub.fromBrowser(b.link, { t: 'event', event: { kind: 'call_suspended', call: b.calls()[0]!.call.id, until: Date.now() + 60_000 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(b.calls()).toHaveLength(2);
    // The second call asks too: it does not step aside, so the third is not sent.
    hub.fromBrowser(b.link, { t: 'event', event: { kind: 'call_suspended', call: b.calls()[1]!.call.id, until: Date.now() + 60_000 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(b.calls()).toHaveLength(2);
    for (const c of b.calls()) hub.fromBrowser(b.link, { t: 'result', id: c.call.id, ok: true, value: evaluated(1) });
    await vi.advanceTimersByTimeAsync(0);
    expect(b.calls()).toHaveLength(3);
    hub.fromBrowser(b.link, { t: 'result', id: b.calls()[2]!.call.id, ok: true, value: evaluated(1) });
    await Promise.all(calls);
  });

  it('hides a tool any connected browser disables, tells listeners when the set changes, and forgets a browser that left', async () => {
    vi.useFakeTimers();
    const hub = new Hub(quiet);
    let changes = 0;
    hub.events.on('tools_changed', () => changes++);
    const a = fakeBrowser('aaaa01');
    const c = fakeBrowser('cccc01');
    const policy = (link: BrowserLink, disabled: string[]) => hub.fromBrowser(link, { t: 'event', event: { kind: 'policy', disabled, upload_folder: null } });
    hub.attachBrowser(a.link, [tab]);
    policy(a.link, ['evaluate']);
    expect([...hub.disabledTools()]).toEqual(['evaluate']);
    expect(changes).toBe(1);
    hub.attachBrowser(c.link, []);
    policy(c.link, ['evaluate', 'navigate']);
    expect([...hub.disabledTools()].sort()).toEqual(['evaluate', 'navigate']);
    expect(changes).toBe(2);
    // The same set again is no change.
    policy(c.link, ['navigate', 'evaluate']);
    expect(changes).toBe(2);
    policy(c.link, []);
    expect([...hub.disabledTools()]).toEqual(['evaluate']);
    expect(changes).toBe(3);
    // A disconnected browser's policy holds through its reconnect grace, then goes.
    hub.detachBrowser(a.link);
    expect([...hub.disabledTools()]).toEqual(['evaluate']);
    await vi.advanceTimersByTimeAsync(30_001);
    expect([...hub.disabledTools()]).toEqual([]);
    expect(changes).toBe(4);
  });

  it('tells every browser when a client leaves, and lists the prompts browsers report', () => {
    const hub = new Hub(quiet);
    const a = fakeBrowser('aaaa01');
    const c = fakeBrowser('cccc01');
    hub.attachBrowser(a.link, [tab]);
    hub.attachBrowser(c.link, []);
    hub.events.emit('client_gone', caller);
    expect(a.sent).toContainEqual({ t: 'client_gone', client: 'c1' });
    expect(c.sent).toContainEqual({ t: 'client_gone', client: 'c1' });
    const prompt = { id: 'p1', capability: 'read' as const, origin: 'http://b.test', clients: ['test client'], calls: 1, since: 1 };
    hub.fromBrowser(a.link, { t: 'event', event: { kind: 'prompts', prompts: [prompt] } });
    expect(hub.promptList()).toEqual([{ ...prompt, browser: 'chromium' }]);
    // A browser that disconnects takes its prompts with it.
    hub.detachBrowser(a.link);
    expect(hub.promptList()).toEqual([]);
  });
});
