// Leaving a page that asks first ("Leave site?", HTML `beforeunload`) for navigate: before the tab loads another page,
// reloads or closes, its top frame's content script asks the page's own handlers (extension/content/dialogs.ts), so
// the browser's prompt — which no extension API can answer without the debugger — never opens under an agent's call.
import { DialogsResult } from '../../../shared/ops.js';
import type { DialogAnswer, DialogPolicy, DialogSeen } from '../../../shared/act.js';
import { OrielError, orielError } from '../../../shared/errors.js';
import { sendToFrame } from '../frames.js';

/** How long the page gets to say whether it asks, ms: a page blocked by a script or the person's dialog is not waited for. */
const PROBE_BUDGET_MS = 5_000;

/** What navigate does about leaving: stay (the page asked and the answer was dismiss) or go, and what to report. */
export interface Leave {
  stay: boolean;
  dialogs: DialogSeen[];
}

/**
 * Asks the page in `tab` whether it would ask before being left, and answers as the call says (`dialog`, else the tab's
 * `dialog_policy`): accept lets it go for the next `acceptMs` ms without its handlers asking again; dismiss stays.
 * A page that does not answer in time (blocked, or no Oriel content script) is left as the browser would leave it.
 * @throws OrielError `dialog_opened` when the page asks and neither the call nor the tab says how to answer (nothing
 *   was done: the tab stays on the page); `session_gone` when the tab is closed.
 */
export async function leavePage(tab: number, args: { dialog?: DialogAnswer; dialog_policy?: DialogPolicy }, acceptMs: number): Promise<Leave> {
  const policy = args.dialog_policy === 'accept' || args.dialog_policy === 'dismiss' ? args.dialog_policy : undefined;
  const answer = args.dialog ?? policy;
  const asks = await pageAsks(tab, answer === 'accept', acceptMs);
  if (!asks) return { stay: false, dialogs: [] };
  const seen: DialogSeen = { type: 'beforeunload', message: '', answer: answer ?? 'dismiss' };
  if (answer === undefined) {
    throw orielError(
      'dialog_opened',
      'The page asks before it is left ("Leave site? Changes you made may not be saved"), so Oriel stayed on it and did nothing. To leave anyway, call again with dialog: "accept"; to stay without an error, dialog: "dismiss".',
      { details: { dialogs: [seen] } },
    );
  }
  return { stay: answer === 'dismiss', dialogs: [seen] };
}

async function pageAsks(tab: number, accept: boolean, acceptMs: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), PROBE_BUDGET_MS);
  });
  try {
    const reply = await Promise.race([sendToFrame(tab, 0, 'dialogs', { leaving: accept ? 'accept' : 'probe', accept_ms: Math.min(acceptMs, 130_000) }), late]);
    if (!reply) return false;
    const parsed = DialogsResult.safeParse(reply.value);
    return parsed.success && parsed.data.asks;
  } catch (err) {
    if (err instanceof OrielError && err.data.code === 'session_gone') throw err;
    return false;
  } finally {
    clearTimeout(timer);
  }
}
