// What a handle is bound to (./registry.ts): an element's role and accessible name, computed with the snapshot
// walker's own functions (./snapshot/cache.ts) so that issue time and use time agree, and what identifies the list
// item or table row it is in.
import { collapseWhitespace } from '../../shared/snapshot/index.js';
import { composedParent } from './hit.js';
import type { Describe, Fingerprint } from './registry.js';
import { computeRole, WalkCache } from './snapshot/cache.js';

/** Roles of the items virtualized lists and grids recycle (https://www.w3.org/TR/wai-aria-1.2/#listitem, #row, #treeitem, #article). */
const ITEM_ROLES = new Set(['row', 'listitem', 'treeitem', 'article']);

/** How far up an element's item is looked for (a row's button sits a few wrappers deep). */
const ITEM_DEPTH = 8;

/** Longest item key kept (characters). */
const KEY_LIMIT = 80;

/**
 * Elements whose text is the control's, not the item's: a hover action's label, or text typed into an editable
 * region (`contenteditable` too), must not change the item's key.
 */
const CONTROL_TAGS = new Set(['button', 'a', 'input', 'select', 'textarea', 'script', 'style', 'template']);

/**
 * What identifies a list item or row across a virtualized list's recycling: its position in the whole set when the
 * page says it (`aria-posinset`, `aria-rowindex`: https://www.w3.org/TR/wai-aria-1.2/#aria-posinset), else the first
 * text it shows outside its controls (a person's name, a file name, a first cell), collapsed and bounded.
 */
export function itemKey(item: Element): string {
  const pos = item.getAttribute('aria-posinset') ?? item.getAttribute('aria-rowindex');
  if (pos !== null && pos.trim() !== '') return `#${pos.trim().slice(0, 12)}`;
  const walker = document.createTreeWalker(item, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) =>
      n.nodeType === Node.ELEMENT_NODE
        ? CONTROL_TAGS.has((n as Element).localName) || (n as Element).getAttribute('aria-hidden') === 'true' || (n as Element).hasAttribute('contenteditable')
          ? NodeFilter.FILTER_REJECT
          : NodeFilter.FILTER_SKIP
        : NodeFilter.FILTER_ACCEPT,
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = collapseWhitespace(n.nodeValue ?? '');
    if (t) return t.slice(0, KEY_LIMIT);
  }
  return '';
}

/** The item `el` is, or is in within {@link ITEM_DEPTH} levels, with its role. */
function itemOf(el: Element, role: string | null): Element | undefined {
  if (role !== null && ITEM_ROLES.has(role)) return el;
  let n = composedParent(el);
  for (let i = 0; n && i < ITEM_DEPTH; i++, n = composedParent(n)) {
    const r = computeRole(n);
    if (r !== null && ITEM_ROLES.has(r)) return n;
  }
  return undefined;
}

/**
 * A describer sharing `cache` (the walker passes its per-walk cache, so names it computed are not computed again).
 * Names are computed as for a rendered element: an element hidden since it was shown keeps its name, and is then
 * refused for being hidden rather than for having changed.
 */
export function describeWith(cache: WalkCache): Describe {
  return (el) => {
    const role = computeRole(el);
    const item = itemOf(el, role);
    const key = item ? itemKey(item) : '';
    const print: Fingerprint = { role, name: '' };
    if (key) print.item = key;
    // A row's name is its whole content, which the outline does not show as a name and which changes as the row's
    // cells do (row actions appearing on hover): a row is bound by role and key, its cells and controls by their own
    // names and their row's key.
    if (role === 'row' && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) return print;
    print.name = collapseWhitespace(cache.name(el, true));
    return print;
  };
}

/** The registry's own describer: a fresh cache per element, released at once. */
export const describeNow: Describe = (el) => {
  const cache = new WalkCache();
  try {
    return describeWith(cache)(el);
  } finally {
    cache.clear();
  }
};
