// Asking in the agent's app in the 2026-07-28 revision, which has no server-to-client request: a tool call whose page
// call waits on a prompt answers `input_required` with the question and an unguessable `requestState`, while the page
// call goes on waiting (parked here); the client's retry carrying that state and the person's answer resumes it
// (https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr). The state is only a key into this
// table, bound to the connection that got it and to the tool; nothing in it is trusted (docs/architecture.md, "Asking
// in the agent's app").
import { randomBytes } from 'node:crypto';
import { APP_ANSWERS, type AppAnswer } from '../../shared/ask-in-app.js';
import { orielError } from '../../shared/errors.js';
import type { AppAsk } from '../hub/app-asks.js';

/** Most calls one client may have parked at once. */
const MAX_PARKED_PER_CLIENT = 32;
/** How long a parked call's outcome waits for the client's retry once it is known, ms. */
const KEEP_OUTCOME_MS = 60_000;

/** What a tool call does next: answer with its outcome, or ask the client (`input_required`) and wait for the retry. */
export type Step<R> = { kind: 'done'; result: R } | { kind: 'ask'; token: string; ask: AppAsk };

interface Parked<R> {
  client: string;
  tool: string;
  outcome?: { ok: true; value: R } | { ok: false; error: unknown };
  asks: AppAsk[];
  /** Questions already put to the client (each is asked once). */
  asked: Set<AppAsk>;
  /** The question the client was last asked. */
  current?: AppAsk;
  wake?: () => void;
  controller: AbortController;
  /** Detaches the request now driving the call from its cancellation. */
  unlink?: () => void;
  timer?: NodeJS.Timeout;
}

/** The parked tool calls of every 2026-era stdio connection of one hub, keyed by their request state. */
export class ModernAsks<R> {
  private readonly parked = new Map<string, Parked<R>>();

  /**
   * Starts tool call `tool` of `client`: `run` gets the hub's `onAsk` and the call's own signal (aborted when the
   * driving request is cancelled). Resolves with its outcome, or with a question to return as `input_required`.
   * @throws OrielError `busy` when the client has too many calls parked.
   */
  start(client: string, tool: string, signal: AbortSignal, run: (onAsk: (ask: AppAsk) => void, signal: AbortSignal) => Promise<R>): Promise<Step<R>> {
    if ([...this.parked.values()].filter((p) => p.client === client).length >= MAX_PARKED_PER_CLIENT) {
      throw orielError('busy', `Too many calls wait on the user's answer in your app already (${MAX_PARKED_PER_CLIENT}); nothing was done.`);
    }
    const token = randomBytes(16).toString('hex');
    const entry: Parked<R> = { client, tool, asks: [], asked: new Set(), controller: new AbortController() };
    this.parked.set(token, entry);
    run((ask) => {
      entry.asks.push(ask);
      entry.wake?.();
    }, entry.controller.signal).then(
      (value) => this.finish(token, entry, { ok: true, value }),
      (error: unknown) => this.finish(token, entry, { ok: false, error }),
    );
    return this.next(token, entry, signal);
  }

  /**
   * The client's retry with `token` and the person's `response` (the `inputResponses` entry): relays the answer if the
   * question is still out, then resolves as {@link start} does.
   * @throws OrielError `invalid_argument` when the state is unknown, stale, or another connection's or tool's.
   */
  resume(client: string, tool: string, token: string, response: unknown, signal: AbortSignal): Promise<Step<R>> {
    const entry = this.parked.get(token);
    if (!entry || entry.client !== client || entry.tool !== tool) {
      throw orielError('invalid_argument', 'That requestState names no call of yours waiting on a permission prompt (answered already, withdrawn, or another client\'s).', {
        details: { reason: entry ? 'not_yours' : 'unknown_prompt' },
      });
    }
    const ask = entry.current;
    const answer = answerOf(response);
    if (ask && answer && !ask.withdrawn.aborted) {
      try {
        ask.answer(answer);
      } catch {
        /* withdrawn meanwhile (the popup answered first): the call goes on as that answer says */
      }
    }
    return this.next(token, entry, signal);
  }

  /** Waits until the call ends (its outcome) or asks a question not yet put to the client. */
  private next(token: string, entry: Parked<R>, signal: AbortSignal): Promise<Step<R>> {
    entry.unlink?.();
    const onAbort = () => entry.controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    entry.unlink = () => signal.removeEventListener('abort', onAbort);
    if (signal.aborted) entry.controller.abort();
    return new Promise<Step<R>>((resolve, reject) => {
      const check = () => {
        if (entry.outcome) {
          entry.wake = undefined;
          entry.unlink?.();
          clearTimeout(entry.timer);
          this.parked.delete(token);
          if (entry.outcome.ok) resolve({ kind: 'done', result: entry.outcome.value });
          else reject(entry.outcome.error);
          return;
        }
        const ask = entry.asks.find((a) => !entry.asked.has(a) && !a.withdrawn.aborted);
        if (!ask) return;
        entry.wake = undefined;
        // The request that asked ends now: the call waits for the retry, not for this request's cancellation.
        entry.unlink?.();
        entry.asked.add(ask);
        entry.current = ask;
        resolve({ kind: 'ask', token, ask });
      };
      entry.wake = check;
      check();
    });
  }

  private finish(token: string, entry: Parked<R>, outcome: NonNullable<Parked<R>['outcome']>): void {
    entry.outcome = outcome;
    if (entry.wake) entry.wake();
    // Nobody waits: keep the outcome a while for the client's retry, then forget it.
    else entry.timer = setTimeout(() => this.parked.delete(token), KEEP_OUTCOME_MS).unref();
  }
}

/** The answer in an `elicitation/create` result: an offered answer when accepted, `deny_once` when declined. */
function answerOf(response: unknown): AppAnswer | undefined {
  const r = response as { action?: unknown; content?: { answer?: unknown } } | undefined;
  if (r?.action === 'decline') return 'deny_once';
  const chosen = r?.action === 'accept' ? r.content?.answer : undefined;
  return typeof chosen === 'string' && (APP_ANSWERS as readonly string[]).includes(chosen) ? (chosen as AppAnswer) : undefined;
}
