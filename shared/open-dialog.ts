// The error for a call on a tab where a JavaScript dialog of the browser's own waits for the person (docs/tools.md,
// "Dialogs"): built by the background's stage (extension/background/pipeline/open-dialog.ts) and by the content script
// that refuses a call while its page is stopped (extension/content/dialogs.ts).
import { orielError, type OrielError } from './errors.js';
import { dialogMessageText } from './page-text.js';

/**
 * A dialog of the browser's own, open for the person: its type, the page's message, and since when (ms since the epoch).
 * `answered` is set when Oriel left it open because the page had already opened that many in a row that Oriel
 * answered ({@link MAX_ANSWERED_DIALOGS}).
 */
export interface OpenDialog {
  type: 'alert' | 'confirm' | 'prompt';
  message: string;
  since: number;
  answered?: number;
}

/**
 * The most JavaScript dialogs Oriel answers in one call, or between two calls by the tab's policy; the next one is
 * left open for the person. A page that opens dialogs without end (`while (true) alert(…)`) is then stopped on a
 * dialog as it would be without Oriel, instead of running its loop at full speed (docs/tools.md, "Dialogs").
 */
export const MAX_ANSWERED_DIALOGS = 20;

/**
 * `dialog_opened` for a call that meets `d`: which dialog, its text labelled as the page's, and what to do. `during`:
 * it opened while the call ran (what the call did before stays done), else it was open when the call came (nothing
 * was done).
 */
export function openDialogError(d: OpenDialog, during = false): OrielError {
  const what = `${d.type === 'alert' ? 'an' : 'a'} ${d.type} dialog ${dialogMessageText(d.message)}`;
  if (d.answered !== undefined) return tooManyDialogsError(d, what, during);
  const head = during
    ? `While this call ran, the page opened ${what} for the person; the page is stopped until it is answered, so the call stopped too (what it did before stays done).`
    : `The page in this tab shows ${what}, open for the person since ${new Date(d.since).toISOString()}; the page is stopped until it is answered, so Oriel did nothing.`;
  return orielError(
    'dialog_opened',
    `${head} Ask the person to answer it in the tab, then call again (calls on other tabs work meanwhile). For next time, set dialog_policy ("accept" or "dismiss") on an acting call, and Oriel answers the dialogs that open between calls itself.`,
    {
      retryable: true,
      next: 'ask the user to answer the dialog in the tab, then retry; set dialog_policy so Oriel answers such dialogs',
      details: { open_dialog: { type: d.type, message: d.message, since: d.since } },
    },
  );
}

/** `dialog_opened` for a dialog Oriel left open because the page had opened more than it answers in a row. */
function tooManyDialogsError(d: OpenDialog, what: string, during: boolean): OrielError {
  return orielError(
    'dialog_opened',
    `The page opened more than ${d.answered} dialogs ${during ? 'while this call ran' : 'one after another'}: Oriel answered ${d.answered} and left the next one, ${what}, open for the person, so a page that opens dialogs without end is stopped as it would be without Oriel. ${during ? 'What the call did before stays done. ' : 'Oriel did nothing. '}Ask the person to answer or close it (or close the tab if the page keeps opening dialogs), then call again; avoid the action that opens them.`,
    {
      retryable: false,
      next: 'ask the user to answer the dialog in the tab or close the tab; do not repeat the action that opens dialogs in a loop',
      details: { reason: 'too_many_dialogs', open_dialog: { type: d.type, message: d.message, since: d.since, answered: d.answered } },
    },
  );
}
