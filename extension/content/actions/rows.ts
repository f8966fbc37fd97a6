// The `extract_rows` page operation: a list or table as records — rows by selector with per-column relative selectors,
// or a table handle with columns named by its headers and rowspan/colspan resolved — bounded, with a cursor. Says which
// cells a spanning cell filled, and when the rows are only a window of a longer list (aria-setsize, aria-rowcount).
// MCP side: broker/mcp/tools/read.ts.
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
const BUDGET = 400_000;
/** Most rows listed in `spanned`. */
const MAX_SPANNED = 200;

type Row = Record<string, string | null>;

/**
 * How cells are read in one call: where nothing inside the rows' container is redacted (asked once per call, not once
 * per cell), a cell's text is its `innerText` as rendered, without the per-cell redaction walk.
 */
class Cells {
  private readonly clean: boolean;

  constructor(
    readonly redactor: Redactor,
    container: Element | undefined,
  ) {
    this.clean = container !== undefined && !redactor.hasRedactedInside(container) && !redactor.isRedacted(container);
  }

  /** Whether a cell is redacted (never, inside a container with nothing redacted). */
  redacted(el: Element): boolean {
    return !this.clean && this.redactor.isRedacted(el);
  }

  /** The text of a cell as rendered, whitespace collapsed, redacted parts left out. */
  text(el: Element): string {
    const raw = this.clean && 'innerText' in el ? (el as HTMLElement).innerText : visibleText(el, this.redactor);
    return raw.replace(/\s+/g, ' ').trim();
  }
}

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
  const cells = new Cells(redactor, container);

  let columns: string[];
  let all: Array<() => Row>;
  let spannedOf: ((i: number) => string[]) | undefined;
  let rowEls: Element[];
  if (table && !args.columns && args.selector === undefined) {
    const t = tableRecords(table, cells, args.link_urls === true);
    ({ columns, rows: all, rowEls } = t);
    spannedOf = t.spanned;
  } else {
    rowEls = rowElements(container, table, args.selector, redactor);
    const spec = args.columns ?? { text: '' };
    columns = Object.keys(spec);
    if (columns.length === 0) throw orielError('invalid_argument', 'columns must name at least one column.');
    const parsed = columns.map((name) => ({ name, ...parseColumn(spec[name]!) }));
    for (const c of parsed) if (c.selector !== '') vetSelector(c.selector);
    all = rowEls.map((row) => () => {
      const rec: Row = {};
      for (const c of parsed) rec[c.name] = cellValue(row, c.selector, c.attribute, cells);
      return rec;
    });
  }

  const out: Row[] = [];
  const spanned: Array<{ row: number; columns: string[] }> = [];
  let used = 0;
  let i = offset;
  for (; i < all.length && out.length < max; i++) {
    const rec = all[i]!();
    const size = JSON.stringify(rec).length;
    if (out.length > 0 && used + size > BUDGET) break;
    used += size;
    const filled = spannedOf?.(i);
    if (filled?.length && spanned.length < MAX_SPANNED) spanned.push({ row: out.length, columns: filled });
    out.push(rec);
  }
  const result: ExtractRowsResult = { columns, rows: out, total: all.length, truncated: i < all.length, complete: true };
  if (i < all.length) result.next_cursor = String(i);
  if (spanned.length) result.spanned = spanned;
  const win = windowOf(container, rowEls);
  if (win) {
    result.set_size = win.total;
    if (win.first !== undefined) result.window = { first: win.first, last: win.last! };
    result.complete = false;
  }
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

/**
 * When the rows are a window of a longer list or grid (https://www.w3.org/TR/wai-aria-1.2/#aria-setsize,
 * #aria-rowcount): the size of the whole set and the positions of the first and last rows read.
 */
function windowOf(container: Element | undefined, rows: Element[]): { total: number; first?: number; last?: number } | undefined {
  let total = Number(container?.getAttribute('aria-rowcount') ?? NaN);
  let first = Infinity;
  let last = 0;
  for (const r of rows) {
    const size = Number(r.getAttribute('aria-setsize') ?? NaN);
    if (size > 0 && !(total >= size)) total = size;
    const pos = Number(r.getAttribute('aria-posinset') ?? r.getAttribute('aria-rowindex') ?? NaN);
    if (pos > 0) {
      first = Math.min(first, pos);
      last = Math.max(last, pos);
    }
  }
  // aria-rowcount="-1": the total is unknown, and more rows exist than are shown.
  if (total === -1) return first <= last ? { total: -1, first, last } : { total: -1 };
  if (!(total > rows.length)) return undefined;
  return first <= last ? { total, first, last } : { total };
}

/** "a@href" → selector "a", attribute "href"; "" → the row itself, its text. */
function parseColumn(spec: string): { selector: string; attribute?: string } {
  const at = spec.lastIndexOf('@');
  if (at >= 0 && /^[\w:-]+$/.test(spec.slice(at + 1))) return { selector: spec.slice(0, at).trim(), attribute: spec.slice(at + 1) };
  return { selector: spec.trim() };
}

/** A link's URL as a person following it would reach it, without credentials or the values of secret parameters. */
function absoluteUrl(el: Element, attribute: string, redactor: Redactor): string | undefined {
  const abs = (el as unknown as Record<string, unknown>)[attribute];
  if (typeof abs !== 'string') return undefined;
  let href = abs;
  try {
    const u = new URL(abs);
    u.username = '';
    u.password = '';
    href = u.href;
  } catch {
    /* not a URL: as it is */
  }
  return redactor.scrubUrl(href);
}

