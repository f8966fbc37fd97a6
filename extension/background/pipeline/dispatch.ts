// Pipeline stage 5: carry the call out — in the background for ops that need extension APIs (./../ops, snapshot), or
// in the content script of the target frame with the user's redaction policy attached. A call whose frame commits a
// new document meanwhile fails with stale_document (acting ops get a moment: the navigation may be their own doing).
// Calls that act or run code do it under the tab's navigation guard (./guarded.ts).
import { errorData, OrielError, orielError } from '../../../shared/errors.js';
import { activationOf, argOf, budgetOf, framesAgree, OPS, specOf, type OpArgs, type PublicOpName, type SiteOpName } from '../../../shared/ops.js';
import { remainingMs, workEnd, type CallBudget } from '../../../shared/call.js';
import { listFrames, sendToFrame, type FrameCallOptions } from '../frames.js';
import { runInBackground } from '../ops/index.js';
import { cancelInFrames, trackCall, untrackCall } from './running.js';
import { isNavigationAway, topFrameAnswers } from './follow.js';
import { redactionOf, runsOn, type CallState } from './types.js';

/** A call whose op a content script carries out. */
type ContentCallState = CallState & CallState<PublicOpName & SiteOpName<'content'>>;
import { secretParams } from '../secret-params.js';
import { offerTrustedInput, withdrawTrustedInput } from '../trusted-input.js';
import { underNavigationGuard } from './guarded.js';
import { decideEveryFrame, type FrameOutcome } from './every-frame.js';
import { openLinkInNewTab } from '../link-tabs.js';
import { watchOpenedTabs } from '../opened.js';
import { withDialogPolicy } from '../dialog-policy.js';
import { beginChanges } from './changes.js';
import { obtainDestination } from './consent.js';
import { LeadsElsewhere } from '../leads-elsewhere.js';
import type { BegunComparison } from '../action-changes.js';

/** Acting ops may cause the navigation themselves (a link, a submit): their answer gets this long to arrive, ms. */
const OWN_NAVIGATION_GRACE_MS = 1_000;

export async function dispatch(state: CallState): Promise<unknown> {
  const capability = OPS[state.op].capability;
  if (capability !== 'act' && capability !== 'exec') return carryOut(state, prepare(state));
  try {
    return await guardedCarryOut(state);
  } catch (err) {
    if (!(err instanceof LeadsElsewhere)) throw err;
    // Nothing was done: consent judges where the element leads, and the op goes again with that destination allowed.
    await obtainDestination(state, err.origin);
    return await guardedCarryOut(state);
  }
}

/** Carries the call out under the tab's navigation guard; what it reads beforehand is read while the guard goes up. */
function guardedCarryOut(state: CallState): Promise<unknown> {
  const prepared = prepare(state);
  // Read only once the guard is up; a guard that fails leaves this unread.
  prepared.catch(() => undefined);
  return underNavigationGuard(state, (s, topUrl) => carryOut(s, prepared, topUrl));
}

/** What a call reads before it is sent to its frame (nothing here acts on the page). */
interface Prepared {
  /** The call's arguments, with the tab's standing answer to dialogs where the op answers them. */
  args: CallState['args'];
  /** The tab's secret URL parameters (../secret-params.ts). */
  urlParams: string[];
  /** The comparison begun for an action's result (./changes.ts), if any. */
  begun: Promise<BegunComparison | undefined> | undefined;
}

/**
 * Reads what the call needs before it is sent, all at once: the dialog policy (an acting call's `dialog_policy`
 * becomes the tab's, ../dialog-policy.ts), the tab's secret parameters, and the start of its comparison.
 */
async function prepare(given: CallState): Promise<Prepared> {
  // An action's comparison with what its caller saw begins meanwhile, to read in the action's own exchange.
  const begun = runsOn(given, 'content') && !given.target!.everyFrame ? beginChanges(given, given.target!.frame) : undefined;
  const [args, urlParams] = await Promise.all([takesDialogs(given) ? withDialogPolicy(given.tab, given.args) : given.args, secretParams(given.tab)]);
  return { args, urlParams, begun };
}

