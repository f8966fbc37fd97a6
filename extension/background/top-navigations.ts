// Top-frame navigations under way in each tab: begun (webNavigation `onBeforeNavigate`) and neither committed nor
// failed yet. A snapshot taken meanwhile reads the page the tab still shows, which it is about to leave (a navigate
// that timed out while the next page was slow to answer, a link the person followed): the outline says so
// (./snapshot.ts). Kept in memory: a restarted background knows of none until the next one begins.

/** Tab id → when its top frame's navigation began, ms since the epoch. */
const underWay = new Map<number, number>();

chrome.webNavigation.onBeforeNavigate.addListener((d) => {
  // A page the browser prerenders in the tab's name is not what the tab is leaving for (Chromium's documentLifecycle).
  if (d.frameId === 0 && (d as { documentLifecycle?: string }).documentLifecycle !== 'prerender') underWay.set(d.tabId, d.timeStamp);
});
const settled = (d: { tabId: number; frameId: number }) => {
  if (d.frameId === 0) underWay.delete(d.tabId);
};
// A navigation that ends as a download, or is stopped, fails (`onErrorOccurred`): it is settled too. A top document
// that reaches DOMContentLoaded later settles whatever was noted before it, should an event have been missed.
chrome.webNavigation.onCommitted.addListener(settled);
chrome.webNavigation.onErrorOccurred.addListener(settled);
chrome.webNavigation.onDOMContentLoaded.addListener(settled);
chrome.tabs.onRemoved.addListener((tab) => underWay.delete(tab));

/** How long the navigation of `tab`'s top frame under way has been going, ms; undefined when none is. */
export function navigationUnderWay(tab: number, now = Date.now()): number | undefined {
  const since = underWay.get(tab);
  return since === undefined ? undefined : Math.max(0, now - since);
}