/**
 * One cell: the first element the column selector matches in the row that the user's redaction does not remove,
 * its text or an attribute. A secret field's value (and text) reads as "[redacted]".
 */
function cellValue(row: Element, selector: string, attribute: string | undefined, cells: Cells): string | null {
  const redactor = cells.redactor;
  const el = selector === '' ? row : selectAll(selector, redactor, row)[0];
  if (!el) return null;
  if (cells.redacted(el)) return isSecretField(el) && !redactor.isHidden(el) ? '[redacted]' : null;
  if (attribute !== undefined) {
    // Links and sources come back absolute, as a person following them would reach them.
    if ((attribute === 'href' || attribute === 'src') && el.hasAttribute(attribute)) {
      const abs = absoluteUrl(el, attribute, redactor);
      if (abs !== undefined) return clip(abs, CELL_LIMIT);
    }
    const v = el.getAttribute(attribute);
    return v === null ? null : clip(redactor.scrubUrl(v), CELL_LIMIT);
  }
  return clip(cells.text(el), CELL_LIMIT);
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

/** One slot of the table grid: the cell covering it, and whether the cell starts there (else a span filled it). */
interface Slot {
  cell: HTMLTableCellElement;
  origin: boolean;
}

/**
 * Lays the table out on a grid (https://html.spec.whatwg.org/multipage/tables.html#forming-a-table): each cell fills
 * colspan × rowspan slots, so a spanning cell's value appears in every row and column it covers.
 */
function grid(rows: HTMLTableRowElement[]): Array<Array<Slot | undefined>> {
  const g: Array<Array<Slot | undefined>> = rows.map(() => []);
  rows.forEach((row, r) => {
    let c = 0;
    for (const cell of Array.from(row.cells)) {
      while (g[r]![c] !== undefined) c++;
      const colspan = Math.max(1, Math.min(cell.colSpan || 1, 1000));
      // rowspan="0" spans to the end of its row group.
      const rowspan = cell.rowSpan === 0 ? rows.length - r : Math.max(1, Math.min(cell.rowSpan || 1, 65534));
      for (let dr = 0; dr < rowspan && r + dr < rows.length; dr++) {
        for (let dc = 0; dc < colspan; dc++) g[r + dr]![c + dc] = { cell, origin: dr === 0 && dc === 0 };
      }
      c += colspan;
    }
  });
  return g;
}

/**
 * Header-derived records: column names from the header rows (stacked headers joined with " / "), unique. With
 * `linkUrls`, a column whose cells hold links gets a companion column "<name> url" with each cell's first link.
 */
function tableRecords(
  table: HTMLTableElement,
  cells: Cells,
  linkUrls: boolean,
): { columns: string[]; rows: Array<() => Row>; rowEls: Element[]; spanned: (i: number) => string[] } {
  const redactor = cells.redactor;
  const rows = ownRows(table);
  const headerCount = headerRowCount(table);
  const header = table.tHead ? rows.filter((r) => r.parentElement === table.tHead) : rows.slice(0, headerCount);
  const body = bodyRows(table, headerCount).filter((r) => !redactor.isRemoved(r));
  /** A cell's text; a cell that is redacted, or in a redacted row group, reads as nothing. */
  const text = (cell: HTMLTableCellElement) => (cells.redacted(cell) ? '' : cells.text(cell));
  const headGrid = grid(header);
  const bodyGrid = grid(body);
  const width = Math.max(0, ...headGrid.map((r) => r.length), ...bodyGrid.map((r) => r.length));
  const seen = new Map<string, number>();
  const names: string[] = [];
  const unique = (name: string) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n > 1 ? `${name} (${n})` : name;
  };
  for (let c = 0; c < width; c++) {
    const parts: string[] = [];
    for (const hr of headGrid) {
      const slot = hr[c];
      const t = slot ? text(slot.cell) : '';
      if (t && parts[parts.length - 1] !== t) parts.push(t);
    }
    names.push(unique(clip(parts.join(' / '), 100) || `column ${c + 1}`));
  }
  const link = (cell: HTMLTableCellElement | undefined) => (cell ? cell.querySelector('a[href], area[href]') : null);
  const withUrl = names.map((_, c) => linkUrls && bodyGrid.some((r) => link(r[c]?.cell) !== null));
  const urlNames = names.map((n, c) => (withUrl[c] ? unique(`${n} url`) : ''));
  const columns = names.flatMap((n, c) => (withUrl[c] ? [n, urlNames[c]!] : [n]));
  const recs = bodyGrid.map((slots) => () => {
    const rec: Row = {};
    names.forEach((name, c) => {
      const cell = slots[c]?.cell;
      const hidden = !cell || cells.redacted(cell);
      rec[name] = hidden ? null : clip(text(cell), CELL_LIMIT);
      if (withUrl[c]) {
        const a = hidden ? null : link(cell);
        rec[urlNames[c]!] = a ? (absoluteUrl(a, 'href', redactor) ?? null) : null;
      }
    });
    return rec;
  });
  const spanned = (i: number) => names.filter((_, c) => bodyGrid[i]![c] !== undefined && !bodyGrid[i]![c]!.origin);
  return { columns, rows: recs, rowEls: body, spanned };
}
