// The content script's side of JavaScript dialogs (its main-world counterpart is ../main/dialogs.ts): while an
// acting call runs, each alert/confirm/prompt it opens is answered as the call said, else by the tab's standing policy,
// else dismissed and reported, so a dialog never blocks the page unseen; between calls the policy answers them (none
// set: the browser shows them to the person, and the background is told one is open until it closes). Leaving a page
// that asks first (`beforeunload`) is found out before it happens (a probe of the page's own handlers) and either let
// through or stopped (docs/tools.md, "Dialogs").
import type { DialogAnswer, DialogPolicy, DialogSeen, DialogType } from '../../shared/act.js';
import { DIALOG_TYPES } from '../../shared/act.js';
import { orielError } from '../../shared/errors.js';
import type { OpArgs } from '../../shared/ops.js';
import { SHARED_MARK } from '../../shared/page-channel.js';
import { dialogMessageText } from '../../shared/page-text.js';
import { MAX_ANSWERED_DIALOGS, openDialogError, type OpenDialog } from '../../shared/open-dialog.js';
import { sendSide } from '../side-channel.js';

/** At most this many dialogs are kept for one report. */
const MAX_SEEN = 20;

/** An armed call: how it answers, and what it met. */
export interface ArmedDialogs {
  answer?: DialogAnswer;
  text?: string;
  /** The tab's standing answer as the call carried it (undefined: none). */
  policy?: DialogAnswer;
  seen: DialogSeen[];
  /** How many dialogs the call answered (at most {@link MAX_ANSWERED_DIALOGS}; the next is left to the person). */
  answered: number;
  /** Set when a leave the call does not accept began; the navigation is then cancelled (see {@link stayOnLinks}). */
  holding?: boolean;
}

/**
 * Session storage key under which the standing answer passes to the tab's next documents of the same origin (session
 * storage is per tab and origin), so a page that opens a dialog as it loads is answered before any call reaches it.
 */
const STANDING_KEY = 'oriel-dialog-policy';

let armed: ArmedDialogs | undefined;
/** The tab's standing answer as this document last heard it (undefined: none, the browser asks the person). */
let standing: DialogAnswer | undefined = storedStanding();
/** Dialogs the standing answer took while no call ran, for the next acting call to report. */
let between: DialogSeen[] = [];
/** How many dialogs the standing answer took since the last call began (at most {@link MAX_ANSWERED_DIALOGS}). */
let betweenAnswered = 0;
/**
 * Set while Oriel declines to answer a dialog because it already answered {@link MAX_ANSWERED_DIALOGS} in a row: how
 * many. The browser's own dialog that then opens is reported with it (the `oriel-dialog-shown` listener below).
 */
let leftOpenAfter: number | undefined;
/** Until when (ms since the epoch) leaving this page is let through without its handlers asking. */
let leaveAcceptedUntil = 0;
/** Removes the listeners {@link stayOnLinks} added for the armed call. */
let releaseLinks: () => void = () => undefined;
/** True while Oriel itself dispatches a beforeunload to learn whether the page would ask. */
let probing = false;

function policyAnswer(p: DialogPolicy | undefined): DialogAnswer | undefined {
  return p === 'accept' || p === 'dismiss' ? p : undefined;
}

/** Remembers the tab's standing answer (`default` forgets it); undefined leaves it as it was. */
function hearPolicy(p: DialogPolicy | undefined): void {
  if (p === undefined) return;
  standing = policyAnswer(p);
  try {
    if (standing) sessionStorage.setItem(STANDING_KEY, standing);
    else sessionStorage.removeItem(STANDING_KEY);
  } catch {
    // Storage refused: the next document hears the answer with its first call.
  }
}

/** Whether the tab is shared now (the background's mark, extension/background/page-hooks.ts). */
function tabShared(): boolean {
  try {
    return sessionStorage.getItem(SHARED_MARK) === '1';
  } catch {
    return false;
  }
}

/** The standing answer an earlier document of this tab and origin left, in a tab that is still shared. */
function storedStanding(): DialogAnswer | undefined {
  try {
    if (!tabShared()) return undefined;
    return policyAnswer(sessionStorage.getItem(STANDING_KEY) as DialogPolicy);
  } catch {
    return undefined;
  }
}

