// The gate for CSS selectors an agent gives a tool: parsed with css-what, checked against the constructs that could
// observe redacted content, and re-serialised so the browser runs exactly what was checked. The runtime half (what
// the page's public structure allows) is extension/content/redaction.ts; the rules are docs/redaction.md.
import { parse, stringify, SelectorType, type Selector } from 'css-what';
import { orielError } from './errors.js';

/** A selector that passed the gate, with the constructs the content script must still check against the page. */
export interface VettedSelector {
  /** The selector as checked, re-serialised: what the browser is given. */
  css: string;
  /** Uses `+` or `~`: compounds are tested on earlier siblings, which may be redacted. */
  siblings: boolean;
  /** Uses a `*-of-type` pseudo-class: counts siblings by their tag, a redacted one's included. */
  ofType: boolean;
  /** Uses `:checked`, `:indeterminate` or `:default`: state that a secret field's selection holds. */
  state: boolean;
}

/**
 * Pseudo-classes whose answer for an element depends only on public facts: its own attributes, position among its
 * siblings (a redacted subtree still counts as one element), focus, pointer and document state.
 * `:empty` and `:placeholder-shown` tell whether a field or element is empty, which may be shown.
 */
const PUBLIC_PSEUDOS = new Set([
  'root', 'scope', 'first-child', 'last-child', 'only-child', 'nth-child', 'nth-last-child', 'empty', 'placeholder-shown',
  'disabled', 'enabled', 'required', 'optional', 'read-only', 'read-write', 'link', 'any-link', 'visited', 'target',
  'hover', 'active', 'focus', 'focus-visible', 'defined', 'modal', 'open', 'closed', 'popover-open', 'fullscreen', 'lang',
]);
/** Pseudo-classes that count siblings of the same type (by tag name). */
const OF_TYPE = new Set(['first-of-type', 'last-of-type', 'only-of-type', 'nth-of-type', 'nth-last-of-type']);
/** Selection state: never matches a secret field (the content script drops those). */
const STATE = new Set(['checked', 'indeterminate', 'default']);
/** Pseudo-classes taking a selector list, checked recursively. */
const LISTS = new Set(['not', 'is', 'where']);

/** Refused constructs with the reason an agent reads. */
const REFUSED: Record<string, string> = {
  has: ':has() looks into descendants and later siblings, which may be redacted',
  valid: ':valid depends on what fields hold, secret ones included (a form is invalid when any of its fields is)',
  invalid: ':invalid depends on what fields hold, secret ones included (a form is invalid when any of its fields is)',
  'user-valid': ':user-valid depends on what fields hold, secret ones included',
  'user-invalid': ':user-invalid depends on what fields hold, secret ones included',
  'in-range': ':in-range depends on what a field holds',
  'out-of-range': ':out-of-range depends on what a field holds',
  blank: ':blank depends on what a field holds',
  autofill: ':autofill tells what the browser filled in',
  '-webkit-autofill': ':-webkit-autofill tells what the browser filled in',
  dir: ':dir() can depend on the text of an element and its descendants',
  'focus-within': ':focus-within looks into descendants, which may be redacted',
  'target-within': ':target-within looks into descendants, which may be redacted',
  contains: ':contains() reads text (and is not CSS)',
  host: ':host() applies inside shadow trees only',
  'host-context': ':host-context() applies inside shadow trees only',
};

/** `An+B`, `odd` or `even` (https://drafts.csswg.org/css-syntax-3/#anb-microsyntax), without `of S`. */
const AN_PLUS_B = /^\s*(?:odd|even|[+-]?\d*n(?:\s*[+-]\s*\d+)?|[+-]?\d+)\s*$/i;

function refuse(why: string): never {
  throw orielError('invalid_argument', `This selector is refused: ${why}. Take a snapshot and use a handle, or a simpler selector.`, {
    next: 'snapshot, then use the handle',
  });
}

/**
 * Parses and checks an agent's selector (docs/redaction.md, "Selectors").
 * @returns the re-serialised selector and the constructs the page must be checked for.
 * @throws OrielError `invalid_argument` when the selector does not parse, or uses a construct that can observe
 *   redacted content (`:has()`, validity, `[value]`, pseudo-elements, unknown pseudo-classes …).
 */
export function vetSelector(selector: string): VettedSelector {
  let tree: Selector[][];
  try {
    tree = parse(selector);
  } catch {
    throw orielError('invalid_argument', `"${selector.length > 200 ? selector.slice(0, 199) + '…' : selector}" is not a valid CSS selector. Prefer a handle from a snapshot.`);
  }
  if (tree.length === 0 || tree.some((s) => s.length === 0)) throw orielError('invalid_argument', 'The selector is empty. Prefer a handle from a snapshot.');
  const out: VettedSelector = { css: stringify(tree), siblings: false, ofType: false, state: false };
  check(tree, out, 0);
  return out;
}

function check(list: Selector[][], out: VettedSelector, depth: number): void {
  if (depth > 8) refuse('it nests too deeply');
  for (const complex of list) {
    for (const s of complex) {
      switch (s.type) {
        case SelectorType.Tag:
        case SelectorType.Universal:
        case SelectorType.Descendant:
        case SelectorType.Child:
          break;
        case SelectorType.Adjacent:
        case SelectorType.Sibling:
          out.siblings = true;
          break;
        case SelectorType.Parent:
        case SelectorType.ColumnCombinator:
          refuse('it uses a combinator browsers do not support');
          break;
        case SelectorType.Attribute:
          // Frameworks mirror a field's value into this attribute, so `[value^=a]` would read a password letter by letter.
          if (s.name.toLowerCase() === 'value') refuse('it tests the "value" attribute, which can hold what a person typed, passwords included');
          break;
        case SelectorType.PseudoElement:
          refuse(`::${s.name} is a pseudo-element, which no tool can act on`);
          break;
        case SelectorType.Pseudo: {
          const name = s.name;
          if (REFUSED[name]) refuse(REFUSED[name]);
          if (LISTS.has(name)) {
            if (!Array.isArray(s.data)) refuse(`:${name}() needs a selector list`);
            check(s.data as Selector[][], out, depth + 1);
          } else if (OF_TYPE.has(name)) {
            out.ofType = true;
            if (name.startsWith('nth') && !(typeof s.data === 'string' && AN_PLUS_B.test(s.data))) refuse(`:${name}() takes An+B only`);
          } else if (STATE.has(name)) {
            out.state = true;
          } else if (PUBLIC_PSEUDOS.has(name)) {
            if ((name === 'nth-child' || name === 'nth-last-child') && !(typeof s.data === 'string' && AN_PLUS_B.test(s.data))) {
              refuse(`:${name}() takes An+B only here ("of S" tests siblings, which may be redacted)`);
            }
            if (name === 'lang' && typeof s.data !== 'string') refuse(':lang() needs a language');
          } else {
            refuse(`:${name} is not among the pseudo-classes Oriel allows in selectors`);
          }
          break;
        }
      }
    }
  }
}

/**
 * Splits a selector list (as in a style rule's `selectorText`) at its top-level commas — not those inside
 * parentheses (`:is(a, b)`), attribute brackets or strings — into trimmed, non-empty selectors. For the page's own
 * style sheets, which may use syntax the gate's parser does not know, so it does not parse.
 */
export function splitSelectorList(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out.filter(Boolean);
}
