// The JavaScript dialogs of the browser's own (alert, confirm, prompt) open for the person in shared tabs, as their
// content scripts report them (side message `dialog_state`; page side: extension/content/dialogs.ts): one entry per
// frame, forgotten when the frame commits a new document, the tab closes or stops being shared. While one is open, the
// page is stopped (Chromium) or runs calls inside its paused script (Firefox), so the pipeline's stage
// (./pipeline/open-dialog.ts) ends calls on that tab at once with `dialog_opened` (docs/tools.md, "Dialogs").
// The reports are page-facing: a page can forge them, which blocks or unblocks calls on its own tab only.
import type { OpenDialog } from '../../shared/open-dialog.js';
import type { DialogState } from '../../shared/side-messages.js';
import { isShared, onSharingChanged, sharedTabIds } from './sharing.js';

/** Frames of one tab with an entry at most (a page cannot grow the map past it). */
const MAX_FRAMES_PER_TAB = 64;

/** Per tab, per frame: the last report's number and the dialog it said is open (none: closed). */
const tabs = new Map<number, Map<number, { seq: number; dialog?: OpenDialog }>>();
/** Called with the tab when a dialog opens in it (calls under way there stop). */
const openers = new Set<(tab: number, dialog: OpenDialog) => void>();

/** The dialog open for the person in `tab` (in any frame), undefined when none. */
export function openDialogOf(tab: number): OpenDialog | undefined {
  for (const { dialog } of tabs.get(tab)?.values() ?? []) if (dialog) return dialog;
  return undefined;
}

/** Calls `listener` whenever a dialog opens in a shared tab; returns what removes it. */
export function onDialogOpened(listener: (tab: number, dialog: OpenDialog) => void): () => void {
  openers.add(listener);
  return () => openers.delete(listener);
}

/** Takes one content script's report (validated on arrival: extension/side-channel.ts); answers at once. */
export async function acceptDialogState(state: DialogState, sender: chrome.runtime.MessageSender): Promise<null> {
  const tab = sender.tab?.id;
  const frame = sender.frameId;
  if (tab === undefined || frame === undefined || !(await isShared(tab))) return null;
  let frames = tabs.get(tab);
  const last = frames?.get(frame);
  // A report older than the last one heard from the frame arrived late: the newer one stands.
  if (last && last.seq >= state.seq) return null;
  if (!last && (frames?.size ?? 0) >= MAX_FRAMES_PER_TAB) return null;
  if (!frames) tabs.set(tab, (frames = new Map()));
  const dialog = state.open ? { ...state.open, since: Date.now() } : undefined;
  frames.set(frame, { seq: state.seq, ...(dialog && { dialog }) });
  if (dialog) for (const l of openers) l(tab, dialog);
  return null;
}

/** Forgets the dialogs of frame `frame` of `tab` (its new document has none), or of every frame when it is the top. */
function forgetFrame(tab: number, frame: number): void {
  if (frame === 0) tabs.delete(tab);
  else tabs.get(tab)?.delete(frame);
}

chrome.webNavigation.onCommitted.addListener((d) => forgetFrame(d.tabId, d.frameId));
chrome.tabs.onRemoved.addListener((tab) => void tabs.delete(tab));
onSharingChanged(() => {
  void sharedTabIds().then((shared) => {
    for (const tab of tabs.keys()) if (!shared.includes(tab)) tabs.delete(tab);
  });
});
