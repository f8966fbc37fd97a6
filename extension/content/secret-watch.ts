// Notices secret fields that stop being secret (a "show password" button turning `type=password` into `type=text`,
// a script dropping `autocomplete`) before Oriel ever read them, so ./redaction.ts keeps them secret for life. Takes
// over what the early watcher (./early.iife.ts) saw in this frame before the content script arrived.
import { rememberSecret } from './redaction.js';
import { EARLY_MARK, marks } from './marks.js';
import { FLIP_OPTIONS, wasSecretBefore } from './secret-rule.js';

/** The roots already observed (one observer serves them all). */
const observed = new WeakSet<Node>();
let observer: MutationObserver | undefined;

function note(records: MutationRecord[]): void {
  for (const r of records) {
    const el = wasSecretBefore(r);
    if (el) rememberSecret(el);
  }
}

/**
 * Observes changes of the attributes that decide secrecy under `root` (a document or shadow root; a
 * MutationObserver does not see into shadow trees) and remembers every field that was secret before a change. Runs
 * in the content script's own world: observing adds nothing a page can see. Calling it again for the same root does
 * nothing.
 */
export function observeSecretFlips(root: Document | ShadowRoot): void {
  if (observed.has(root)) return;
  observed.add(root);
  observer ??= new MutationObserver(note);
  observer.observe(root, FLIP_OPTIONS);
}

/** Reads the changes not yet delivered to the observer (a page may flip a field and submit it in one task). */
export function flushSecretFlips(): void {
  if (observer) note(observer.takeRecords());
}

/**
 * Starts watching this frame's document, first taking over from the early watcher if it ran here: the fields it saw
 * stop being secret are remembered, and it stops. Both happen in one task, so no change falls between them.
 */
export function watchSecretFlips(): void {
  const early = marks[EARLY_MARK];
  if (early) for (const el of early.handOver()) rememberSecret(el);
  observeSecretFlips(document);
}
