// Roles, names and states that custom elements set only through ElementInternals
// (https://html.spec.whatwg.org/multipage/custom-elements.html#the-elementinternals-interface). The page's own
// script holds an element's internals; the MAIN-world script (extension/main/internals.ts) notes them when the page
// attaches them and answers, for one element at a time, through the events of shared/page-channel.ts dispatched on
// that element. Used by the snapshot walker (roles, names, states) and by actions (a disabled control is refused).
import { INTERNALS_FIELDS, INTERNALS_QUERY, INTERNALS_REPLY } from '../../shared/page-channel.js';
import { pageHooks } from './page-hooks.js';

export type InternalsField = (typeof INTERNALS_FIELDS)[number];
export type Internals = Partial<Record<InternalsField, string>>;

const MAX_ANSWER = 4000;

/** A defined custom element went unanswered while the page script came late or not at all (see {@link internalsMissed}). */
let missed = false;

/**
 * Whether this document showed a defined custom element whose internals could not be asked: the page script reached
 * the document after the page's own scripts (internals attached before it are unknown to it) or not at all.
 */
export function internalsMissed(): boolean {
  return missed;
}

/**
 * The ARIA values a custom element set through its ElementInternals, or undefined when it has none (or is not a
 * custom element: only autonomous custom elements can attach internals). The answer is page data: each value is a
 * string of at most 300 characters, anything else is dropped.
 */
export function internalsOf(el: Element): Internals | undefined {
  if (!el.localName.includes('-')) return undefined;
  let answer: unknown;
  const listen = (e: Event) => {
    answer = (e as CustomEvent).detail;
  };
  el.addEventListener(INTERNALS_REPLY, listen);
  try {
    el.dispatchEvent(new CustomEvent(INTERNALS_QUERY));
  } finally {
    el.removeEventListener(INTERNALS_REPLY, listen);
  }
  if (answer === undefined && pageHooks() !== 'early' && el.matches(':defined')) missed = true;
  if (typeof answer !== 'string' || answer.length > MAX_ANSWER) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const out: Internals = {};
  for (const f of INTERNALS_FIELDS) {
    const v = (parsed as Record<string, unknown>)[f];
    if (typeof v === 'string' && v.length <= 300) out[f] = v;
  }
  return out;
}

/** Whether `el` says it is disabled through its internals (`ariaDisabled = "true"`), as `aria-disabled` would. */
export function internalsDisabled(el: Element): boolean {
  return !el.hasAttribute('aria-disabled') && internalsOf(el)?.ariaDisabled === 'true';
}
