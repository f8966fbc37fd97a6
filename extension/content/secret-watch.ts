// Notices secret fields that stop being secret (a "show password" button turning `type=password` into `type=text`,
// a script dropping `autocomplete`) and fields that take a secret field's place (a button or a re-render replacing
// the password input with a text input), before Oriel ever read them, so ./redaction.ts keeps them secret for life.
// Takes over what the early watcher (./early.iife.ts) saw in this frame before the content script arrived.
import { isSecretField, rememberSecret, secretFieldsIn } from './redaction.js';
import { EARLY_MARK, marks } from './marks.js';
import { FLIP_OPTIONS, takersOfSecretPlaces, wasSecretBefore } from './secret-rule.js';

/** The roots already observed (one observer serves them all). */
const observed = new WeakSet<Node>();
let observer: MutationObserver | undefined;

/** Whether a removed element is or holds a secret field (by the rule now, or remembered). */
function holdsSecret(el: Element): boolean {
  return isSecretField(el) || secretFieldsIn(el).length > 0;
}

function note(records: MutationRecord[]): void {
  // Flips first: a field flipped and then replaced in one batch was secret when it left.
  for (const r of records) {
    const el = wasSecretBefore(r);
    if (el) rememberSecret(el);
  }
  for (const el of takersOfSecretPlaces(records, holdsSecret)) rememberSecret(el);
}

/**
 * Observes changes of the attributes that decide secrecy, and children added and removed, under `root` (a document or
 * shadow root; a MutationObserver does not see into shadow trees) and remembers every field that was secret before a
 * change or took the place of a secret field (secret-rule.ts, `takersOfSecretPlaces`). Runs
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
