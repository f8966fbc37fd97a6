// The `navigate` operation, run in the background: load a URL, reload, or go back/forward along the pages the tab went
// through while shared (nav-trail.ts), wait for the top frame's document per `wait_until`, and return the new document's
// id. MCP side: broker/mcp/tools/navigate.ts.
import { NavigateArgs, type NavigateResult } from '../../../shared/ops.js';
import { orielError } from '../../../shared/errors.js';
import { sendToFrame } from '../frames.js';
import { shownPage } from '../shown-page.js';
import { leavePage } from './leave.js';
import { abandoned, begin, observe, readTrail, settled, stepTarget, updateTrail, type NavTrail } from './nav-trail.js';

type WaitUntil = 'load' | 'domcontentloaded' | 'none';

const DEFAULT_TIMEOUT_MS = 30_000;
/** How long `close` waits after answering before it removes the tab, ms. */
const CLOSE_DELAY_MS = 300;

export async function navigate(tab: number, given: NavigateArgs): Promise<NavigateResult> {
  const args = checkArgs(given);
  const waitUntil: WaitUntil = args.wait_until ?? 'load';
  const { delta, target } = await plan(tab, args);

  // A page that asks before it is left is asked first, here, never by the browser's prompt (./leave.ts).
  const leave = await leavePage(tab, args, (args.timeout_ms ?? DEFAULT_TIMEOUT_MS) + 5_000);
  if (leave.stay) return { ...(await pageNow(tab)), stayed: true, dialogs: leave.dialogs };
  const dialogs = leave.dialogs.length > 0 ? { dialogs: leave.dialogs } : {};
  if (args.action === 'close') return { ...(await closeTab(tab)), ...dialogs };

  const previous = await chrome.webNavigation.getFrame({ tabId: tab, frameId: 0 }).catch(() => null);
  const waiter = watchTopFrame(tab, waitUntil, args.timeout_ms ?? DEFAULT_TIMEOUT_MS, previous ?? undefined, target);
  // The trail moves before the load starts, so that the tab's commit (../trail-watch.ts) lands on the entry this call
  // moved to — a step stays a step, a redirect replaces the entry — rather than counting as a new page.
  const trail = await beginTrail(tab, delta ?? (target === undefined ? 'reload' : 'visit'), target);
  try {
    await start(tab, target === undefined ? 'reload' : undefined, target);
    await waiter.done;
  } catch (err) {
    await updateTrail(tab, (t) => abandoned(t, trail.before, trail.now.landing)).catch(() => undefined);
    throw err;
  } finally {
    waiter.dispose();
  }
  const after = await getTab(tab);
  // Where the tab landed, after redirects, once loaded; without waiting, its commit will say. The trail keeps the real
  // URL (it must load it again); only what agents are shown is scrubbed.
  if (waitUntil !== 'none' && after.url) await updateTrail(tab, (t) => settled(t, after.url!));
  // A redirect, back/forward or reload may land on an origin nobody granted read: its title and path stay here.
  const page = await shownPage(tab, after.url ?? '', after.title ?? '');
  const shownUrl = page.url;
  const result: NavigateResult = { url: shownUrl, title: page.title, ...(page.withheld && { withheld: true }), ...dialogs };
  if (waitUntil !== 'none') {
    const document = await topDocument(tab);
    // A loaded top frame without Oriel's content script is a browser error page (or a page extensions may not touch).
    if (document === undefined) {
      throw orielError('navigation_failed', `The tab shows no page Oriel can work in (${shownUrl.slice(0, 200)}): the load failed and the browser shows an error page, or the site is protected.`, {
        details: { reason: 'no document' },
      });
    }
    result.document = document;
    // The new document hears the tab's standing answer now, not only at the next acting call.
    if (args.dialog_policy === 'accept' || args.dialog_policy === 'dismiss') await sendToFrame(tab, 0, 'dialogs', { policy: args.dialog_policy }).catch(() => undefined);
  }
  return result;
}

/** The page the tab shows now, as agents may see it, with its document id when its content script answers. */
async function pageNow(tab: number): Promise<NavigateResult> {
  const now = await getTab(tab);
  const page = await shownPage(tab, now.url ?? '', now.title ?? '');
  const document = await topDocument(tab);
  return { url: page.url, title: page.title, ...(page.withheld && { withheld: true }), ...(document !== undefined && { document }) };
}

/**
 * Closes the tab (its session ends). The removal waits a moment so that this call's answer reaches the hub before the
 * tab list that no longer has the session (which would fail the call as `session_gone`).
 */
async function closeTab(tab: number): Promise<NavigateResult> {
  const now = await getTab(tab);
  const page = await shownPage(tab, now.url ?? '', now.title ?? '');
  setTimeout(() => void chrome.tabs.remove(tab).catch(() => undefined), CLOSE_DELAY_MS);
  return { url: page.url, title: page.title, ...(page.withheld && { withheld: true }), closed: true };
}

/** Where a navigate call goes: the step back/forward, the URL to load (none: reload). */
interface Plan {
  delta: -1 | 1 | undefined;
  target: string | undefined;
}

