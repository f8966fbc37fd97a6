// The `extract_rows` page operation: a list or table as records — rows by selector with per-column relative selectors,
// or a table handle with columns named by its headers and rowspan/colspan resolved — bounded, with a cursor.
import type { ExtractRowsResult } from '../../../shared/ops.js';
import { orielError } from '../../../shared/errors.js';
import type { ContentHandler } from '../handlers.js';
import { isSecretField, Redactor } from '../redaction.js';
import { vetSelector } from '../../../shared/selectors.js';
import { refuseRedacted, visibleText } from './extract.js';
import { clip, requireHandle, selectAll } from './target.js';

const DEFAULT_MAX_ROWS = 100;
/** Longest cell, and the character budget of one answer (rows beyond it move to the next page). */
const CELL_LIMIT = 1000;
const BUDGET = 60_000;

type Row = Record<string, string | null>;

export const extractRows: ContentHandler<'extract_rows'> = (args, ctx) => {
  const redactor = ctx.redactor();
  const container = args.handle !== undefined ? requireHandle(args.handle, ctx) : undefined;
  if (container) refuseRedacted(container, redactor);
  if (!container && args.selector === undefined) {
    throw orielError('invalid_argument', 'Give extract_rows a "selector" for the rows, or the "handle" of a table or list.');
  }
  const offset = parseCursor(args.cursor);
  const max = args.max_rows ?? DEFAULT_MAX_ROWS;
  const table = container?.localName === 'table' ? (container as HTMLTableElement) : undefined;

  let columns: string[];
  let all: Array<() => Row>;
  if (table && !args.columns && args.selector === undefined) {
    ({ columns, rows: all } = tableRecords(table, redactor));
  } else {
    const rows = rowElements(container, table, args.selector, redactor);
    const spec = args.columns ?? { text: '' };
    columns = Object.keys(spec);
    if (columns.length === 0) throw orielError('invalid_argument', 'columns must name at least one column.');
    const parsed = columns.map((name) => ({ name, ...parseColumn(spec[name]!) }));
    for (const c of parsed) if (c.selector !== '') vetSelector(c.selector);
    all = rows.map((row) => () => {
      const rec: Row = {};
      for (const c of parsed) rec[c.name] = cellValue(row, c.selector, c.attribute, redactor);
      return rec;
    });
  }

  const out: Row[] = [];
  let used = 0;
  let i = offset;
  for (; i < all.length && out.length < max; i++) {
    const rec = all[i]!();
    const size = JSON.stringify(rec).length;
    if (out.length > 0 && used + size > BUDGET) break;
    used += size;
    out.push(rec);
  }
  const result: ExtractRowsResult = { columns, rows: out, total: all.length, truncated: i < all.length };
  if (i < all.length) result.next_cursor = String(i);
  return result;
};

function parseCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,7}$/.test(cursor)) throw orielError('invalid_argument', 'That cursor did not come from extract_rows; pass next_cursor unchanged.');
  return Number(cursor);
}

/**
 * Rows: the selector (inside the container when given), else a table's body rows or a list's items; rows the user's
 * redaction removes are not rows.
 */
function rowElements(container: Element | undefined, table: HTMLTableElement | undefined, selector: string | undefined, redactor: Redactor): Element[] {
  if (selector !== undefined) return selectAll(selector, redactor, container ?? document);
  if (table) return bodyRows(table, headerRowCount(table)).filter((r) => !redactor.isHidden(r));
  const c = container!;
  const items = Array.from(c.children).filter(
    (k) => (k.localName === 'li' || k.getAttribute('role') === 'listitem' || k.getAttribute('role') === 'row') && !redactor.isHidden(k),
  );
  if (items.length === 0) {
    throw orielError('invalid_argument', `Element ${c.localName} is neither a table nor a list; give a row "selector" (relative to the handle).`);
  }
  return items;
}

/** "a@href" → selector "a", attribute "href"; "" → the row itself, its text. */
function parseColumn(spec: string): { selector: string; attribute?: string } {
  const at = spec.lastIndexOf('@');
  if (at >= 0 && /^[\w:-]+$/.test(spec.slice(at + 1))) return { selector: spec.slice(0, at).trim(), attribute: spec.slice(at + 1) };
  return { selector: spec.trim() };
}

/**
 * One cell: the first element the column selector matches in the row that the user's redaction does not remove,
 * its text or an attribute. A secret field's value (and text) reads as "[redacted]".
 */