/**
 * The call's budget as content calls carry it: the deadline of its clock — the resumed one when the call waited on a
 * permission prompt — and the slack its work leaves before it (the op map's budget).
 */
export function budgetOfCall(state: CallState): CallBudget {
  return { deadline: state.clock.deadline, slack_ms: budgetOf(state.op, state.args).slack_ms };
}

/**
 * Sends the call to where it runs, with what `prepared` read. `topUrl`: the top frame's address as the navigation guard
 * read it when it went up (acting calls only).
 */
async function carryOut(given: CallState, prepared: Promise<Prepared>, topUrl?: string): Promise<unknown> {
  const { tab } = given;
  const { args, urlParams, begun } = await prepared;
  const state: CallState = args === given.args ? given : { ...given, args };
  const budget = budgetOfCall(state);
  const options = { call: state.call.id, redaction: redactionOf(state.settings, urlParams), budget };
  if (runsOn(state, 'background')) return runInBackground(state.op, tab, state.args, options);
  if (!runsOn(state, 'content')) throw orielError('unsupported', `"${state.op}" runs nowhere Oriel knows.`);
  const target = state.target!;
  if (target.everyFrame) return waitInTab(state, options);
  trackCall(state.call.id, tab, [target.frame]);
  const input = offerTrustedInput(state.call.id, state.op, tab, target.frame, state.settings.trustedInput);
  // The tabs and windows the page opens while the call runs (window.open, a link with a target) go into its result.
  const opening = specOf(state.op).opens_new_tab ? watchOpenedTabs(tab) : undefined;
  try {
    const acts = OPS[state.op].capability === 'act';
    // The tabs open before are asked for, not awaited: the browser answers that query before it delivers the click, in
    // the order the two were sent, and `collect` awaits it (one browser round trip less on every click).
    const comparison = await begun;
    // Where the op may follow a link or submit a form to an origin consent has not judged, the page says so first.
    const leadsFrom = activationOf(state.op, state.args) && target.destination === undefined ? target.origin : undefined;
    const frameOptions = {
      ...options,
      ...(input && { input }),
      ...(comparison && { thenRead: comparison.ask }),
      ...(leadsFrom !== undefined && { leadsFrom }),
      ...(target.frame === 0 && topUrl !== undefined && { frameUrl: topUrl }),
    };
    const reply = await endsWithDocument(sendToFrame(tab, target.frame, state.op, state.args, frameOptions), tab, target.frame, acts ? OWN_NAVIGATION_GRACE_MS : 0);
    // The state the pipeline goes on with is `given`: the comparison travels there to the result (./changes.ts).
    if (comparison) given.begun = { comparison, ...(reply.thenRead && { read: reply.thenRead }) };
    const openedTabs = await opening?.collect();
    const value = openedTabs?.length ? { ...(reply.value as object), opened_tabs: openedTabs } : reply.value;
    // A modified click on a link that synthetic events could not open: open it as a person's click would.
    const newTabUrl = specOf(state.op).opens_new_tab ? argOf(value, 'new_tab_url') : undefined;
    if (typeof newTabUrl === 'string') {
      const session = await openLinkInNewTab(tab, newTabUrl, state.settings);
      if (session) return { ...(value as object), new_tab_session: session };
    }
    return value;
  } finally {
    // A call that failed names none (the tabs stay shared as any tab a shared tab opens).
    opening?.stop();
    untrackCall(state.call.id);
    withdrawTrustedInput(state.call.id);
  }
}

/** The operations whose arguments include shared/act.ts DialogArgs. */
type DialogOpName = { [N in PublicOpName]: 'dialog_policy' extends keyof OpArgs<N> ? N : never }[PublicOpName];

