// Budgeting and cursors: picks the lines of one page of the outline, and writes the header and coverage lines.
import type { Line } from './render.js';
import { quote } from './escape.js';

/** Default and maximum character budgets of one snapshot page (SPEC §3). */
export const DEFAULT_BUDGET = 24_000;
export const HARD_CAP = 200_000;

export interface PageMeta {
  title: string;
  url: string;
  document: string;
  /** DOM nodes visited across all frames. */
  visited: number;
  /** Nodes the walkers dropped at their node limit (never reachable through the cursor). */
  dropped: number;
}

export interface Cursor {
  /** Index of the first line of the next page. */
  start: number;
  /** Handle of the last line with a handle on the previous page, and how many lines after it were shown. */
  anchor?: string;
  after: number;
  /** Fingerprint of the filters the cursor was made with. */
  filters: string;
}

/** A short fingerprint of filter arguments, so a cursor is not reused with other filters. */
export function filterFingerprint(parts: unknown): string {
  const s = JSON.stringify(parts ?? null);
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

export function encodeCursor(c: Cursor): string {
  return `${c.start}~${c.anchor ?? ''}~${c.after}~${c.filters}`;
}

/** Parses a cursor; undefined when it is not one of ours. */
export function decodeCursor(text: string): Cursor | undefined {
  const m = /^(\d{1,9})~([a-z0-9.]{0,40})~(\d{1,9})~([a-z0-9]{1,10})$/.exec(text);
  if (!m) return undefined;
  const c: Cursor = { start: Number(m[1]), after: Number(m[3]), filters: m[4]! };
  if (m[2]) c.anchor = m[2];
  return c;
}

/** Where a cursor resumes in a fresh list of lines: just after its anchor when the anchor is still there. */
export function resumeIndex(lines: Line[], c: Cursor): number {
  if (c.anchor !== undefined) {
    const at = lines.findIndex((l) => l.handle === c.anchor);
    if (at >= 0) return Math.min(lines.length, at + 1 + c.after);
  }
  return Math.min(lines.length, c.start);
}

export interface Page {
  text: string;
  shown: number;
  /** Index after the last line shown; equals lines.length when complete. */
  end: number;
  cursor?: Cursor;
}

export function headerLine(meta: PageMeta): string {
  return `page ${quote(meta.title)} ${meta.url} doc=${meta.document}`;
}

/**
 * Fills one page from `start` with whole lines while the text (header and coverage line included) stays within
 * `budget` characters. At least one line is shown so a cursor always advances.
 */
export function paginate(lines: Line[], start: number, budget: number, meta: PageMeta, filters: string): Page {
  const header = headerLine(meta);
  const reserve = header.length + 160; // the coverage line
  let used = reserve;
  let end = start;
  while (end < lines.length) {
    const cost = lines[end]!.text.length + 1;
    if (used + cost > budget && end > start) break;
    used += cost;
    end++;
  }
  const shown = end - start;
  let cursor: Cursor | undefined;
  if (end < lines.length) {
    let anchorAt = -1;
    for (let i = end - 1; i >= start; i--) if (lines[i]!.handle) { anchorAt = i; break; }
    cursor = { start: end, after: anchorAt < 0 ? 0 : end - 1 - anchorAt, filters };
    if (anchorAt >= 0) cursor.anchor = lines[anchorAt]!.handle!;
  }
  const omitted = lines.length - shown + meta.dropped;
  let coverage = `coverage: ${meta.visited} visited, ${shown} shown`;
  if (start > 0 || end < lines.length) coverage += ` (lines ${start + 1}-${end} of ${lines.length})`;
  coverage += `, ${omitted} omitted`;
  coverage += cursor ? `, truncated; continue with cursor="${encodeCursor(cursor)}"` : meta.dropped ? ', truncated at the node limit' : ', complete';
  const body = lines.slice(start, end).map((l) => l.text);
  const page: Page = { text: [header, ...body, coverage].join('\n'), shown, end };
  if (cursor) page.cursor = cursor;
  return page;
}