/**
 * Moves `tab`'s trail as the load of `target` begins (nav-trail.ts `begin`), the tab's current page recorded first
 * should no listener have seen it. Returns the trail before and after.
 */
async function beginTrail(tab: number, move: Parameters<typeof begin>[1], target: string | undefined): Promise<{ before: NavTrail; now: NavTrail }> {
  let before: NavTrail = { entries: [], index: -1 };
  const now = await updateTrail(tab, async (stored) => {
    before = observe(stored, (await getTab(tab)).url);
    return begin(before, move, target);
  });
  return { before, now };
}

/**
 * Works out where a navigate call takes the tab, without moving it. Back and forward move along the pages the tab
 * showed while shared, not the browser's history (see nav-trail.ts).
 * @throws OrielError `invalid_argument` for a URL navigate refuses, `navigation_failed` when there is no page to step
 *   to, `session_gone` when the tab is closed.
 */
async function plan(tab: number, args: NavigateArgs): Promise<Plan> {
  const current = await getTab(tab);
  const seen = await readTrail(tab);
  const now = observe(seen, current.url);
  const delta = args.action === 'back' ? -1 : args.action === 'forward' ? 1 : undefined;
  let target: string | undefined;
  if (args.url !== undefined) target = checkUrl(args.url, current.url);
  else if (delta !== undefined) {
    target = stepTarget(now, delta);
    if (target === undefined) {
      throw orielError('navigation_failed', `There is no ${delta < 0 ? 'previous' : 'next'} page: back and forward move among the pages this tab showed since it was shared, and this is the ${delta < 0 ? 'first' : 'last'} of them.`, {
        next: 'navigate with a url',
      });
    }
  }
  return { delta, target };
}

/**
 * The URL a navigate call with `raw` arguments would load in `tab`: the URL given, the page back or forward takes it
 * to, or the page shown now for a reload (`undefined` when the tab shows none). The consent stage judges the call on
 * this page's origin (docs/architecture.md, "Consent": navigation is an act on the destination).
 * @throws OrielError as {@link navigate} does for arguments it refuses.
 */
export async function destinationOf(tab: number, given: NavigateArgs): Promise<string | undefined> {
  const args = checkArgs(given);
  const { target } = await plan(tab, args);
  return target ?? (await getTab(tab)).url;
}

/** Arguments validated by the op map's schema, checked for the one rule it cannot state: exactly one of url or action. */
function checkArgs(args: NavigateArgs): NavigateArgs {
  if ((args.url === undefined) === (args.action === undefined)) {
    throw orielError('invalid_argument', 'Give navigate exactly one of "url" or "action" (back, forward, reload, close).');
  }
  return args;
}

async function getTab(tab: number): Promise<chrome.tabs.Tab> {
  try {
    return await chrome.tabs.get(tab);
  } catch {
    throw orielError('session_gone', 'The tab was closed.');
  }
}

/**
 * Resolves `url` against the tab's current URL and refuses everything but http(s): `javascript:` would run code
 * in the page (that is evaluate's job, under the exec grant), and browser-internal pages cannot host Oriel.
 */
export function checkUrl(url: string, base: string | undefined): string {
  let parsed: URL;
  try {
    parsed = base ? new URL(url, base) : new URL(url);
  } catch {
    throw orielError('invalid_argument', `"${url.slice(0, 200)}" is not a URL. Give an absolute http(s) URL such as https://example.com/.`);
  }
  const scheme = parsed.protocol;
  if (scheme === 'javascript:') {
    throw orielError('invalid_argument', 'navigate refuses javascript: URLs. To run code in the page use evaluate (needs the exec grant).');
  }
  if (scheme !== 'http:' && scheme !== 'https:') {
    throw orielError('invalid_argument', `navigate loads only http(s) URLs; ${scheme} pages are browser-internal or cannot be shared with agents.`);
  }
  return parsed.href;
}

/** Loads `url` in the tab (back and forward too: the trail's page is loaded again), or reloads it. */
async function start(tab: number, action: 'reload' | undefined, url: string | undefined): Promise<void> {
  try {
    if (url !== undefined) await chrome.tabs.update(tab, { url });
    else if (action === 'reload') await chrome.tabs.reload(tab);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/No tab with id|Invalid tab ID/i.test(message)) throw orielError('session_gone', 'The tab was closed.');
    throw orielError('navigation_failed', `The browser refused the navigation: ${message.slice(0, 200)}`);
  }
}

/**
 * Watches the top frame of `tab` for the navigation this call starts: it has started once a new document commits
 * (or the URL changes within the document), and is done at DOMContentLoaded or load per `waitUntil`. Listeners are
 * added before the navigation starts so no event is missed.
 */
