// The background's side of a call's deadline: a clock that stops while the call waits on the person's permission
// prompt (the prompt has its own budget) and tells the hub so, and a race that answers just before the deadline with
// the most useful reason the browser can see. The hub's side: broker/hub/hub.ts (call_suspended, call_resumed).
import { orielError } from '../../../shared/errors.js';
import { remainingMs } from '../../../shared/call.js';
import type { BrowserEvent } from '../../../shared/protocol.js';
import type { PromptQuestion } from '../../../shared/ask-in-app.js';
import { sendToFrame } from '../frames.js';

/** The background answers this long before the deadline, so its diagnosis reaches the hub in time, ms. */
const DIAGNOSE_LEAD_MS = 300;
/** How long the top frame gets to show it is alive, ms. */
const PROBE_MS = 200;

/**
 * One call's deadline (absolute, ms since the Unix epoch). {@link suspend} stops it while the call waits on a prompt;
 * {@link resume} starts it again with the budget that was left. Each change is reported to the hub with `report`.
 */
export class CallClock {
  private left: number | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly call: number,
    private at: number,
    private readonly report: (event: BrowserEvent) => void,
  ) {}

  /** The current deadline (meaningless while suspended). */
  get deadline(): number {
    return this.at;
  }

  get suspended(): boolean {
    return this.left !== undefined;
  }

  /** Stops the clock while the call waits on a prompt until `until` (ms since the epoch); `prompt` is its question. */
  suspend(until: number, prompt?: PromptQuestion): void {
    if (this.left === undefined) this.left = remainingMs(this.at);
    this.report({ kind: 'call_suspended', call: this.call, until, ...(prompt && { prompt }) });
    this.changed();
  }

  /** Starts the clock again with the budget left when it was suspended. */
  resume(): void {
    if (this.left === undefined) return;
    this.at = Date.now() + this.left;
    this.left = undefined;
    this.report({ kind: 'call_resumed', call: this.call, deadline: this.at });
    this.changed();
  }

  /** Calls `listener` on every suspend and resume; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

/**
 * Races `work` against a timer that fires just before the clock's deadline (never while it is suspended) and tells
 * why, if it can: a page whose top frame no longer answers at all is blocked by a dialog (alert, confirm, prompt) or a
 * busy script, which waiting or snapshotting cannot fix. Rejects with `timeout` then; otherwise settles as `work` does.
 */
export async function withDiagnosedDeadline<T>(work: Promise<T>, tab: number, op: string, clock: CallClock): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let budget = remainingMs(clock.deadline);
  let unsubscribe = () => {};
  const late = new Promise<never>((_, reject) => {
    const fire = async () => {
      const probe = sendToFrame(tab, 0, 'document', {}).then(
        () => true,
        () => true,
      );
      const answered = await Promise.race([probe, new Promise<boolean>((r) => setTimeout(() => r(false), PROBE_MS))]);
      reject(
        answered
          ? orielError('timeout', `"${op}" did not finish within ${budget} ms. The page may still complete it: snapshot to see its state.`)
          : orielError('timeout', `"${op}" did not finish within ${budget} ms, and the page is not responding: a dialog (alert, confirm, prompt) may be open, or a script is busy. Ask the user to look at the tab; snapshot will wait too until it is free. To have Oriel answer dialogs that open while no call runs, set dialog_policy.`, {
              retryable: false,
              next: 'ask the user to close the dialog or wait for the page',
            }),
      );
    };
    const arm = () => {
      clearTimeout(timer);
      if (clock.suspended) return;
      budget = remainingMs(clock.deadline);
      timer = setTimeout(() => void fire(), Math.max(0, budget - DIAGNOSE_LEAD_MS));
    };
    unsubscribe = clock.onChange(arm);
    arm();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    unsubscribe();
  }
}
