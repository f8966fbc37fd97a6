// CSS `:hover` for a synthetic pointer. Synthetic events do not set the browser's hover state, so once an agent
// hovers in a document, Oriel marks the hovered element and its flat-tree ancestors with an attribute and mirrors the
// page's readable `:hover` rules onto it (https://drafts.csswg.org/selectors-4/#the-hover-pseudo). Used by pointer.ts.
import { splitSelectorList } from '../../../shared/selectors.js';

/** The attribute on every element of the hovered chain while emulation is on. */
export const HOVER_ATTRIBUTE = 'data-oriel-hover';
const MARK = `[${HOVER_ATTRIBUTE}]`;

/** Turned on by the first hover in this document; from then on every pointer move keeps the marker in step. */
let emulating = false;
/** The mirrored sheet adopted into each tree scope. */
const mirrors = new Map<Document | ShadowRoot, CSSStyleSheet>();

/** What mirroring found: rules copied, and stylesheets that could not be read (cross-origin). */
export interface MirrorReport {
  rules: number;
  unreadable: number;
}

/** Moves the marker from the old chain to the new one (pointer.ts calls this on every move onto another element). */
export function hoverChainChanged(before: readonly Element[], after: readonly Element[]): void {
  if (!emulating) return;
  const keep = new Set(after);
  for (const e of before) if (!keep.has(e)) e.removeAttribute(HOVER_ATTRIBUTE);
  for (const e of after) if (!e.hasAttribute(HOVER_ATTRIBUTE)) e.setAttribute(HOVER_ATTRIBUTE, '');
}

/**
 * Turns emulation on for `chain` (the hovered element, innermost first, and its ancestors) and rebuilds the mirrored
 * rules of every tree scope the chain crosses (the document and the shadow roots on the way).
 */
export function emulateHover(chain: readonly Element[]): MirrorReport {
  emulating = true;
  for (const e of chain) if (!e.hasAttribute(HOVER_ATTRIBUTE)) e.setAttribute(HOVER_ATTRIBUTE, '');
  const scopes = new Set<Document | ShadowRoot>([document]);
  for (const e of chain) {
    const root = e.getRootNode();
    if (root instanceof ShadowRoot || root instanceof Document) scopes.add(root);
  }
  const report: MirrorReport = { rules: 0, unreadable: 0 };
  for (const scope of scopes) install(scope, mirrorScope(scope, report));
  return report;
}

/** The mirrored rules of one tree scope's own and adopted stylesheets, as one stylesheet text. */
function mirrorScope(scope: Document | ShadowRoot, report: MirrorReport): string {
  const own = mirrors.get(scope);
  const sheets = [...Array.from(scope.styleSheets), ...(scope.adoptedStyleSheets ?? []).filter((s) => s !== own)];
  const out: string[] = [];
  for (const sheet of sheets) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      // A cross-origin stylesheet without CORS: its rules are not readable (https://drafts.csswg.org/cssom/#dom-cssstylesheet-cssrules).
      report.unreadable++;
      continue;
    }
    mirrorRules(rules, out, report);
  }
  return out.join('\n');
}

/**
 * Copies the rules whose selectors use `:hover`, with `:hover` replaced by the marker attribute (same specificity:
 * one pseudo-class, one attribute). Selector lists keep only their hover selectors; grouping rules (@media, @supports,
 * @layer, @container, nesting parents) are kept around what they contain.
 */
function mirrorRules(rules: CSSRuleList, out: string[], report: MirrorReport): void {
  for (const rule of Array.from(rules)) {
    if (rule instanceof CSSImportRule) {
      try {
        if (rule.styleSheet) mirrorRules(rule.styleSheet.cssRules, out, report);
      } catch {
        report.unreadable++;
      }
      continue;
    }
    const nested = (rule as CSSRule & { cssRules?: CSSRuleList }).cssRules;
    if (rule instanceof CSSStyleRule && rule.selectorText.includes(':hover')) {
      const selectors = splitSelectorList(rule.selectorText).filter((s) => s.includes(':hover'));
      const text = rule.cssText;
      out.push(`${selectors.map((s) => s.replace(/:hover(?![\w-])/g, MARK)).join(', ')} ${text.slice(text.indexOf('{'))}`);
      report.rules++;
    } else if (nested && nested.length > 0 && rule.cssText.includes(':hover')) {
      const inner: string[] = [];
      mirrorRules(nested, inner, report);
      if (inner.length > 0) out.push(`${rule.cssText.slice(0, rule.cssText.indexOf('{'))}{\n${inner.join('\n')}\n}`);
    }
  }
}

/**
 * Adopts `text` into `scope` as a constructed stylesheet (https://drafts.csswg.org/cssom/#dom-documentorshadowroot-adoptedstylesheets):
 * not a DOM node, and not subject to the page's `style-src` policy.
 */
function install(scope: Document | ShadowRoot, text: string): void {
  let sheet = mirrors.get(scope);
  if (!sheet) {
    if (!text) return;
    sheet = new CSSStyleSheet();
    mirrors.set(scope, sheet);
  }
  sheet.replaceSync(text);
  if (!scope.adoptedStyleSheets.includes(sheet)) scope.adoptedStyleSheets = [...scope.adoptedStyleSheets, sheet];
}
