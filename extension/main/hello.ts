// The page-world script's first word to the content script of its document: "I am here, and this is whether page
// scripts may have run before me". The content script answers "already here" by cancelling the event, so a document
// that is injected twice keeps one copy, and it tells agents what a late arrival costs (extension/content/page-hooks.ts).
import { PAGE_HOOKS_ASK, PAGE_HOOKS_HELLO } from '../../shared/page-channel.js';
import { primordials } from './primordials.js';

/**
 * Whether the page's own scripts may already have run in this document: its parser finished, or it holds a classic
 * script that is neither `async` nor `defer` (such a script runs as soon as the parser inserts it,
 * https://html.spec.whatwg.org/multipage/scripting.html#script-processing-model). Errs on "may have".
 */
function pageScriptsMayHaveRun(): boolean {
  if (document.readyState !== 'loading') return true;
  for (const s of Array.from(document.scripts)) {
    if (s.type === 'module' || s.async || s.defer) continue;
    return true;
  }
  return false;
}

/** Announces this copy; false when the document has one already (the content script cancelled the announcement). */
export function greetContentScript(): boolean {
  const { stringify, CustomEvent: PageEvent, dispatchOn, listenOn } = primordials;
  const detail = stringify({ late: pageScriptsMayHaveRun() });
  const kept = dispatchOn(document, new PageEvent(PAGE_HOOKS_HELLO, { detail, cancelable: true }));
  // A content script that starts after this copy asks who is here: the same announcement again, as it was first made.
  if (kept) listenOn(document, PAGE_HOOKS_ASK, () => void dispatchOn(document, new PageEvent(PAGE_HOOKS_HELLO, { detail, cancelable: true })));
  return kept;
}
