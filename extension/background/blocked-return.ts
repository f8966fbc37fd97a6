// After the navigation guard stopped a top-level navigation (./nav-guard.ts): Chromium commits its error page for the
// blocked address (chrome-error://chromewebdata/, net::ERR_BLOCKED_BY_CLIENT) in the tab, so the page the agent acted
// on is gone from view and the session shows an origin nobody allowed. This loads the page the tab showed before
// again and says where the tab is. (Not the browser's back: Chromium's history intervention skips entries left
// without user activation, which is how it treats an agent's loads — see ./ops/nav-trail.ts.) Firefox keeps the page
// in place: nothing to do there.
import { originOf } from '../consent/rules.js';

/** Longest wait for the page loaded again to commit, ms. */
const RETURN_SETTLE_MS = 5_000;

/**
 * Where the tab is after a stopped navigation: `stayed` (the browser kept the page), `returned` (Oriel loaded the
 * page it showed before again), `error_page` (it shows the browser's error page for `url`: nothing to load again, or
 * loading failed). `url` is the address it shows.
 */
export interface AfterBlock {
  tab: 'stayed' | 'returned' | 'error_page';
  url?: string;
}

/** The address the top frame of `tab` shows now (an error page shows the address that failed), if known. */
export async function topFrameUrl(tab: number): Promise<string | undefined> {
  return (await chrome.webNavigation.getFrame({ tabId: tab, frameId: 0 }).catch(() => null))?.url;
}

/** Resolves when the top frame of `tab` commits a document or fails to load one, or after `ms` (ms). */
export function topFrameSettles(tab: number, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (d: { tabId: number; frameId: number }) => {
      if (d.tabId === tab && d.frameId === 0) finish();
    };
    const timer = setTimeout(() => finish(), ms);
    const finish = () => {
      clearTimeout(timer);
      chrome.webNavigation.onCommitted.removeListener(done);
      chrome.webNavigation.onErrorOccurred.removeListener(done);
      resolve();
    };
    chrome.webNavigation.onCommitted.addListener(done);
    chrome.webNavigation.onErrorOccurred.addListener(done);
  });
}

/**
 * Takes `tab` off the browser's error page for a navigation to `blockedOrigin` that the guard stopped, when it shows
 * one, by loading `before` (the http(s) page it showed when the call began) again — under the guard still in place,
 * so that load too goes only where the call may. The page's unsaved state is not restored.
 */
export async function returnFromBlock(tab: number, blockedOrigin: string, before: string | undefined): Promise<AfterBlock> {
  const frame = await chrome.webNavigation.getFrame({ tabId: tab, frameId: 0 }).catch(() => null);
  if (!frame) return { tab: 'stayed' };
  // Firefox (and Chromium where no error page committed) still shows the page the navigation left from.
  if (!frame.errorOccurred || originOf(frame.url) !== blockedOrigin) return { tab: 'stayed', url: frame.url };
  if (before === undefined || !/^https?:/i.test(before) || originOf(before) === blockedOrigin) return { tab: 'error_page', url: frame.url };
  const settled = topFrameSettles(tab, RETURN_SETTLE_MS);
  try {
    await chrome.tabs.update(tab, { url: before });
  } catch {
    return { tab: 'error_page', url: frame.url };
  }
  await settled;
  const now = await chrome.webNavigation.getFrame({ tabId: tab, frameId: 0 }).catch(() => null);
  if (!now || now.errorOccurred) return { tab: 'error_page', url: now?.url ?? frame.url };
  return { tab: 'returned', url: now.url };
}