/**
 * Arms dialog answering for the call about to run (the last armed call wins; calls on one tab run one at a time). Dialogs
 * the standing answer took since the last call start its report.
 */
export function armDialogs(args: { dialog?: unknown; dialog_text?: unknown; dialog_policy?: unknown }): ArmedDialogs {
  hearPolicy(args.dialog_policy as DialogPolicy | undefined);
  armed = {
    seen: between,
    answered: 0,
    ...(args.dialog === 'accept' || args.dialog === 'dismiss' ? { answer: args.dialog } : {}),
    ...(typeof args.dialog_text === 'string' ? { text: args.dialog_text } : {}),
    ...(standing ? { policy: standing } : {}),
  };
  between = [];
  betweenAnswered = 0;
  releaseLinks();
  releaseLinks = stayOnLinks(armed);
  return armed;
}

/** Disarms `a` if it is still the armed call. */
export function disarmDialogs(a: ArmedDialogs): void {
  if (armed !== a) return;
  armed = undefined;
  releaseLinks();
  releaseLinks = () => undefined;
}

/**
 * The error for dialogs a call met without saying how to answer and without a standing answer: the action was carried
 * out, the dialog dismissed (a page that asked before being left was not left). Undefined otherwise.
 */
export function unansweredDialogError(a: ArmedDialogs) {
  if (a.answer !== undefined || a.policy !== undefined) return undefined;
  const d = a.seen.find((s) => !s.between_calls);
  if (!d) return undefined;
  if (d.type === 'beforeunload') {
    return orielError(
      'dialog_opened',
      'The action would have left the page, and the page asks before it is left ("Leave site? Changes you made may not be saved"); Oriel stayed on it. To leave anyway, call again with dialog: "accept".',
      { details: { dialogs: a.seen } },
    );
  }
  return orielError(
    'dialog_opened',
    `The action opened a ${d.type} dialog ${dialogMessageText(d.message)}; the call did not say how to answer it, so Oriel dismissed it${d.type === 'confirm' ? ' (Cancel)' : ''}. The action itself was carried out. To answer it, call again with dialog: "accept" or "dismiss"${d.type === 'prompt' ? ' (and dialog_text)' : ''}, or set the tab's dialog_policy.`,
    { details: { dialogs: a.seen } },
  );
}

/**
 * Whether the page would ask before being left: dispatches a `beforeunload` of the page's own kind to `window` and
 * reads whether a handler cancelled it or set its return value
 * (https://html.spec.whatwg.org/multipage/browsing-the-web.html#checking-if-unloading-is-canceled). The page's handlers
 * run, as they would on leaving; Oriel's page script lets them (it hears `probing`).
 */
export function pageAsksToLeave(): boolean {
  probing = true;
  try {
    const e = document.createEvent('BeforeUnloadEvent') as BeforeUnloadEvent;
    e.initEvent('beforeunload', false, true);
    window.dispatchEvent(e);
    return e.defaultPrevented || (typeof e.returnValue === 'string' ? e.returnValue !== '' : Boolean(e.returnValue));
  } catch {
    return false;
  } finally {
    probing = false;
  }
}

/** The `dialogs` operation (the background's, before it moves or closes the tab, and after it lands). */
export function dialogsOp(args: OpArgs<'dialogs'>): { asks: boolean } {
  hearPolicy(args.policy);
  if (!args.leaving) return { asks: false };
  const asks = pageAsksToLeave();
  if (args.leaving === 'accept') leaveAcceptedUntil = Date.now() + (args.accept_ms ?? 30_000);
  return { asks };
}

/**
 * While an acting call that does not accept leaving runs, a click on a link or a form submission that would leave a
 * page that asks first is cancelled at the end of its dispatch (a listener on `window` added last), and a navigation a
 * page script starts at its `navigate` event; each is reported, and the browser never shows the prompt. Returns what
 * removes the listeners.
 */
