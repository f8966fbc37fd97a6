// Finding elements by the text they show: the innermost elements whose text contains a query, searching open and
// closed shadow roots too, never inside what redaction hides (../redaction.ts). Used by wait_for (wait.ts).
import { isSecretField, type Redactor } from '../redaction.js';
import { anyShadowRoot } from './shadow.js';
import { collapseWhitespace } from '../../../shared/snapshot/index.js';

/** Elements whose text is never shown. */
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);

/**
 * Collapses whitespace, drops characters that render nothing (soft hyphens, zero-width spaces) and lower-cases, so
 * "Add  to\ncart" and "Ad\u00address" match "add to cart" and "address" (the snapshot's own text normalization).
 */
export function normalizeText(s: string): string {
  return collapseWhitespace(s).toLowerCase();
}

/**
 * Up to `limit` innermost elements whose text contains `query`, in document order. A text node that contains the
 * query names its parent; text split across elements ("Add <b>to</b> cart") is found by the smallest element
 * whose combined text contains it. `scope` limits the search to one subtree (its shadow trees included).
 */
export function findText(query: string, limit: number, redactor: Redactor, scope?: Element): Element[] {
  const q = normalizeText(query);
  if (!q || redactor.isRemoved(scope ?? document.documentElement)) return [];
  const search: Search = { q, out: [], limit, redactor };
  const roots: Array<Document | ShadowRoot | Element> = [scope ?? document];
  for (let i = 0; i < roots.length && search.out.length < limit; i++) scanTextNodes(roots[i]!, search, roots);
  if (search.out.length > 0) return search.out;
  for (const root of roots) {
    const start = root instanceof Document ? root.body : root;
    if (start) innermost(start, search);
    if (search.out.length >= limit) break;
  }
  return search.out;
}

interface Search {
  q: string;
  out: Element[];
  limit: number;
  redactor: Redactor;
}

/** Subtrees whose text is never searched: not shown (script, style…), removed by the user, or a secret field's. */
function skipped(el: Element, s: Search): boolean {
  return SKIP.has(el.localName) || s.redactor.matchesUser(el) || isSecretField(el);
}

function matches(text: string, s: Search): boolean {
  return normalizeText(text).includes(s.q);
}

function scanTextNodes(root: Document | ShadowRoot | Element, s: Search, roots: Array<Document | ShadowRoot | Element>): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n instanceof Element && skipped(n, s) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n instanceof Element) {
      const shadow = anyShadowRoot(n);
      if (shadow) roots.push(shadow);
      continue;
    }
    const parent = n.parentElement;
    if (parent && s.out.length < s.limit && matches(n.nodeValue ?? '', s) && s.out[s.out.length - 1] !== parent) s.out.push(parent);
  }
}

/**
 * Bottom-up: returns the shown text under `node` (skipping script, style…) and records the elements whose text
 * contains `q` while no child element's text does. Returns undefined for skipped subtrees.
 */
function innermost(node: Element | ShadowRoot, s: Search): string {
  let text = '';
  let inChild = false;
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) text += child.nodeValue ?? '';
    else if (child instanceof Element && !skipped(child, s)) {
      const before = s.out.length;
      const t = innermost(child, s);
      if (s.out.length > before || matches(t, s)) inChild = true;
      text += t;
    }
  }
  if (!inChild && node instanceof Element && s.out.length < s.limit && matches(text, s)) s.out.push(node);
  return text;
}
