// How a tool's text mentions the JavaScript dialogs an action answered (shared/act.ts DialogSeen).
import type { DialogSeen } from '../../../shared/act.js';

/** " Answered confirm "Delete?" with accept." for each dialog, or '' when there were none. Page text is quoted. */
export function dialogNote(dialogs: readonly DialogSeen[] | undefined): string {
  if (!dialogs?.length) return '';
  return dialogs.map((d) => ` Answered ${d.type} ${JSON.stringify(d.message.slice(0, 200))} with ${d.answer}.`).join('');
}
