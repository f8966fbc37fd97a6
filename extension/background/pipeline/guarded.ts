// Pipeline stage 5's frame for calls that act or run code: they run under the tab's navigation guard
// (../nav-guard.ts), which stops top-level navigations to origins without an act grant before any request leaves, and
// a call whose navigation was stopped fails saying so (docs/architecture.md, "Consent").
import { OrielError, orielError } from '../../../shared/errors.js';
import { returnFromBlock, topFrameSettles, topFrameUrl, type AfterBlock } from '../blocked-return.js';
import { answersBeforeCommit, argOf, specOf } from '../../../shared/ops.js';
import { guardTab, type Blocked } from '../nav-guard.js';
import type { CallState } from './types.js';

/** How long a call that reports a navigation started waits for it to commit or be stopped, ms. */
const NAVIGATION_SETTLE_MS = 1_000;
/** Longest a navigate that did not wait keeps its tab guarded, ms (navigate's own default timeout). */
const NAVIGATION_GUARD_MS = 30_000;
/**
 * How long the blocks of origins the person always denies outlast an agent's call, ms: pages often navigate a moment
 * after the action that caused it (a timer, a fetch that completes). Other navigations are free as the call ends.
 * A time, not "until the person's next navigation": the blocks stop the person too (the rules cannot tell who
 * navigates), so a person following a link to a denied origin would be stopped with nothing to end the block — their
 * navigation is the one blocked — and neither browser says reliably whether a navigation was the person's (a page's
 * script after a click reports as a link in Chromium; Firefox's transition types are coarser).
 */
const DENIED_LINGER_MS = 15_000;

/**
 * Runs `run(state)` with the tab guarded: while it runs — and until the navigation it started commits or fails — the
 * tab's top-level navigations reach only origins with an act grant, or those this call was allowed (the origins it
 * acts on, the destination the person allowed). The answer leaves once the guard is narrowed to the origins the person
 * always denies, which stay blocked {@link DENIED_LINGER_MS} longer; what else the page does after the call is its own.
 * `run` is given the top frame's address as it was when the guard went up (undefined when it could not be read). The
 * guard is narrowed while the call's result is completed: the pipeline awaits `state.guardReleased` before it answers
 * (./index.ts).
 * @throws OrielError `permission_denied` (`details.reason: "navigation_blocked"`) when the guard stopped a navigation.
 */
export async function underNavigationGuard(state: CallState, run: (state: CallState, topUrl: string | undefined) => Promise<unknown>): Promise<unknown> {
  const t = state.target!;
  // Where the tab was, to load it again should the browser leave it on an error page for a stopped navigation; read
  // while the guard goes up (two independent browser calls: one wait instead of two).
  const [before, guard] = await Promise.all([topFrameUrl(state.tab), guardTab(state.tab, [t.topOrigin, t.origin, ...(t.destination !== undefined ? [t.destination] : [])])]);
  /** The error for a stopped navigation, once the tab is off the browser's error page (../blocked-return.ts). */
  const failure = async (blocked: Blocked) => blockedError(state, blocked, await returnFromBlock(state.tab, blocked.origin, before));
  // An op that answers before its navigation commits (navigate without waiting) returns while it is under way: the guard stays until it commits or fails.
  let releaseLater = false;
  const watch = watchTopFrame(state.tab);
  const navigates = specOf(state.op).navigates === true;
  try {
    // Raced as the stop itself, so that the call's own failure (the browser's report of the blocked load) cannot win.
    const stopped = guard.stopped.then((blocked) => {
      throw new Stopped(blocked);
    });
    const value = await Promise.race([run(state, before), stopped]).catch(async (err: unknown) => {
      throw err instanceof Stopped ? await failure(err.blocked) : err;
    });
    // The navigation the call started may be stopped a moment after the page answered.
    const reported = typeof value === 'object' && value !== null && argOf(value, 'navigation_started') === true;
    if (!navigates && (watch.pending() || (reported && !watch.settled()))) {
      await Promise.race([watch.settles(NAVIGATION_SETTLE_MS), stopped]).catch(() => undefined);
      const blocked = guard.blocked();
      if (blocked) throw await failure(blocked);
    }
    if (answersBeforeCommit(state.op, state.args)) {
      releaseLater = true;
      void topFrameSettles(state.tab, NAVIGATION_GUARD_MS).then(() => guard.release(DENIED_LINGER_MS));
    }
    return value;
  } finally {
    watch.dispose();
    if (!releaseLater) state.guardReleased = guard.release(DENIED_LINGER_MS);
  }
}

/** The guard's stop, thrown through the race with the call. */
class Stopped extends Error {
  constructor(readonly blocked: Blocked) {
    super('navigation stopped');
  }
}

/** Where the tab is after the stop, in words for the agent. */
function whereNow(after: AfterBlock): string {
  if (!after.url) return '';
  if (after.tab === 'returned') return ` The browser had left the tab on its error page; Oriel loaded the page it showed before again: ${after.url} (its unsaved state is lost).`;
  if (after.tab === 'error_page') return ` The tab shows the browser's error page for ${after.url}: navigate to go on.`;
  return ` The tab still shows ${after.url}.`;
}

/** The error for a call whose navigation the guard stopped: what was done, where it was going, where the tab is, what to do. */
function blockedError(state: CallState, blocked: Blocked, after: AfterBlock): OrielError {
  const why = blocked.denied ? `the user always denies act on ${blocked.origin}` : `the user has not allowed act on ${blocked.origin}`;
  const done = specOf(state.op).navigates ? 'The page redirected' : `The ${state.op} was carried out, but the page it acted on then navigated`;
  return orielError('permission_denied', `${done} to ${blocked.origin}; Oriel stopped that before any request left, since ${why}.${whereNow(after)}`, {
    next: blocked.denied ? "do without it, or ask the user to remove the rule in Oriel's options" : `navigate to the page on ${blocked.origin} itself: the user is asked`,
    details: { reason: 'navigation_blocked', origin: blocked.origin, ...(after.url && { tab: after.tab, url: after.url }) },
  });
}

/**
 * Watches the top frame of `tab` from now on: whether a navigation began and has not committed or failed yet
 * (`pending`), whether one settled (`settled`), and a wait for the next to settle (`settles`, at most `ms`).
 */
function watchTopFrame(tab: number) {
  let began = false;
  let settledOnce = false;
  const mine = (d: { tabId: number; frameId: number }) => d.tabId === tab && d.frameId === 0;
  const onBegin = (d: { tabId: number; frameId: number }) => {
    if (mine(d)) began = true;
  };
  const onEnd = (d: { tabId: number; frameId: number }) => {
    if (!mine(d)) return;
    began = false;
    settledOnce = true;
  };
  chrome.webNavigation.onBeforeNavigate.addListener(onBegin);
  chrome.webNavigation.onCommitted.addListener(onEnd);
  chrome.webNavigation.onErrorOccurred.addListener(onEnd);
  return {
    pending: () => began,
    settled: () => settledOnce,
    settles: (ms: number) => topFrameSettles(tab, ms),
    dispose() {
      chrome.webNavigation.onBeforeNavigate.removeListener(onBegin);
      chrome.webNavigation.onCommitted.removeListener(onEnd);
      chrome.webNavigation.onErrorOccurred.removeListener(onEnd);
    },
  };
}

