// How a tool's text mentions the JavaScript dialogs an action answered (shared/act.ts DialogSeen).
import type { DialogSeen } from '../../../shared/act.js';
import { quoteCapped } from '../../../shared/snapshot/escape.js';

/** " Answered confirm "Delete?" with accept." for each dialog, or '' when there were none. Page text is quoted. */
export function dialogNote(dialogs: readonly DialogSeen[] | undefined): string {
  if (!dialogs?.length) return '';
  // A dialog's message is page text: through the outline's escaper, so it cannot reorder or forge the sentence.
  return dialogs.map((d) => ` Answered ${d.type} ${quoteCapped(d.message, 200)} with ${d.answer}.`).join('');
}