function watchTopFrame(tab: number, waitUntil: WaitUntil, timeoutMs: number, previous: { documentId?: string; url: string } | undefined, target: string | undefined) {
  const nav = chrome.webNavigation;
  let committed = false;
  let settle!: () => void;
  let fail!: (e: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const mine = (d: { tabId: number; frameId: number }) => d.tabId === tab && d.frameId === 0;
  const onCommitted = (d: chrome.webNavigation.WebNavigationTransitionCallbackDetails) => {
    if (!mine(d)) return;
    committed = true;
    // Firefox commits its own error page instead of reporting onErrorOccurred for some failures.
    const errorPage = /^about:neterror\?(?:.*&)?e=([^&]*)/.exec(d.url);
    if (errorPage) {
      const reason = decodeURIComponent(errorPage[1] ?? 'unknown');
      fail(orielError('navigation_failed', `The page did not load: ${reason.slice(0, 200)}. Check the URL and that the site is reachable, then navigate again.`, { details: { reason: reason.slice(0, 200) } }));
    }
  };
  const onDom = (d: chrome.webNavigation.WebNavigationFramedCallbackDetails) => {
    if (mine(d) && committed && waitUntil === 'domcontentloaded') settle();
  };
  const onCompleted = (d: chrome.webNavigation.WebNavigationFramedCallbackDetails) => {
    if (mine(d) && committed) settle();
  };
  // Fragment and history.pushState navigations keep the document: nothing more will load.
  const onSameDocument = (d: chrome.webNavigation.WebNavigationTransitionCallbackDetails) => {
    if (mine(d)) settle();
  };
  const onError = (d: chrome.webNavigation.WebNavigationFramedErrorCallbackDetails) => {
    if (!mine(d)) return;
    const reason = readableError(d.error);
    const aborted = /ERR_ABORTED|NS_BINDING_ABORTED/i.test(reason);
    if (aborted && committed) return;
    // Leaving a page that is still loading aborts *its* load: that error names the old document, not ours.
    const id = (d as { documentId?: string }).documentId;
    if (aborted && previous && (id !== undefined ? id === previous.documentId : d.url === previous.url)) return;
    // So does leaving a navigation that never committed (an earlier call that timed out).
    if (aborted && target !== undefined && d.url !== target) return;
    fail(orielError('navigation_failed', `The page did not load: ${reason.slice(0, 200)}. Check the URL and that the site is reachable, then navigate again.`, { details: { reason: reason.slice(0, 200) } }));
  };
  // Back/forward restores from the back/forward cache may skip load events; the tab's status still turns complete.
  const onUpdated = (id: number, info: chrome.tabs.OnUpdatedInfo) => {
    if (id === tab && committed && info.status === 'complete') settle();
  };
  const onRemoved = (id: number) => {
    if (id === tab) fail(orielError('session_gone', 'The tab was closed during the navigation.'));
  };
  // Every listener this wait adds, so that dispose removes exactly these.
  const listeners: Array<[{ addListener(f: never): void; removeListener(f: never): void }, unknown]> = [
    [nav.onCommitted, onCommitted],
    [nav.onDOMContentLoaded, onDom],
    [nav.onCompleted, onCompleted],
    [nav.onErrorOccurred, onError],
    [nav.onReferenceFragmentUpdated, onSameDocument],
    [nav.onHistoryStateUpdated, onSameDocument],
    [chrome.tabs.onUpdated, onUpdated],
    [chrome.tabs.onRemoved, onRemoved],
  ];
  for (const [event, f] of listeners) event.addListener(f as never);
  const timer = setTimeout(
    () => fail(orielError('timeout', `The page did not finish loading (${waitUntil}) within ${timeoutMs} ms. It may still be loading: snapshot to see it, or navigate with wait_until "domcontentloaded".`)),
    timeoutMs,
  );
  return {
    done: waitUntil === 'none' ? Promise.resolve() : done,
    dispose() {
      clearTimeout(timer);
      for (const [event, f] of listeners) event.removeListener(f as never);
    },
  };
}

/**
 * The top frame's document id, once its content script answers: a document that committed on a host no shared tab
 * showed gets the script injected, and `sendToFrame` waits for it (../inject.ts). Undefined when the frame cannot
 * have one (an error page, a protected page); a few retries cover a page that moves on at once (a script's redirect).
 */
async function topDocument(tab: number): Promise<string | undefined> {
  for (let i = 0; i < 20; i++) {
    try {
      const reply = await sendToFrame(tab, 0, 'document', {});
      return reply.document;
    } catch (err) {
      // Closed, or the script could not start in time (a busy or blocked page): that is the answer, not an error page.
      const code = (err as { code?: string }).code;
      if (code === 'session_gone' || code === 'timeout') throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return undefined;
}

/** Firefox reports network errors as bare nsresult numbers; name the common ones (xpcom/base/ErrorList.py). */
const GECKO_ERRORS: Record<string, string> = {
  '2152398850': 'NS_BINDING_ABORTED',
  '2152398861': 'NS_ERROR_CONNECTION_REFUSED',
  '2152398862': 'NS_ERROR_NET_TIMEOUT',
  '2152398868': 'NS_ERROR_NET_RESET',
  '2152398878': 'NS_ERROR_UNKNOWN_HOST',
  '2152398919': 'NS_ERROR_NET_INTERRUPT',
  '2153390069': 'SEC_ERROR_UNKNOWN_ISSUER',
};

function readableError(error: string): string {
  const code = /^Error code (\d+)$/.exec(error)?.[1];
  if (code) return GECKO_ERRORS[code] ?? error;
  return error.replace(/^net::/, '');
}
