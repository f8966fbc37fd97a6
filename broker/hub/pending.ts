// The hub's pending page calls: each call's one timer (its deadline, re-armed while the person answers a permission
// prompt and after it), its cancellation by the client, its turn given up and taken back around a prompt, and how it
// settles — once. Which browser, session or client a call belongs to is the hub's business (./hub.ts).
import { errorData, OrielError } from '../../shared/errors.js';
import type { HubToBrowser } from '../../shared/protocol.js';
import type { PublicOpName } from '../../shared/ops.js';
import { remainingMs, type Caller, type PageCall } from '../../shared/call.js';
import type { Slot } from './scheduler.js';
import type { AppAsk } from './app-asks.js';

/** The hub answers a call this long after its deadline at the latest, so the browser's own diagnosis arrives first, ms. */
export const ANSWER_SLACK_MS = 250;
/** The hub's backstop after a permission prompt's end: the browser, which settles the prompt, answers first, ms. */
export const PROMPT_SLACK_MS = 2_000;
/** Longest a call may wait on a permission prompt (the options page allows 600 s), ms. */
export const MAX_PROMPT_WAIT_MS = 600_000;

/** Failures after which the page may still be working on the call: it is told to stop (a best-effort `cancel`). */
const CANCEL_ON: ReadonlySet<string> = new Set(['timeout', 'cancelled', 'session_gone', 'permission_timeout', 'lease_expired']);

/** One page call sent to a browser and not answered yet. */
export interface PendingCall {
  id: number;
  op: PublicOpName;
  session: string;
  instance: string;
  tab: number;
  /** The caller's client id (its calls are cancelled when it disconnects). */
  client: string;
  /** The tab's top document when the call was sent (a surviving navigate completes on another one). */
  documentBefore?: string;
  /** Set when the browser went away while this navigate was pending: it completes with the tab's next document. */
  survived?: boolean;
  /** The operation's own budget, ms: a call resumed after a prompt never gets more than this left. */
  budget: number;
  /** (Re)arms the one timer that answers the call if the browser does not: at `at` (ms since the epoch), with `error`. */
  arm(at: number, error: () => OrielError): void;
  /** Told when the call starts waiting on a permission prompt (until `until`, ms since the epoch). */
  onPrompt?: (until: number) => void;
  /** Asks the prompt in the caller's app too (./app-asks.ts), where the person allows it for this client. */
  onAsk?: (ask: AppAsk) => void;
  caller: Caller;
  /** The call's turn on its session: given up while it waits on a prompt, so other calls on the tab run meanwhile. */
  slot: Slot;
  /** Set while the turn is given up: waits until the call has the session again. */
  resumeTurn?: () => Promise<void>;
  resolve(value: unknown): void;
  reject(err: OrielError): void;
}

/** How the pending calls reach the browsers, and who hears that a call ended. */
export interface PendingLinks {
  /**
   * Sends one frame to browser `instance` (nothing when it is not connected).
   * @throws RangeError when the frame exceeds the browser's 1 MB cap.
   */
  send(instance: string, frame: HubToBrowser): void;
  /** Told once per call when it settles, however it settles. */
  ended(id: number): void;
}

/** What {@link PendingCalls.start} needs besides the envelope: where the call runs and who listens. */
export interface CallStart {
  instance: string;
  /** The tab's top document now, if known. */
  documentBefore?: string;
  slot: Slot;
  /** Aborted when the client cancels the request. */
  signal?: AbortSignal;
  onPrompt?: (until: number) => void;
  onAsk?: (ask: AppAsk) => void;
}

export class PendingCalls {
  private readonly calls = new Map<number, PendingCall>();
  private nextId = 1;

  constructor(private readonly links: PendingLinks) {}

  /** Every call still pending, in the order they were sent. */
  values(): IterableIterator<PendingCall> {
    return this.calls.values();
  }

  get(id: number): PendingCall | undefined {
    return this.calls.get(id);
  }

  /** The call `id` if it is pending on browser `instance` (a browser answers only for its own calls). */
  of(instance: string, id: number): PendingCall | undefined {
    const call = this.calls.get(id);
    return call && call.instance === instance ? call : undefined;
  }