function stayOnLinks(a: ArmedDialogs): () => void {
  const onActivation = (e: Event) => {
    if (armed !== a || e.defaultPrevented || (a.answer ?? a.policy) === 'accept' || Date.now() < leaveAcceptedUntil) return;
    if (!(e.type === 'submit' ? submissionLeaves(e) : linkLeaves(e))) return;
    if (!pageAsksToLeave()) return;
    e.preventDefault();
    if (a.seen.length < MAX_SEEN) a.seen.push({ type: 'beforeunload', message: '', answer: 'dismiss' });
  };
  // Navigations a page script starts (location.href = …) are cancelled where the browser has the Navigation API
  // (https://html.spec.whatwg.org/multipage/nav-history-apis.html#the-navigate-event).
  const nav = (window as { navigation?: EventTarget }).navigation;
  const onNavigate = (e: Event) => {
    const n = e as Event & { destination?: { sameDocument?: boolean }; downloadRequest?: string | null };
    // A download leaves nothing (https://html.spec.whatwg.org/multipage/nav-history-apis.html#dom-navigateevent-downloadrequest).
    if (armed !== a || n.destination?.sameDocument || (n.downloadRequest ?? null) !== null || (a.answer ?? a.policy) === 'accept' || Date.now() < leaveAcceptedUntil) return;
    if (!n.cancelable) {
      // A history traversal cannot be cancelled: a leave held back above goes on, and is reported as what it was.
      if (a.holding && a.seen.length < MAX_SEEN) a.seen.push({ type: 'beforeunload', message: '', answer: 'accept' });
      a.holding = false;
      return;
    }
    if (!a.holding && !pageAsksToLeave()) return;
    a.holding = false;
    e.preventDefault();
    if (a.seen.length < MAX_SEEN) a.seen.push({ type: 'beforeunload', message: '', answer: 'dismiss' });
  };
  window.addEventListener('click', onActivation);
  window.addEventListener('submit', onActivation);
  nav?.addEventListener('navigate', onNavigate);
  return () => {
    window.removeEventListener('click', onActivation);
    window.removeEventListener('submit', onActivation);
    nav?.removeEventListener('navigate', onNavigate);
  };
}

