// Pipeline stage right after the shared tab (./shared-tab.ts): a tab whose page shows a JavaScript dialog of the
// browser's own, unanswered, is stopped until the person answers it; a call there fails at once with `dialog_opened`
// instead of waiting on it (Chromium) or running in the page's paused script (Firefox). A dialog that opens while a
// call runs stops that call the same way (`stopOnDialog`). The reports come from the tab's content scripts
// (../open-dialogs.ts).
import { openDialogError } from '../../../shared/open-dialog.js';
import { onDialogOpened, openDialogOf } from '../open-dialogs.js';
import { cancelInFrames } from './running.js';
import type { Stage } from './types.js';

export const noOpenDialog: Stage = async (state) => {
  const open = openDialogOf(state.tab);
  if (open) throw openDialogError(open);
};

/**
 * Settles as `work` does, unless a dialog of the browser's own opens in `tab` first: the call then fails with
 * `dialog_opened` and its content side is cancelled (best effort; a stopped page hears it when it runs again).
 */
export async function stopOnDialog<T>(work: Promise<T>, tab: number, call: number): Promise<T> {
  let stop = () => {};
  const opened = new Promise<never>((_, reject) => {
    stop = onDialogOpened((t, dialog) => {
      if (t !== tab) return;
      cancelInFrames(call);
      reject(openDialogError(dialog, true));
    });
  });
  try {
    return await Promise.race([work, opened]);
  } finally {
    stop();
  }
}
