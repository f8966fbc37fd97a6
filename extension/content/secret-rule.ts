// The secret-field rule on an element's attributes (docs/redaction.md, "What is redacted"), with no state and no
// dependency beyond the card-name rule: ./redaction.ts judges with it, and so does the early watcher
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

/** What a watcher of secret flips observes (a document or shadow root, whose subtree it covers; not shadow trees). */
export const FLIP_OPTIONS: MutationObserverInit = { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: SECRET_ATTRIBUTES };

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
