// Asking in the agent's app, the hub's side with a scripted browser link: a question goes to the calling client's app
// only where the person's policy names that client; an answer is refused unless it comes from the client whose call
// waits on that very prompt, now, with an offered answer; the question is withdrawn when the prompt is settled elsewhere
// or the call is cancelled.
import { describe, expect, it } from 'vitest';
import { Hub, type BrowserLink } from '../../broker/hub/hub.js';
import type { AppAsk } from '../../broker/hub/app-asks.js';
import type { HubToBrowser } from '../../shared/protocol.js';
import type { PromptQuestion } from '../../shared/ask-in-app.js';
import { logger } from '../../broker/common/log.js';
import { ModernAsks } from '../../broker/mcp/ask-in-app-modern.js';

const quiet = { ...logger('test'), info: () => {}, warn: () => {}, debug: () => {} } as ReturnType<typeof logger>;
const tab = { tab: 7, title: 'T', url: 'http://a.test/', origin: 'http://a.test', active: true };
const question: PromptQuestion = { id: 'p1', capability: 'exec', origin: 'http://a.test', title: 'T', tool: 'evaluate', code: '1+1', code_chars: 3, answers: ['allow_once', 'allow_code_session', 'deny_once'] };

function setup(allowed: string[] = ['agent-app']) {
  const hub = new Hub(quiet);
  const sent: HubToBrowser[] = [];
  const link: BrowserLink = { info: { name: 'chromium', version: '1', instance: 'inst01', extension_id: 'x' }, send: (m) => sent.push(m), close: () => {} };
  hub.attachBrowser(link, [tab]);
  hub.fromBrowser(link, { t: 'event', event: { kind: 'policy', disabled: [], upload_folder: null, ask_in_app: allowed } });
  const mine = hub.clients.add('c1', 'agent-app');
  const other = hub.clients.add('c2', 'agent-other');
  const asks: AppAsk[] = [];
  const signal = new AbortController();
  const pending = hub.callPage({ op: 'evaluate', args: { expression: '1+1' }, caller: mine, deadline: Date.now() + 10_000, signal: signal.signal, onAsk: (a) => asks.push(a) }).catch((e: unknown) => e);
  const callId = () => (sent.find((m) => m.t === 'call') as Extract<HubToBrowser, { t: 'call' }>).call.id;
  const suspend = (q = question) => hub.fromBrowser(link, { t: 'event', event: { kind: 'call_suspended', call: callId(), until: Date.now() + 60_000, prompt: q } });
  return { hub, link, sent, mine, other, asks, pending, callId, suspend, cancel: () => signal.abort() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("asking in the agent's app (hub)", () => {
  it('asks the calling client where the policy names it, and sends its answer bound to its call', async () => {
    const s = setup();
    await tick();
    s.suspend();
    expect(s.asks).toHaveLength(1);
    expect(s.asks[0]!.client).toBe('agent-app');
    s.asks[0]!.answer('allow_code_session');
    expect(s.sent.at(-1)).toEqual({ t: 'answer', prompt: 'p1', call: s.callId(), client: 'c1', via: 'agent-app', answer: 'allow_code_session' });
    expect(s.asks[0]!.withdrawn.aborted).toBe(true);
  });

  it('asks no one when the policy does not name the client (the default)', async () => {
    const s = setup([]);
    await tick();
    s.suspend();
    expect(s.asks).toHaveLength(0);
  });

  it("refuses another client's answer, an unknown or stale prompt, and an answer not offered", async () => {
    const s = setup();
    await tick();
    s.suspend();
    const refused = (f: () => void) => {
      try {
        f();
      } catch (e) {
        return (e as { data: { code: string; details?: { reason?: string } } }).data;
      }
      throw new Error('not refused');
    };
    expect(refused(() => s.hub.appAsks.answer(s.other, 'p1', s.callId(), 'allow_once'))).toMatchObject({ code: 'invalid_argument', details: { reason: 'not_yours' } });
    expect(refused(() => s.hub.appAsks.answer(s.mine, 'p-made-up', s.callId(), 'allow_once'))).toMatchObject({ code: 'invalid_argument', details: { reason: 'unknown_prompt' } });
    expect(refused(() => s.asks[0]!.answer('allow_origin'))).toMatchObject({ code: 'invalid_argument', details: { reason: 'not_offered' } });
    expect(s.sent.some((m) => m.t === 'answer')).toBe(false);
    s.asks[0]!.answer('deny_once');
    // Answered: the same answer again is stale.
    expect(refused(() => s.asks[0]!.answer('deny_once'))).toMatchObject({ details: { reason: 'unknown_prompt' } });
    expect(s.sent.filter((m) => m.t === 'answer')).toHaveLength(1);
  });

  it('withdraws the question when the popup settles the prompt, and when the call is cancelled', async () => {
    const s = setup();
    await tick();
    s.suspend();
    s.hub.fromBrowser(s.link, { t: 'event', event: { kind: 'call_resumed', call: s.callId(), deadline: Date.now() + 5_000 } });
    expect(s.asks[0]!.withdrawn.aborted).toBe(true);
    s.suspend({ ...question, id: 'p2' });
    expect(s.asks).toHaveLength(2);
    // The browser's prompt list no longer has it (denied in the popup): withdrawn.
    s.hub.fromBrowser(s.link, { t: 'event', event: { kind: 'prompts', prompts: [] } });
    expect(s.asks[1]!.withdrawn.aborted).toBe(true);
    s.suspend({ ...question, id: 'p3' });
    s.cancel();
    expect(s.asks[2]!.withdrawn.aborted).toBe(true);
    expect(await s.pending).toMatchObject({ data: { code: 'cancelled' } });
  });
});

describe("asking in the agent's app, 2026-07-28 (parked calls)", () => {
  const ask = (answers: string[] = []): AppAsk => ({ question, client: 'agent-app', until: Date.now() + 60_000, withdrawn: new AbortController().signal, answer: (a) => answers.push(a) });

  it('asks, then resumes with the answer on the retry of the same connection and tool', async () => {
    const asks = new ModernAsks<string>();
    const given: string[] = [];
    let finish!: (v: string) => void;
    const first = await asks.start('c1', 'evaluate', new AbortController().signal, (onAsk) => {
      onAsk(ask(given));
      return new Promise<string>((r) => (finish = r));
    });
    expect(first.kind).toBe('ask');
    const token = (first as { token: string }).token;
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    // Another connection, or another tool, quoting the state is refused; so is a made-up state.
    expect(() => asks.resume('c2', 'evaluate', token, { action: 'accept', content: { answer: 'allow_once' } }, new AbortController().signal)).toThrow(/another client/);
    expect(() => asks.resume('c1', 'click', token, {}, new AbortController().signal)).toThrow();
    expect(() => asks.resume('c1', 'evaluate', 'made-up', {}, new AbortController().signal)).toThrow();
    const resumed = asks.resume('c1', 'evaluate', token, { action: 'accept', content: { answer: 'allow_once' } }, new AbortController().signal);
    expect(given).toEqual(['allow_once']);
    finish('ran');
    expect(await resumed).toEqual({ kind: 'done', result: 'ran' });
    // Done: the state is stale now.
    expect(() => asks.resume('c1', 'evaluate', token, {}, new AbortController().signal)).toThrow();
  });

  it('a decline relays deny_once; an answer not offered relays nothing', async () => {
    const asks = new ModernAsks<string>();
    const given: string[] = [];
    const first = await asks.start('c1', 'evaluate', new AbortController().signal, (onAsk) => {
      onAsk(ask(given));
      return new Promise<string>(() => {});
    });
    const token = (first as { token: string }).token;
    void asks.resume('c1', 'evaluate', token, { action: 'accept', content: { answer: 'allow_any' } }, new AbortController().signal);
    expect(given).toEqual([]);
    void asks.resume('c1', 'evaluate', token, { action: 'decline' }, new AbortController().signal);
    expect(given).toEqual(['deny_once']);
  });
});
