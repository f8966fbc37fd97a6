// Keeps the trail of each shared tab (./ops/nav-trail.ts) as its top frame moves: every page it commits while shared,
// whoever moved it — a link an agent clicked, the page's own script, the person — and the address changes within a
// document. Registered at top level so a restarted background hears the event that woke it.
import { committed, updateTrail, type Arrival } from './ops/nav-trail.js';
import { isShared } from './sharing.js';

type Details = { tabId: number; frameId: number; url: string; transitionQualifiers?: string[] };

/** How the browser says the page arrived. */
function arrivalOf(d: Details, sameDocument: boolean): Arrival {
  const q = d.transitionQualifiers ?? [];
  if (q.includes('forward_back')) return 'history';
  // A client redirect is the browser replacing the entry: Chromium reports it for a meta refresh, location.replace and a
  // script's redirect while the page loads; Firefox for a meta refresh.
  if (sameDocument || q.includes('client_redirect')) return 'replace';
  return 'new';
}

function record(d: Details, sameDocument: boolean): void {
  // A page the browser prerenders in the tab's name is not one the tab shows (Chromium's documentLifecycle).
  if (d.frameId !== 0 || (d as { documentLifecycle?: string }).documentLifecycle === 'prerender') return;
  const how = arrivalOf(d, sameDocument);
  void isShared(d.tabId)
    .then((shared) => (shared ? updateTrail(d.tabId, (t) => committed(t, d.url, how)) : undefined))
    .catch(() => undefined);
}

chrome.webNavigation.onCommitted.addListener((d) => record(d, false));
chrome.webNavigation.onReferenceFragmentUpdated.addListener((d) => record(d, true));
chrome.webNavigation.onHistoryStateUpdated.addListener((d) => record(d, true));