/** Whether the call's op answers dialogs (its arguments include shared/act.ts DialogArgs), narrowing its arguments. */
function takesDialogs(state: CallState): state is CallState<DialogOpName> {
  const shape = (OPS[state.op].args as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && Object.hasOwn(shape, 'dialog_policy');
}

/**
 * Settles as `work` does, unless frame `frameId` of `tab` commits a new document first: the call then fails with
 * `stale_document` (its target's page is gone; what it would find in the new page is not what was asked for). For
 * ops that act (`graceMs` > 0) the navigation may be their own doing, so their answer still wins if it comes soon.
 */
async function endsWithDocument<T>(work: Promise<T>, tab: number, frameId: number, graceMs = 0): Promise<T> {
  let listener: ((d: { tabId: number; frameId: number }) => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gone = new Promise<never>((_, reject) => {
    const fail = () => reject(new OrielError(errorData('stale_document', 'The page navigated while this call was under way; it was not carried out in the new page. Take a new snapshot.')));
    listener = (d) => {
      if (d.tabId !== tab || d.frameId !== frameId) return;
      if (graceMs > 0) timer ??= setTimeout(fail, graceMs);
      else fail();
    };
    chrome.webNavigation.onCommitted.addListener(listener);
  });
  try {
    return await Promise.race([work, gone]);
  } finally {
    clearTimeout(timer);
    if (listener) chrome.webNavigation.onCommitted.removeListener(listener);
  }
}

/**
 * A wait by selector or text watches the tab: when the page navigates under it (a click that submits, a redirect),
 * it goes on in the new document with the time left — unless the call guards its document, which then is the point.
 */
async function waitInTab(state: ContentCallState, options: FrameCallOptions & { budget: CallBudget }): Promise<unknown> {
  for (;;) {
    try {
      return await endsWithDocument(waitInEveryFrame(state, options), state.tab, 0);
    } catch (err) {
      // Each attempt carries the same budget: the new document's wait gets what is left of it.
      if (!isNavigationAway(err) || state.call.document !== undefined || remainingMs(workEnd(options.budget)) === 0) throw err;
      await topFrameAnswers(state.tab, options.budget.deadline);
    }
  }
}

/**
 * `wait_for` by selector or text looks in every frame of the tab, as the snapshot does. To appear (`visible`,
 * `attached`) it is enough that one frame sees the target: the first frame to succeed answers and the others are
 * cancelled. To go (`hidden`, `detached`) every frame must agree, since a frame that never had the target succeeds at
 * once. Failing that, the top frame's error is the answer (or `timeout` when the top frame could not be asked).
 * Frames that load after the call starts are not searched.
 */
async function waitInEveryFrame(state: ContentCallState, options: FrameCallOptions): Promise<unknown> {
  const { tab, args } = state;
  const id = state.call.id;
  const frames = (await listFrames(tab)).map((f) => f.frameId).sort((a, b) => a - b);
  if (!frames.includes(0)) frames.unshift(0);
  const going = framesAgree(state.op, args);
  const entry = trackCall(id, tab, frames);
  const cancelOthers = (except: number) => {
    cancelInFrames(id, except);
    entry.frames = [except];
  };
  try {
    const outcomes = frames.map((frameId) =>
      endsWithDocument(sendToFrame(tab, frameId, state.op, args, options), tab, frameId).then(
        (reply): FrameOutcome => ({ frameId, ok: true, value: reply.value }),
        (err: unknown): FrameOutcome => ({ frameId, ok: false, err }),
      ),
    );
    if (!going) {
      // The first success wins; the race ends early without waiting for the frames still waiting.
      const first = await new Promise<{ frameId: number; value: unknown } | undefined>((resolve) => {
        let left = outcomes.length;
        for (const o of outcomes) {
          void o.then((r) => {
            if (r.ok) resolve({ frameId: r.frameId, value: r.value });
            else if (--left === 0) resolve(undefined);
          });
        }
      });
      if (first) {
        cancelOthers(first.frameId);
        return first.value;
      }
    }
    const decided = decideEveryFrame(await Promise.all(outcomes), going);
    if (decided.ok) return decided.value;
    throw decided.err;
  } finally {
    untrackCall(id);
  }
}
