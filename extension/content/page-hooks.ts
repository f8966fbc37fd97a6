// Whether this document has Oriel's page-world script (extension/main/), and whether it arrived before the page's own
// scripts. Only shared tabs get it (extension/background/page-hooks.ts), as early as the browser allows; what a late or
// missing one costs — tools the page registered, ElementInternals it attached, dialogs it opened before — is told to
// agents in the results that depend on it (docs/architecture.md, "What a page can see").
import { PAGE_HOOKS_ASK, PAGE_HOOKS_HELLO } from '../../shared/page-channel.js';

/** `early`: arrived before any page script could run; `late`: page scripts may have run first; `missing`: not here. */
export type PageHooks = 'early' | 'late' | 'missing';

let state: PageHooks = 'missing';

/** Listens for the page-world script's announcement (installed once, when the content script loads). */
export function watchPageHooks(): void {
  document.addEventListener(
    PAGE_HOOKS_HELLO,
    (event) => {
      // A second copy in this document: cancelling tells it to install nothing.
      if (state !== 'missing') {
        event.preventDefault();
        return;
      }
      let late = true;
      try {
        late = (JSON.parse(String((event as CustomEvent<unknown>).detail)) as { late?: unknown }).late !== false;
      } catch {
        /* page content: a malformed announcement counts as late */
      }
      state = late ? 'late' : 'early';
    },
    true,
  );
  // The page-world script may have come first (registered scripts of two worlds run in no promised order): ask.
  document.dispatchEvent(new CustomEvent(PAGE_HOOKS_ASK));
}

/** What this document has of the page-world script now. */
export function pageHooks(): PageHooks {
  return state;
}