/** Whether a click activates a link that loads another document in this frame (https://html.spec.whatwg.org/multipage/links.html#following-hyperlinks-2). */
function linkLeaves(e: Event): boolean {
  if ((e as MouseEvent).button !== 0) return false;
  const link = e.composedPath().find((n): n is HTMLAnchorElement | HTMLAreaElement => n instanceof HTMLAnchorElement || n instanceof HTMLAreaElement);
  if (!link || !link.hasAttribute('href') || link.hasAttribute('download')) return false;
  const target = (link.getAttribute('target') ?? '').trim().toLowerCase();
  if (target !== '' && target !== '_self' && !(target === '_top' && window === window.top)) return false;
  let url: URL;
  try {
    url = new URL(link.href);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // A fragment of this document scrolls, and leaves nothing.
  const here = new URL(location.href);
  return !(url.hash !== '' && url.origin + url.pathname + url.search === here.origin + here.pathname + here.search);
}

/** Whether a submission loads another document in this frame (not `method="dialog"`, not another target). */
function submissionLeaves(e: Event): boolean {
  const form = e.target;
  if (!(form instanceof HTMLFormElement)) return false;
  const submitter = (e as SubmitEvent).submitter;
  const method = (submitter?.getAttribute('formmethod') ?? form.getAttribute('method') ?? 'get').toLowerCase();
  if (method === 'dialog') return false;
  const target = (submitter?.getAttribute('formtarget') ?? form.getAttribute('target') ?? '').trim().toLowerCase();
  return target === '' || target === '_self';
}

window.addEventListener(
  'oriel-dialog',
  (e) => {
    let q: { type?: unknown; message?: unknown; value?: unknown };
    try {
      q = JSON.parse(String((e as CustomEvent).detail)) as typeof q;
    } catch {
      return;
    }
    const type = DIALOG_TYPES.find((t) => t === q.type) as DialogType | undefined;
    if (!type) return;
    const a = armed;
    leftOpenAfter = undefined;
    if (type === 'beforeunload') {
      // Oriel's own probe lets the page's handlers run; a leave an agent accepted goes without them.
      if (probing) return;
      if ((a && (a.answer ?? a.policy) === 'accept') || Date.now() < leaveAcceptedUntil) {
        if (a && a.seen.length < MAX_SEEN && pageAsksToLeave()) a.seen.push({ type, message: '', answer: 'accept' });
        reply(true, '');
        return;
      }
      // A page script leaving on its own during a call that does not accept it, from a page that asks first: the
      // page's handlers are skipped, so no prompt opens, and the navigation is cancelled at its `navigate` event
      // (see stayOnLinks; window.stop() here does not cancel it in Chromium). Between calls leaving is the person's.
      if (a && 'navigation' in window && pageAsksToLeave()) {
        a.holding = true;
        reply(true, '');
      }
      return;
    }
    const message = typeof q.message === 'string' ? q.message.slice(0, 2000) : '';
    const fallback = typeof q.value === 'string' ? q.value : '';
    if (!a) {
      // No call runs: the standing answer, if an agent set one, else the browser's own dialog for the person.
      if (!standing || !tabShared()) return;
      // A page opening dialog after dialog between calls: past the bound the next is the person's (docs/tools.md, "Dialogs").
      if (betweenAnswered >= MAX_ANSWERED_DIALOGS) {
        leftOpenAfter = betweenAnswered;
        return;
      }
      betweenAnswered++;
      if (between.length < MAX_SEEN) between.push({ type, message, answer: standing, between_calls: true });
      reply(standing === 'accept', fallback);
      return;
    }
    // A call whose action opens dialog after dialog (a loop) answers a bounded number; the next is left open for the
    // person, which stops the page's script as it would without Oriel (the call then ends with dialog_opened). A call
    // whose page never returns (its script loops) stays armed, so this bound holds after the call ended too.
    if (a.answered >= MAX_ANSWERED_DIALOGS) {
      leftOpenAfter = a.answered;
      return;
    }
    a.answered++;
    const answer = a.answer ?? a.policy ?? 'dismiss';
    if (a.seen.length < MAX_SEEN) a.seen.push({ type, message, answer });
    reply(answer === 'accept', a.text ?? fallback);
  },
  true,
);

/** The browser's own dialog open in this document for the person (the latest, when one opened over another). */
let shown: OpenDialog | undefined;
/** How many of the browser's dialogs are open in this document (one can open over another while the first waits). */
let shownDepth = 0;
/** Counts this document's reports to the background, which ignores one older than the last it heard. */
let shownSeq = 0;

/**
 * The error for a call that reaches this document while the browser's own dialog waits for the person (Firefox runs
 * such calls in the page's paused script, where they would read or act on a page stopped mid-step); undefined when none
 * is open.
 */
export function refusalWhileShown() {
  return shown ? openDialogError(shown) : undefined;
}

// The browser's own dialog opens and closes (../main/dialogs.ts): remembered here, reported to the background.
window.addEventListener(
  'oriel-dialog-shown',
  (e) => {
    let q: { open?: unknown; type?: unknown; message?: unknown };
    try {
      q = JSON.parse(String((e as CustomEvent).detail)) as typeof q;
    } catch {
      return;
    }
    if (!tabShared()) return;
    if (q.open === true) {
      const type = (['alert', 'confirm', 'prompt'] as const).find((t) => t === q.type);
      if (!type) return;
      shownDepth++;
      shown = { type, message: typeof q.message === 'string' ? q.message.slice(0, 2000) : '', since: Date.now(), ...(leftOpenAfter !== undefined && { answered: leftOpenAfter }) };
      leftOpenAfter = undefined;
    } else if (q.open === false) {
      if (shownDepth === 0) return;
      if (--shownDepth === 0) shown = undefined;
    } else return;
    // Sent now, before the page's thread stops for the dialog (Chromium delivers it meanwhile).
    const open = shown ? { type: shown.type, message: shown.message, ...(shown.answered !== undefined && { answered: shown.answered }) } : null;
    void sendSide('dialog_state', { seq: ++shownSeq, open }).catch(() => undefined);
  },
  true,
);

function reply(accept: boolean, text: string): void {
  window.dispatchEvent(new CustomEvent('oriel-dialog-answer', { detail: JSON.stringify({ accept, text }) }));
}
