// The background's side of a call's deadline: answer just before it with the most useful reason the browser can see.
import { orielError } from '../../../shared/errors.js';
import { remainingMs } from '../../../shared/call.js';
import { sendToFrame } from '../frames.js';

/** The background answers this long before the deadline, so its diagnosis reaches the hub in time, ms. */
const DIAGNOSE_LEAD_MS = 300;
/** How long the top frame gets to show it is alive, ms. */
const PROBE_MS = 200;

/**
 * Races `work` against a timer that fires just before `deadline` and tells why, if it can: a page whose top frame no
 * longer answers at all is blocked by a dialog (alert, confirm, prompt) or a busy script, which waiting or
 * snapshotting cannot fix. Rejects with `timeout` then; otherwise settles as `work` does.
 */
export async function withDiagnosedDeadline<T>(work: Promise<T>, tab: number, op: string, deadline: number): Promise<T> {
  const budget = remainingMs(deadline);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(async () => {
      const probe = sendToFrame(tab, 0, 'document', {}).then(
        () => true,
        () => true,
      );
      const answered = await Promise.race([probe, new Promise<boolean>((r) => setTimeout(() => r(false), PROBE_MS))]);
      reject(
        answered
          ? orielError('timeout', `"${op}" did not finish within ${budget} ms. The page may still complete it: snapshot to see its state.`)
          : orielError('timeout', `"${op}" did not finish within ${budget} ms, and the page is not responding: a dialog (alert, confirm, prompt) may be open, or a script is busy. Ask the user to look at the tab; snapshot will wait too until it is free.`, {
              retryable: false,
              next: 'ask the user to close the dialog or wait for the page',
            }),
      );
    }, Math.max(0, budget - DIAGNOSE_LEAD_MS));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
