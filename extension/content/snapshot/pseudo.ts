// Which elements can have `::before` / `::after` text that counts in an accessible name. dom-accessibility-api reads
// `getComputedStyle(el, '::before').content` for every element of a name's subtree, which costs a style resolution per
// element; most pages declare such content for a handful of selectors only. One pass over the style sheets of a tree
// scope finds those selectors, so the per-element question becomes one `matches()` call — or no call at all.
import { splitSelectorList } from '../../../shared/selectors.js';

/** What a tree scope's style sheets say about generated text: none, only on elements matching `selector`, or unknown. */
export type PseudoScope = { kind: 'none' } | { kind: 'some'; selector: string } | { kind: 'unknown' };

const NONE: PseudoScope = { kind: 'none' };
const UNKNOWN: PseudoScope = { kind: 'unknown' };

/** A `::before` / `::after` (or legacy single-colon) pseudo-element in a selector. */
const BEFORE_AFTER = /::?(?:before|after)\b/i;
/** A pseudo-element that moves the match to another element or tree (`::part`, `::slotted`, `::backdrop`, …). */
const OTHER_PSEUDO_ELEMENT = /::(?!before\b|after\b)[a-z-]+/i;

/**
 * `content` values that contribute no text (https://www.w3.org/TR/css-content-3/#content-property): dom-accessibility-api
 * only takes quoted strings, so `none`, `normal`, counters, quotes and images never count, and neither does `""`.
 */
function contentMayHaveText(value: string): boolean {
  const v = value.trim();
  if (v === '' || v === 'none' || v === 'normal' || v === '""' || v === "''") return false;
  return true;
}

/**
 * The selector of the elements a `… ::before` selector generates content for (its originating elements), or
 * undefined when the selector is one this scan does not understand (then every element is treated as possible).
 */
function originating(selector: string): string | undefined {
  const m = BEFORE_AFTER.exec(selector);
  if (!m) return '';
  // Only user-action pseudo-classes may follow a pseudo-element (https://drafts.csswg.org/selectors-4/#pseudo-element-states).
  const rest = selector.slice(m.index + m[0].length);
  if (!/^(?::[a-z-]+)*\s*$/i.test(rest)) return undefined;
  const before = selector.slice(0, m.index);
  if (OTHER_PSEUDO_ELEMENT.test(before) || BEFORE_AFTER.test(before) || before.includes('&')) return undefined;
  const trimmed = before.trimEnd();
  return trimmed === '' || /[>+~]$/.test(trimmed) ? `${before}*` : before;
}

interface RuleLike {
  selectorText?: string;
  style?: CSSStyleDeclaration;
  cssRules?: CSSRuleList;
  styleSheet?: CSSStyleSheet | null;
  type?: number;
}

/** Collects the originating selectors of rules that give `::before`/`::after` text; false when a rule is not understood. */
function scanRules(rules: CSSRuleList, out: string[], nested: boolean): boolean {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i] as unknown as RuleLike;
    if (rule.styleSheet !== undefined) {
      // @import: the imported sheet (null while it loads).
      if (rule.styleSheet && !scanSheet(rule.styleSheet, out)) return false;
      continue;
    }
    if (typeof rule.selectorText === 'string') {
      const sel = rule.selectorText;
      if (BEFORE_AFTER.test(sel) && rule.style && contentMayHaveText(rule.style.getPropertyValue('content'))) {
        // Nested style rules (CSS nesting, @scope) have selectors relative to their parent: not understood here.
        if (nested) return false;
        for (const part of splitSelectorList(sel)) {
          const o = originating(part);
          if (o === undefined) return false;
          if (o !== '') out.push(o);
        }
      }
      if (rule.cssRules && rule.cssRules.length && !scanRules(rule.cssRules, out, true)) return false;
      continue;
    }
    // Grouping rules (@media, @supports, @layer, @container, @scope …) hold more rules; conditions are ignored (conservative).
    if (rule.cssRules) {
      // @scope (it has `start` and `end`) makes selectors relative to its root, like nesting.
      const scoped = 'start' in rule && 'end' in rule;
      if (!scanRules(rule.cssRules, out, nested || scoped)) return false;
    }
  }
  return true;
}

function scanSheet(sheet: CSSStyleSheet, out: string[]): boolean {
  if (sheet.disabled) return true;
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    // A cross-origin sheet's rules cannot be read (https://drafts.csswg.org/cssom/#dom-cssstylesheet-cssrules).
    return false;
  }
  return scanRules(rules, out, false);
}

/** Scans the style sheets of one tree scope (a document or a shadow root, adopted sheets included). */
export function scanScope(scope: Document | ShadowRoot): PseudoScope {
  const out: string[] = [];
  try {
    const sheets: CSSStyleSheet[] = Array.from(scope.styleSheets);
    const adopted = (scope as { adoptedStyleSheets?: readonly CSSStyleSheet[] }).adoptedStyleSheets;
    if (adopted) for (const s of adopted) sheets.push(s);
    for (const s of sheets) if (!scanSheet(s, out)) return UNKNOWN;
  } catch {
    return UNKNOWN;
  }
  if (out.length === 0) return NONE;
  const selector = [...new Set(out)].join(',');
  try {
    document.createDocumentFragment().querySelector(selector);
  } catch {
    return UNKNOWN;
  }
  return { kind: 'some', selector };
}
