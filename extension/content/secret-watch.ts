// Notices secret fields that stop being secret (a "show password" button turning `type=password` into `type=text`,
// a script dropping `autocomplete`) before Oriel ever read them, so ./redaction.ts keeps them secret for life.
import { rememberIfWasSecret, SECRET_ATTRIBUTES } from './redaction.js';

/** The roots already observed (one observer serves them all). */
const observed = new WeakSet<Node>();
let observer: MutationObserver | undefined;

/**
 * Observes changes of the attributes that decide secrecy under `root` (a document or shadow root; a
 * MutationObserver does not see into shadow trees) and remembers every field that was secret before a change. Runs
 * in the content script's own world from document_start, in every frame: observing adds nothing a page can see.
 * Calling it again for the same root does nothing.
 */
export function observeSecretFlips(root: Document | ShadowRoot): void {
  if (observed.has(root)) return;
  observed.add(root);
  observer ??= new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes' && r.attributeName && r.target.nodeType === Node.ELEMENT_NODE) rememberIfWasSecret(r.target as Element, r.attributeName, r.oldValue);
    }
  });
  observer.observe(root, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: SECRET_ATTRIBUTES });
}
