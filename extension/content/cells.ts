// The cells of a table or grid row, numbered as the outline writes them (docs/snapshot-format.md, "Handles"): a cell
// is addressed as its row's handle, a colon and its number, so big tables get cell handles without a line per cell.
import { composedParent } from './hit.js';
import { computeRole } from './snapshot/cache.js';

/** Roles of the cells of a row (https://www.w3.org/TR/wai-aria-1.2/#row, "Required Owned Elements"). */
const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

/** Most elements searched for the cells of one ARIA row (a row of a few hundred cells, each with some content). */
const SEARCH_LIMIT = 5000;

/** Whether the outline leaves `el` out: `aria-hidden`, `display: none`, or not visible (docs/snapshot-format.md). */
function leftOut(el: Element): boolean {
  if (el.getAttribute('aria-hidden') === 'true') return true;
  const style = getComputedStyle(el);
  return style.display === 'none' || style.visibility !== 'visible';
}

/**
 * The cells of `row` in document order, as the snapshot shows them (hidden cells are not counted), or undefined when
 * `row` is not a row. A cell of a nested table belongs to that table's row, not to this one.
 */
export function cellsOf(row: Element): Element[] | undefined {
  if (computeRole(row) !== 'row') return undefined;
  if (row instanceof HTMLTableRowElement && !row.hasAttribute('role')) return Array.from(row.cells).filter((c) => !leftOut(c));
  const out: Element[] = [];
  const all = row.querySelectorAll('*');
  for (let i = 0; i < all.length && i < SEARCH_LIMIT; i++) {
    const el = all[i]!;
    const role = computeRole(el);
    if (!role || !CELL_ROLES.has(role) || owningRow(el) !== row || leftOut(el)) continue;
    out.push(el);
  }
  return out;
}

/** The nearest ancestor of a cell with the role row. */
function owningRow(cell: Element): Element | null {
  for (let n = composedParent(cell); n; n = composedParent(n)) if (computeRole(n) === 'row') return n;
  return null;
}
