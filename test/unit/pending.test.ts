// The hub's pending-call engine (broker/hub/pending.ts) on its own, with a scripted link and a hand-driven clock: one
// envelope per call, one settlement, the deadline and its slack, cancellation, the prompt's budget replacing the
// call's own while the person answers, and the turn given up and taken back around the prompt.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANSWER_SLACK_MS, MAX_PROMPT_WAIT_MS, PendingCalls, PROMPT_SLACK_MS, type CallStart } from '../../broker/hub/pending.js';
import { OrielError, errorData } from '../../shared/errors.js';
import type { HubToBrowser } from '../../shared/protocol.js';
import type { PageCall } from '../../shared/call.js';

const caller = { id: 'c1', name: 'test client' };

function engine(send?: (instance: string, frame: HubToBrowser) => void) {
  const sent: Array<{ instance: string; frame: HubToBrowser }> = [];
  const ended: number[] = [];
  const pending = new PendingCalls({ send: send ?? ((instance, frame) => sent.push({ instance, frame })), ended: (id) => ended.push(id) });
  return { pending, sent, ended, frames: (t: HubToBrowser['t']) => sent.filter((s) => s.frame.t === t) };
}

function envelope(over: Partial<PageCall> = {}): Omit<PageCall, 'id'> {
  return { op: 'click', args: { handle: 'abcd.1' }, session: 'i-7', tab: 7, client: caller, deadline: Date.now() + 1_000, capability: 'act', ...over };
}

/** A turn that records being given up and is taken back when `back` is called (or fails with `fail`). */
function slot() {
  let back!: () => void;
  let fail!: (e: unknown) => void;
  const s = {
    suspended: 0,
    back: () => back(),
    fail: (e: unknown) => fail(e),
    suspend: () => {
      s.suspended++;
      const taken = new Promise<void>((res, rej) => ((back = res), (fail = rej)));
      return () => taken;
    },
  };
  return s;
}

