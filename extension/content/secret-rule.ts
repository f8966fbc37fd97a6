// The secret-field rule on an element's attributes (docs/redaction.md, "What is redacted") and the mutations after
// which a field stays or becomes secret for life (a flipped attribute, a field swapped in for a secret one), with no
// state and no dependency beyond the card-name rule: ./redaction.ts judges with it, and so does the early watcher
// (./early.iife.ts), which runs in every frame and must stay a few KB.
import { isCardFieldName } from '../../shared/card-fields.js';

/**
 * `autocomplete` tokens whose fields are secret (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#autofill-field):
 * current and new passwords, one-time codes, and every payment-card field (`cc-*`). Tokens are whitespace-separated
 * and may follow section/shipping/billing tokens, so each token is tested on its own.
 */
const SECRET_TOKEN = /^(current-password|new-password|one-time-code|cc-[a-z0-9-]*)$/;

/** The HTML namespace: a `<input>` in SVG or MathML is not a form control. */
export const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** The attributes whose values decide {@link judgeSecret} (the ones a watcher of secret flips observes). */
export const SECRET_ATTRIBUTES = ['type', 'autocomplete', 'name', 'id'];

/**
 * Whether `el` is a secret field by its attributes as `attr` answers them (the live ones, or one replaced by its old
 * value from a mutation record): a password input, any element whose `autocomplete` names a secret token, or an input
 * whose `name` or `id` names a card number or security code.
 */
export function judgeSecret(el: Element, attr: (name: string) => string | null): boolean {
  const input = el.localName === 'input' && el.namespaceURI === HTML_NS;
  // The type keyword is ASCII case-insensitive (https://html.spec.whatwg.org/multipage/input.html#attr-input-type).
  if (input && attr('type')?.toLowerCase() === 'password') return true;
  const auto = attr('autocomplete');
  if (auto && auto.toLowerCase().split(/\s+/).some((t) => SECRET_TOKEN.test(t))) return true;
  return input && (isCardFieldName(attr('name')) || isCardFieldName(attr('id')));
}

/** What a watcher of secret flips and swaps observes (a document or shadow root's subtree; not shadow trees). */
export const FLIP_OPTIONS: MutationObserverInit = { subtree: true, childList: true, attributes: true, attributeOldValue: true, attributeFilter: SECRET_ATTRIBUTES };

/** Fields that hold typed text (https://html.spec.whatwg.org/multipage/input.html#attr-input-type). */
const TEXT_ENTRY =
  'input:not([type=checkbox i], [type=radio i], [type=submit i], [type=reset i], [type=button i], [type=image i], [type=file i], [type=range i], [type=color i]), textarea, [contenteditable]:not([contenteditable=false i])';

/**
 * The element of a mutation record (of {@link FLIP_OPTIONS}) when it was a secret field before that change: the rule
 * applied with the changed attribute at its old value. Undefined otherwise.
 */
export function wasSecretBefore(record: MutationRecord): Element | undefined {
  const { type, attributeName: name, oldValue, target } = record;
  if (type !== 'attributes' || !name || target.nodeType !== Node.ELEMENT_NODE) return undefined;
  const el = target as Element;
  return judgeSecret(el, (n) => (n === name ? oldValue : el.getAttribute(n))) ? el : undefined;
}

/**
 * The text-entry fields one batch of mutation records (of {@link FLIP_OPTIONS}) added, themselves or inside an added
 * element, under a node from which it removed an element that `holdsSecret` (is or contains a secret field): they
 * take a secret field's place (docs/redaction.md, "Secret for life"). Reads no value.
 */
export function takersOfSecretPlaces(records: MutationRecord[], holdsSecret: (el: Element) => boolean): Element[] {
  const vacated = new Set<Node>();
  for (const r of records) {
    if (r.type !== 'childList' || vacated.has(r.target)) continue;
    for (const n of Array.from(r.removedNodes)) {
      if (n.nodeType === Node.ELEMENT_NODE && holdsSecret(n as Element)) {
        vacated.add(r.target);
        break;
      }
    }
  }
  const out: Element[] = [];
  if (vacated.size === 0) return out;
  for (const r of records) {
    if (r.type !== 'childList' || !vacated.has(r.target)) continue;
    for (const n of Array.from(r.addedNodes)) {
      if (n.nodeType !== Node.ELEMENT_NODE) continue;
      const el = n as Element;
      if (el.matches(TEXT_ENTRY)) out.push(el);
      out.push(...Array.from(el.querySelectorAll(TEXT_ENTRY)));
    }
  }
  return out;
}

/** A CSS selector matching every element {@link judgeSecret} can call secret. */
export const SECRET_CANDIDATES = 'input, [autocomplete]';
