// The toolbar button's badge and title: "ON" on shared tabs, and — on every tab while any are waiting — the number of
// permission prompts waiting for the person (a tab's own badge text would hide the global one, so both are set).
const SHARED = { text: 'ON', color: '#1a7f37', title: 'Oriel: this tab is shared with your agents' };
const WAITING_COLOR = '#c5221f';

const shared = new Set<number>();
let waiting = 0;

/** What one tab's badge shows now. */
function badgeOf(tab: number | undefined): { text: string; color: string; title: string } {
  if (waiting > 0) return { text: String(waiting), color: WAITING_COLOR, title: `Oriel: ${waiting} permission request${waiting === 1 ? '' : 's'} waiting — click to answer` };
  if (tab !== undefined && shared.has(tab)) return SHARED;
  return { text: '', color: SHARED.color, title: 'Oriel' };
}

async function apply(tab: number | undefined): Promise<void> {
  const b = badgeOf(tab);
  const where = tab === undefined ? {} : { tabId: tab };
  try {
    await chrome.action.setBadgeText({ ...where, text: b.text });
    await chrome.action.setBadgeBackgroundColor({ ...where, color: b.color });
    await chrome.action.setTitle({ ...where, title: b.title });
  } catch {
    /* the tab closed meanwhile */
  }
}

/** Marks a tab shared or not. */
export function markShared(tab: number, isShared: boolean): Promise<void> {
  if (isShared) shared.add(tab);
  else shared.delete(tab);
  return apply(tab);
}

/** Shows how many permission prompts wait (0 clears the count). */
export async function showWaiting(count: number): Promise<void> {
  if (count === waiting) return;
  waiting = count;
  await apply(undefined);
  await Promise.all([...shared].map((tab) => apply(tab)));
}