  /**
   * Sends one call (`envelope` without its id: minted here) to its browser and waits for its answer, until the
   * envelope's deadline (plus {@link ANSWER_SLACK_MS}) or the client's cancellation.
   * @throws OrielError `timeout`, `cancelled`, `too_large` (the frame exceeds the browser's cap), or whatever it is
   *   settled with ({@link settle}).
   */
  start(envelope: Omit<PageCall, 'id'>, start: CallStart): Promise<unknown> {
    const id = this.nextId++;
    const op = envelope.op as PublicOpName;
    const { signal } = start;
    return new Promise<unknown>((resolve, reject) => {
      const budget = remainingMs(envelope.deadline);
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => this.settle(id, new OrielError(errorData('cancelled', `"${op}" was cancelled by the client.`)));
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const call: PendingCall = {
        id,
        op,
        session: envelope.session,
        instance: start.instance,
        tab: envelope.tab,
        client: envelope.client.id,
        caller: envelope.client,
        ...(start.onAsk && { onAsk: start.onAsk }),
        ...(start.documentBefore !== undefined && { documentBefore: start.documentBefore }),
        budget,
        slot: start.slot,
        arm: (at, error) => {
          clearTimeout(timer);
          timer = setTimeout(() => this.settle(id, error()), remainingMs(at));
        },
        ...(start.onPrompt && { onPrompt: start.onPrompt }),
        resolve: (v) => {
          done();
          resolve(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      };
      call.arm(envelope.deadline + ANSWER_SLACK_MS, () => new OrielError(errorData('timeout', `"${op}" did not finish within ${budget} ms. The page may still complete it: snapshot to see its state.`)));
      this.calls.set(id, call);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        this.links.send(start.instance, { t: 'call', call: { id, ...envelope } });
      } catch (err) {
        this.settle(id, new OrielError(errorData('too_large', `The request is too large to send to the browser (${err instanceof Error ? err.message : 'over 1 MB'}).`)));
      }
    });
  }

  /**
   * Settles pending call `id` once (later settlements of the same call do nothing): with `error`, or else with
   * `value`. Failures other than the page's own answer send the page a best-effort `cancel`.
   */
  settle(id: number, error: OrielError | undefined, value?: unknown): void {
    const call = this.calls.get(id);
    if (!call) return;
    this.calls.delete(id);
    this.links.ended(id);
    if (!error) return call.resolve(value);
    if (CANCEL_ON.has(error.code)) this.sendQuietly(call.instance, { t: 'cancel', id });
    call.reject(error);
  }

  /**
   * The browser reports that call `id` waits on the person's permission prompt until `until` (ms since the epoch): its
   * own deadline stops and the prompt's budget (at most {@link MAX_PROMPT_WAIT_MS}) applies, and it gives up its turn
   * so the tab's other calls run meanwhile — unless another call of the same session already stepped aside (so a
   * client flooding a tab with calls that ask raises at most two prompts there).
   * @returns the call, with the prompt's end, or undefined when it is not pending on `instance`.
   */
  suspend(instance: string, id: number, until: number): { call: PendingCall; until: number } | undefined {
    const call = this.of(instance, id);
    if (!call) return undefined;
    const end = Math.min(until, Date.now() + MAX_PROMPT_WAIT_MS);
    const seconds = Math.max(1, Math.round((end - Date.now()) / 1000));
    call.arm(end + PROMPT_SLACK_MS, () => new OrielError(errorData('permission_timeout', `"${call.op}" waited for the user's permission and got no answer within ${seconds} s.`)));
    const asideAlready = [...this.calls.values()].some((c) => c !== call && c.session === call.session && c.resumeTurn);
    if (!asideAlready) {
      try {
        call.resumeTurn ??= call.slot.suspend();
      } catch {
        /* not the running call of its session (it already gave up its turn): nothing to give up */
      }
    }
    call.onPrompt?.(end);
    return { call, until: end };
  }

  /**
   * The browser reports the person allowed call `id`: it goes on with the budget it had left (`deadline`), never more
   * than its own, once it has its session again — ahead of calls that arrived after it — when the browser is sent
   * `turn`. A lease that ended meanwhile fails it with `lease_expired`.
   * @returns the call, or undefined when it is not pending on `instance`.
   */
  resume(instance: string, id: number, deadline: number): PendingCall | undefined {
    const call = this.of(instance, id);
    if (!call) return undefined;
    const end = Math.min(deadline, Date.now() + call.budget);
    call.arm(end + ANSWER_SLACK_MS, () => new OrielError(errorData('timeout', `"${call.op}" did not finish within ${call.budget} ms (after the user's permission). The page may still complete it: snapshot to see its state.`)));
    const resume = call.resumeTurn;
    call.resumeTurn = undefined;
    const go = () => {
      if (this.calls.has(call.id)) this.sendQuietly(instance, { t: 'turn', id: call.id });
    };
    if (!resume) go();
    else resume().then(go, (err: unknown) => this.settle(call.id, err instanceof OrielError ? err : new OrielError(errorData('lease_expired', 'The lease this call ran under ended while it waited for the permission prompt.'))));
    return call;
  }

  /** Sends a frame whose loss changes nothing: the browser that went away took its calls with it. */
  private sendQuietly(instance: string, frame: HubToBrowser): void {
    try {
      this.links.send(instance, frame);
    } catch {
      /* best effort */
    }
  }
}
