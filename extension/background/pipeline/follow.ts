// Waiting on "the tab" rather than on one document: a wait_for by selector or text that the page's navigation
// interrupts goes on in the document that replaces it (./dispatch.ts), until the call's deadline.
import { orielError, OrielError } from '../../../shared/errors.js';
import { remainingMs } from '../../../shared/call.js';
import { sendToFrame } from '../frames.js';

/** The background stops retrying this long before the deadline, leaving time to answer, ms. */
const ANSWER_MARGIN_MS = 400;
/** Longest pause between looks at a tab that sends no navigation event, ms. */
const RECHECK_MS = 250;

/** Whether `err` says the page went away under the call (so the tab may show a new document soon). */
export function isNavigationAway(err: unknown): boolean {
  return err instanceof OrielError && err.data.code === 'stale_document';
}

/**
 * Resolves once the top frame of `tab` answers again (its content script is up in whatever document it shows now),
 * waking on the tab's navigation events rather than on a timer; rejects with `timeout` near `deadline` and with
 * `session_gone` when the tab closes.
 */
export async function topFrameAnswers(tab: number, deadline: number): Promise<void> {
  for (;;) {
    if (remainingMs(deadline) <= ANSWER_MARGIN_MS) throw orielError('timeout', 'The page kept navigating until the call ran out of time. Take a snapshot to see where it is now.');
    try {
      await sendToFrame(tab, 0, 'document', {});
      return;
    } catch (err) {
      if (err instanceof OrielError && err.data.code === 'session_gone') throw err;
    }
    await nextNavigationEvent(tab, Math.min(RECHECK_MS, remainingMs(deadline)));
  }
}

/** Resolves on the tab's next top-frame commit or DOMContentLoaded, or after `ms` at the latest. */
function nextNavigationEvent(tab: number, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      chrome.webNavigation.onCommitted.removeListener(onEvent);
      chrome.webNavigation.onDOMContentLoaded.removeListener(onEvent);
      resolve();
    };
    const onEvent = (d: { tabId: number; frameId: number }) => {
      if (d.tabId === tab && d.frameId === 0) done();
    };
    const timer = setTimeout(done, ms);
    chrome.webNavigation.onCommitted.addListener(onEvent);
    chrome.webNavigation.onDOMContentLoaded.addListener(onEvent);
  });
}
