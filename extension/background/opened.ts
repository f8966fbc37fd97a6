// Tabs and popups a shared tab opens (links with target=_blank, window.open, sign-in windows) become sessions of
// their own when the person allows it in the options (on by default), covering the opener's origin only.
// The hub lists them with their opener (broker/hub/sessions.ts); their share grants that origin only (./sharing.ts), so
// consent (./pipeline/consent.ts) asks the person about any other. A call that may open one (`opens_new_tab` in the op
// map: click) watches for them while it runs, and its result names them (./pipeline/dispatch.ts).
import { readSettings } from '../settings.js';
import { originOf } from '../consent/rules.js';
import { browserIdentity } from './identity.js';
import { isShared, setShared } from './sharing.js';
import { shownPage } from './shown-page.js';

/** A tab or window a shared tab's page opened, as a call's result names it to agents. */
export interface OpenedTab {
  /** Its address as the page asked for it; the origin alone when agents may not read there (`withheld`). */
  url: string;
  withheld?: true;
  /** It opened in a window of its own (a popup), not as a tab in the opener's window. */
  window?: true;
  /** Its session (`<browser instance>-<tab id>`), when it is shared; absent when the person lets no opened tab be shared. */
  session?: string;
}

/** One tab a source tab's page opened: its id, and what it is to agents once shared or not. */
interface Seen {
  tab: number;
  handled: Promise<OpenedTab | undefined>;
}

/** The calls watching each source tab for the tabs its pages open. */
const watchers = new Map<number, Set<(seen: Seen) => void>>();

/**
 * How long a call's answer waits for the browser to report a tab that appeared during the call, ms. Firefox may report
 * a page's new tab (`onCreatedNavigationTarget`) after the click's answer, though the tab exists by then; a tab
 * someone else opened meanwhile is never reported, and costs a call this long at most.
 */
const LATE_REPORT_MS = 1_000;

/**
 * Whether the browser may report a page's new tab after the answer of the call that opened it: Firefox does. Chromium
 * creates the tab while the page's `window.open` or link activation runs, and queues its report to the service worker
 * before the frame's answer, so there the open tabs are not asked for around each call (a browser round trip, about 1
 * ms of every click, measured with bench/ab.ts).
 */
const LATE_REPORTS = /Firefox\//.test(navigator.userAgent);

chrome.webNavigation.onCreatedNavigationTarget.addListener((details) => {
  const handled = (async (): Promise<OpenedTab | undefined> => {
    if (!(await isShared(details.sourceTabId))) return undefined;
    const source = await chrome.tabs.get(details.sourceTabId).catch(() => undefined);
    if (!source?.url) return undefined;
    const settings = await readSettings().catch(() => undefined);
    const share = settings?.shareOpenedTabs === true;
    if (share) await setShared(details.tabId, true, { opener: details.sourceTabId, origin: originOf(source.url) });
    const opened = await chrome.tabs.get(details.tabId).catch(() => undefined);
    // Shown as the tab it became would show it; a tab not shared as the opener's agents may read that address there.
    const page = await shownPage(share ? details.tabId : details.sourceTabId, details.url, '');
    return {
      url: page.url,
      ...(page.withheld && { withheld: true as const }),
      ...(opened && opened.windowId !== source.windowId && { window: true as const }),
      ...(share && { session: `${(await browserIdentity()).instance}-${details.tabId}` }),
    };
  })().catch(() => undefined);
  for (const watch of watchers.get(details.sourceTabId) ?? []) watch({ tab: details.tabId, handled });
});

/** The ids of the tabs open now. */
async function tabIds(): Promise<Set<number>> {
  return new Set((await chrome.tabs.query({})).map((t) => t.id).filter((id): id is number => id !== undefined));
}

/**
 * Starts noting the tabs and windows `tab`'s pages open (`webNavigation.onCreatedNavigationTarget`), and asks the
 * browser which tabs are open now; an act sent after this call is delivered after that question is answered. `ready`
 * settles once the answer is in; `collect` stops and resolves to what was opened, in
 * the order it opened, each once shared or not — waiting up to {@link LATE_REPORT_MS} for the report of a tab that
 * appeared meanwhile and has not been reported yet. `stop` ends the watch without collecting.
 */
export function watchOpenedTabs(tab: number): { ready: Promise<unknown>; collect(): Promise<OpenedTab[]>; stop(): void } {
  const seen: Seen[] = [];
  let heard: (() => void) | undefined;
  const watch = (s: Seen) => {
    seen.push(s);
    heard?.();
  };
  let set = watchers.get(tab);
  if (!set) watchers.set(tab, (set = new Set()));
  set.add(watch);
  const before = LATE_REPORTS ? tabIds().catch(() => undefined) : Promise.resolve(undefined);
  const stop = () => {
    set.delete(watch);
    if (set.size === 0 && watchers.get(tab) === set) watchers.delete(tab);
  };
  return {
    ready: before,
    stop,
    async collect() {
      const [known, now] = LATE_REPORTS ? await Promise.all([before, tabIds().catch(() => undefined)]) : [undefined, undefined];
      const unheard = () => [...(now ?? [])].filter((id) => known && !known.has(id) && !seen.some((s) => s.tab === id));
      if (unheard().length > 0) {
        const late = Date.now() + LATE_REPORT_MS;
        while (unheard().length > 0 && Date.now() < late) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, late - Date.now());
            heard = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          heard = undefined;
        }
      }
      stop();
      return (await Promise.all(seen.map((s) => s.handled))).filter((o): o is OpenedTab => o !== undefined);
    },
  };
}
