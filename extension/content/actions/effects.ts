// The evidence an action reports: whether the page changed its DOM and whether a navigation started. Never claims
// what it did not see. Used by every acting handler in this folder.
import { HOVER_ATTRIBUTE } from './hover-styles.js';

/** A mutation the page made (not Oriel's own hover marker). */
function isPageChange(r: MutationRecord): boolean {
  return r.type !== 'attributes' || r.attributeName !== HOVER_ATTRIBUTE;
}

/**
 * Observes what an action does: DOM mutations (anywhere in this document) and navigation (the Navigation API's
 * `navigate` event where it exists, `beforeunload`/`pagehide`, or a changed URL). Never claims what it did not see.
 */
export function watchEffects() {
  let mutated = false;
  let navigation = false;
  let url = '';
  let active = false;
  // Oriel's own hover marker (hover-styles.ts) is not the page changing.
  const observer = new MutationObserver((records) => {
    if (records.some(isPageChange)) mutated = true;
  });
  const onNav = () => (navigation = true);
  const nav = (window as unknown as { navigation?: EventTarget }).navigation;
  return {
    start() {
      if (active) return;
      active = true;
      url = location.href;
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      nav?.addEventListener('navigate', onNav);
      window.addEventListener('beforeunload', onNav);
      window.addEventListener('pagehide', onNav);
    },
    stop(): { mutated: boolean; navigation: boolean } {
      if (active) {
        active = false;
        if (observer.takeRecords().some(isPageChange)) mutated = true;
        observer.disconnect();
        nav?.removeEventListener('navigate', onNav);
        window.removeEventListener('beforeunload', onNav);
        window.removeEventListener('pagehide', onNav);
        if (location.href !== url) navigation = true;
      }
      return { mutated, navigation };
    },
  };
}