function cellValue(row: Element, selector: string, attribute: string | undefined, redactor: Redactor): string | null {
  const el = selector === '' ? row : selectAll(selector, redactor, row)[0];
  if (!el) return null;
  if (redactor.isRedacted(el)) return isSecretField(el) && !redactor.isHidden(el) ? '[redacted]' : null;
  if (attribute !== undefined) {
    // Links and sources come back absolute, as a person following them would reach them.
    if ((attribute === 'href' || attribute === 'src') && el.hasAttribute(attribute)) {
      const abs = (el as unknown as Record<string, unknown>)[attribute];
      if (typeof abs === 'string') return clip(redactor.scrubUrl(abs), CELL_LIMIT);
    }
    const v = el.getAttribute(attribute);
    return v === null ? null : clip(redactor.scrubUrl(v), CELL_LIMIT);
  }
  return clip(visibleText(el, redactor).replace(/\s+/g, ' '), CELL_LIMIT);
}

/** Rows of the table itself (not of nested tables): thead, tbody, tfoot and direct rows, in order. */
function ownRows(table: HTMLTableElement): HTMLTableRowElement[] {
  return Array.from(table.rows);
}

/** Header rows: those in <thead>; without one, the leading rows made only of <th> cells. */
function headerRowCount(table: HTMLTableElement): number {
  const rows = ownRows(table);
  if (table.tHead) return rows.filter((r) => r.parentElement === table.tHead).length;
  let n = 0;
  while (n < rows.length && rows[n]!.cells.length > 0 && Array.from(rows[n]!.cells).every((c) => c.localName === 'th')) n++;
  return n;
}

function bodyRows(table: HTMLTableElement, headerCount: number): HTMLTableRowElement[] {
  const rows = ownRows(table);
  if (table.tHead) return rows.filter((r) => r.parentElement !== table.tHead);
  return rows.slice(headerCount);
}

/**
 * Lays the table out on a grid (https://html.spec.whatwg.org/multipage/tables.html#forming-a-table): each cell fills
 * colspan × rowspan slots, so a spanning cell's value appears in every row and column it covers.
 */
function grid(rows: HTMLTableRowElement[]): Array<Array<HTMLTableCellElement | undefined>> {
  const g: Array<Array<HTMLTableCellElement | undefined>> = rows.map(() => []);
  rows.forEach((row, r) => {
    let c = 0;
    for (const cell of Array.from(row.cells)) {
      while (g[r]![c] !== undefined) c++;
      const colspan = Math.max(1, Math.min(cell.colSpan || 1, 1000));
      // rowspan="0" spans to the end of its row group.
      const rowspan = cell.rowSpan === 0 ? rows.length - r : Math.max(1, Math.min(cell.rowSpan || 1, 65534));
      for (let dr = 0; dr < rowspan && r + dr < rows.length; dr++) {
        for (let dc = 0; dc < colspan; dc++) g[r + dr]![c + dc] = cell;
      }
      c += colspan;
    }
  });
  return g;
}

/** Header-derived records: column names from the header rows (stacked headers joined with " / "), unique. */
function tableRecords(table: HTMLTableElement, redactor: Redactor): { columns: string[]; rows: Array<() => Row> } {
  const rows = ownRows(table);
  const headerCount = headerRowCount(table);
  const header = table.tHead ? rows.filter((r) => r.parentElement === table.tHead) : rows.slice(0, headerCount);
  const body = bodyRows(table, headerCount).filter((r) => !redactor.isRemoved(r));
  /** A cell's text; a cell that is redacted, or in a redacted row group, reads as nothing. */
  const text = (cell: HTMLTableCellElement) => (redactor.isRedacted(cell) ? '' : visibleText(cell, redactor).replace(/\s+/g, ' '));
  const headGrid = grid(header);
  const bodyGrid = grid(body);
  const width = Math.max(0, ...headGrid.map((r) => r.length), ...bodyGrid.map((r) => r.length));
  const seen = new Map<string, number>();
  const columns: string[] = [];
  for (let c = 0; c < width; c++) {
    const parts: string[] = [];
    for (const hr of headGrid) {
      const cell = hr[c];
      const t = cell ? text(cell) : '';
      if (t && parts[parts.length - 1] !== t) parts.push(t);
    }
    let name = clip(parts.join(' / '), 100) || `column ${c + 1}`;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (n > 1) name = `${name} (${n})`;
    columns.push(name);
  }
  const recs = bodyGrid.map((cells) => () => {
    const rec: Row = {};
    columns.forEach((name, c) => {
      const cell = cells[c];
      rec[name] = cell && !redactor.isRedacted(cell) ? clip(text(cell), CELL_LIMIT) : null;
    });
    return rec;
  });
  return { columns, rows: recs };
}
