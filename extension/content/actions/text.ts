// Finding elements by the text they show: the innermost elements whose text contains a query, searching open shadow
// roots too. Used by wait_for (wait.ts).

/** Elements whose text is never shown. */
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);

/** Collapses whitespace and lower-cases, so "Add  to\ncart" matches "add to cart". */
export function normalizeText(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * Up to `limit` innermost elements whose text contains `query`, in document order. A text node that contains the
 * query names its parent; text split across elements ("Add <b>to</b> cart") is found by the smallest element
 * whose combined text contains it.
 */
export function findText(query: string, limit: number): Element[] {
  const q = normalizeText(query);
  if (!q) return [];
  const out: Element[] = [];
  const roots: Array<Document | ShadowRoot> = [document];
  for (let i = 0; i < roots.length && out.length < limit; i++) scanTextNodes(roots[i]!, q, out, roots, limit);
  if (out.length > 0) return out;
  for (const root of roots) {
    const start = root instanceof Document ? root.body : root;
    if (start) innermost(start, q, out, limit);
    if (out.length >= limit) break;
  }
  return out;
}

function scanTextNodes(root: Document | ShadowRoot, q: string, out: Element[], roots: Array<Document | ShadowRoot>, limit: number): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n instanceof Element && SKIP.has(n.localName) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n instanceof Element) {
      if (n.shadowRoot) roots.push(n.shadowRoot);
      continue;
    }
    const parent = n.parentElement;
    if (parent && out.length < limit && normalizeText(n.nodeValue ?? '').includes(q) && out[out.length - 1] !== parent) out.push(parent);
  }
}

/**
 * Bottom-up: returns the shown text under `node` (skipping script, style…) and records the elements whose text
 * contains `q` while no child element's text does. Returns undefined for skipped subtrees.
 */
function innermost(node: Element | ShadowRoot, q: string, out: Element[], limit: number): string {
  let text = '';
  let inChild = false;
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) text += child.nodeValue ?? '';
    else if (child instanceof Element && !SKIP.has(child.localName)) {
      const before = out.length;
      const t = innermost(child, q, out, limit);
      if (out.length > before || normalizeText(t).includes(q)) inChild = true;
      text += t;
    }
  }
  if (!inChild && node instanceof Element && out.length < limit && normalizeText(text).includes(q)) out.push(node);
  return text;
}
