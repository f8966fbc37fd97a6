// The error for a call on a tab where a JavaScript dialog of the browser's own waits for the person (docs/tools.md,
// "Dialogs"): built by the background's stage (extension/background/pipeline/open-dialog.ts) and by the content script
// that refuses a call while its page is stopped (extension/content/dialogs.ts).
import { orielError, type OrielError } from './errors.js';
import { dialogMessageText } from './page-text.js';

/** A dialog of the browser's own, open for the person: its type, the page's message, and since when (ms since the epoch). */
export interface OpenDialog {
  type: 'alert' | 'confirm' | 'prompt';
  message: string;
  since: number;
}

/**
 * `dialog_opened` for a call that meets `d`: which dialog, its text labelled as the page's, and what to do. `during`:
 * it opened while the call ran (what the call did before stays done), else it was open when the call came (nothing
 * was done).
 */
export function openDialogError(d: OpenDialog, during = false): OrielError {
  const what = `${d.type === 'alert' ? 'an' : 'a'} ${d.type} dialog ${dialogMessageText(d.message)}`;
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
