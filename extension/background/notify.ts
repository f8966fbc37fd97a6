// Telling a person who is not looking at the popup that an agent waits for their answer: a system notification
// (https://developer.chrome.com/docs/extensions/reference/api/notifications) when a new prompt opens, cleared when none
// waits; clicking it shows the prompts — the toolbar popup where the browser lets an extension open it, otherwise the
// same page in a small window of its own.
import { CAPABILITY_WORDS } from '../consent/rules.js';
import type { PromptView } from '../popup-messages.js';

const NOTIFICATION = 'oriel-prompts';
const WINDOW_KEY = 'promptsWindow';
/** The last notification raised, kept in storage.session: what it said, and whether the browser could show it. */
const LAST_NOTIFICATION_KEY = 'lastNotification';
const POPUP = 'extension/ui/popup.html';

let shown = new Set<string>();

chrome.notifications.onClicked.addListener((id) => {
  if (id !== NOTIFICATION) return;
  void chrome.notifications.clear(id);
  void showPrompts();
});

/** Notifies when a prompt opened that was not notified yet; clears the notification when no prompt waits. */
export async function notifyPrompts(prompts: readonly PromptView[]): Promise<void> {
  const ids = new Set(prompts.map((p) => p.id));
  const fresh = prompts.filter((p) => !shown.has(p.id));
  shown = ids;
  try {
    if (prompts.length === 0) {
      await chrome.notifications.clear(NOTIFICATION);
      return;
    }
    if (fresh.length === 0) return;
    const p = fresh[fresh.length - 1]!;
    // Plain text: no page content here (titles stay in the popup, labelled); agent names are the clients' own words.
    const agent = p.agents[0] ?? 'An agent';
    const more = prompts.length > 1 ? ` ${prompts.length - 1} more request${prompts.length > 2 ? 's' : ''} waiting.` : '';
    const options: chrome.notifications.NotificationCreateOptions = {
      type: 'basic',
      iconUrl: chrome.runtime.getURL('icons/oriel-128.png'),
      title: 'Oriel: an agent asks for permission',
      message: `${agent.slice(0, 60)} wants to ${CAPABILITY_WORDS[p.capability]} on ${p.origin === 'null' ? 'a page with an opaque origin' : p.origin}.${more} Click to answer.`,
    };
    // Notifications may be unavailable (switched off by the person, or a browser without a notification service):
    // the badge still counts, and what happened is kept for the options page and for tests.
    const error = await chrome.notifications.create(NOTIFICATION, options).then(
      () => undefined,
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    );
    await chrome.storage.session.set({ [LAST_NOTIFICATION_KEY]: { prompt: p.id, title: options.title, message: options.message, at: Date.now(), ...(error !== undefined && { error }) } });
  } catch (err) {
    console.warn('[oriel] could not show a notification', err);
  }
}

/**
 * Shows the waiting prompts: opens the toolbar popup where the browser allows it without a click on the button
 * (chrome.action.openPopup), else focuses or opens a popup window with the same page.
 * @returns how they were shown.
 */
export async function showPrompts(): Promise<'popup' | 'window'> {
  try {
    await chrome.action.openPopup();
    return 'popup';
  } catch {
    /* not allowed here: use a window */
  }
  const known = (await chrome.storage.session.get(WINDOW_KEY))[WINDOW_KEY];
  if (typeof known === 'number') {
    const focused = await chrome.windows.update(known, { focused: true }).then(
      () => true,
      () => false,
    );
    if (focused) return 'window';
  }
  const created = await chrome.windows.create({ url: chrome.runtime.getURL(`${POPUP}?window`), type: 'popup', width: 460, height: 640, focused: true });
  if (created?.id !== undefined) await chrome.storage.session.set({ [WINDOW_KEY]: created.id });
  return 'window';
}