function start(pending: PendingCalls, over: Partial<PageCall> = {}, extra: Partial<CallStart> = {}) {
  let outcome: { value?: unknown; error?: OrielError } | undefined;
  const s = slot();
  const promise = pending.start(envelope(over), { instance: 'i', slot: s, ...extra }).then(
    (value) => (outcome = { value }),
    (error: OrielError) => (outcome = { error }),
  );
  return { s, promise, outcome: () => outcome };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('PendingCalls', () => {
  it('sends one envelope with a fresh id, settles it once and says so once', async () => {
    const { pending, sent, ended } = engine();
    const a = start(pending);
    const b = start(pending, { op: 'snapshot', capability: 'read' });
    const ids = sent.map((s) => (s.frame as Extract<HubToBrowser, { t: 'call' }>).call.id);
    expect(new Set(ids).size).toBe(2);
    expect(sent[0]).toEqual({ instance: 'i', frame: { t: 'call', call: { id: ids[0], ...envelope({ deadline: (sent[0]!.frame as Extract<HubToBrowser, { t: 'call' }>).call.deadline }) } } });
    pending.settle(ids[0]!, undefined, { ok: 1 });
    pending.settle(ids[0]!, new OrielError(errorData('timeout', 'late')));
    await a.promise;
    expect(a.outcome()).toEqual({ value: { ok: 1 } });
    expect(ended).toEqual([ids[0]]);
    expect([...pending.values()].map((c) => c.op)).toEqual(['snapshot']);
    pending.settle(ids[1]!, new OrielError(errorData('page_error', 'the page threw')));
    await b.promise;
    expect(b.outcome()?.error?.code).toBe('page_error');
    // The page's own failure needs no cancel: the page has stopped already.
    expect(sent.filter((s) => s.frame.t === 'cancel')).toEqual([]);
  });

  it('answers timeout only after the deadline and its slack, and tells the page to stop', async () => {
    const { pending, frames } = engine();
    const call = start(pending);
    await vi.advanceTimersByTimeAsync(1_000 + ANSWER_SLACK_MS - 1);
    expect(call.outcome()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.outcome()?.error?.data).toMatchObject({ code: 'timeout', message: '"click" did not finish within 1000 ms. The page may still complete it: snapshot to see its state.' });
    expect(frames('cancel')).toHaveLength(1);
  });

  it('answers cancelled when the client aborts, and stops listening once settled', async () => {
    const { pending, frames } = engine();
    const ac = new AbortController();
    const call = start(pending, {}, { signal: ac.signal });
    ac.abort();
    await call.promise;
    expect(call.outcome()?.error?.code).toBe('cancelled');
    expect(frames('cancel')).toHaveLength(1);
    const later = new AbortController();
    const done = start(pending, {}, { signal: later.signal });
    pending.settle([...pending.values()][0]!.id, undefined, 1);
    await done.promise;
    later.abort();
    expect(frames('cancel')).toHaveLength(1);
  });

  it('answers too_large when the frame exceeds the browser\'s cap', async () => {
    const { pending } = engine(() => {
      throw new RangeError('frame of 2000000 bytes exceeds 1048576');
    });
    const call = start(pending);
    await call.promise;
    expect(call.outcome()?.error?.data).toMatchObject({ code: 'too_large' });
    expect([...pending.values()]).toEqual([]);
  });

  it('ignores a browser that reports on another browser\'s call', () => {
    const { pending, sent } = engine();
    start(pending);
    const id = (sent[0]!.frame as Extract<HubToBrowser, { t: 'call' }>).call.id;
    expect(pending.of('other', id)).toBeUndefined();
    expect(pending.suspend('other', id, Date.now() + 5_000)).toBeUndefined();
    expect(pending.resume('other', id, Date.now() + 5_000)).toBeUndefined();
    expect(pending.of('i', id)?.id).toBe(id);
  });

  it('runs a call that waits on a prompt under the prompt\'s budget, not its own deadline, giving up its turn meanwhile', async () => {
    const { pending, sent } = engine();
    const prompts: number[] = [];
    const call = start(pending, {}, { onPrompt: (until) => prompts.push(until) });
    const id = (sent[0]!.frame as Extract<HubToBrowser, { t: 'call' }>).call.id;
    const until = Date.now() + 10_000;
    expect(pending.suspend('i', id, until)).toMatchObject({ until });
    expect(prompts).toEqual([until]);
    expect(call.s.suspended).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000 + PROMPT_SLACK_MS - 1);
    expect(call.outcome()).toBeUndefined(); // far past its own 1 s deadline
    await vi.advanceTimersByTimeAsync(1);
    expect(call.outcome()?.error?.data).toMatchObject({ code: 'permission_timeout', message: '"click" waited for the user\'s permission and got no answer within 10 s.' });
  });

  it('bounds a prompt\'s wait whatever the browser says', () => {
    const { pending, sent } = engine();
    start(pending);
    const id = (sent[0]!.frame as Extract<HubToBrowser, { t: 'call' }>).call.id;
    expect(pending.suspend('i', id, Date.now() + 10 * MAX_PROMPT_WAIT_MS)?.until).toBe(Date.now() + MAX_PROMPT_WAIT_MS);
  });

  it('lets one call per session step aside at a time', () => {
    const { pending, sent } = engine();
    const first = start(pending);
    const second = start(pending);
    const other = start(pending, { session: 'i-8', tab: 8 });
    const [a, b, c] = sent.map((s) => (s.frame as Extract<HubToBrowser, { t: 'call' }>).call.id);
    pending.suspend('i', a!, Date.now() + 5_000);
    pending.suspend('i', b!, Date.now() + 5_000);
    pending.suspend('i', c!, Date.now() + 5_000);
    expect([first.s.suspended, second.s.suspended, other.s.suspended]).toEqual([1, 0, 1]);
  });

  it('resumes an allowed call with what it had left, never more than its own budget, and sends its turn once it has the session', async () => {
    const { pending, sent, frames } = engine();
    const call = start(pending);
    const id = (sent[0]!.frame as Extract<HubToBrowser, { t: 'call' }>).call.id;
    pending.suspend('i', id, Date.now() + 60_000);
    await vi.advanceTimersByTimeAsync(30_000);
    pending.resume('i', id, Date.now() + 50_000); // the browser offers more than the call's 1 s: it gets 1 s
    await vi.advanceTimersByTimeAsync(0);
    expect(frames('turn')).toEqual([]); // not before it has the session again
    call.s.back();
    await vi.advanceTimersByTimeAsync(0);
    expect(frames('turn')).toEqual([{ instance: 'i', frame: { t: 'turn', id } }]);
    await vi.advanceTimersByTimeAsync(1_000 + ANSWER_SLACK_MS);
    expect(call.outcome()?.error?.data).toMatchObject({ code: 'timeout', message: '"click" did not finish within 1000 ms (after the user\'s permission). The page may still complete it: snapshot to see its state.' });
  });

  it('fails a resumed call whose lease ended while it waited, without sending its turn', async () => {
    const { pending, sent, frames } = engine();
    const call = start(pending);
    const id = (sent[0]!.frame as Extract<HubToBrowser, { t: 'call' }>).call.id;
    pending.suspend('i', id, Date.now() + 60_000);
    pending.resume('i', id, Date.now() + 500);
    call.s.fail(new Error('gone'));
    await vi.advanceTimersByTimeAsync(0);
    expect(call.outcome()?.error?.code).toBe('lease_expired');
    expect(frames('turn')).toEqual([]);
  });
});
