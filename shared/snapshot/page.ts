// Budgeting and cursors: picks the lines of one page of the outline, and writes the header and coverage lines.
import type { Line } from './render.js';
import { cap, capMarker, escapeBare, quote } from './escape.js';

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

/** Room the header gives the title and the URL, at most, as shares of the budget (so a page's title cannot eat it). */
const TITLE_SHARE = 1 / 8;
const URL_SHARE = 1 / 6;

/**
 * The largest `n` in [0, `length`] for which `make(n).length <= max`, assuming the length grows with `n`; 0 when none
 * fits. `make(n)` writes the first `n` characters of something (quoted, capped).
 */
function largestFitting(length: number, max: number, make: (n: number) => string): number {
  if (make(length).length <= max) return length;
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (make(mid).length <= max) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The header line: `page "<title>" <url> doc=<id>`. With a `budget`, the title and URL are capped (with a `…(+N)`
 * marker) to shares of it, so that the header leaves room for the outline whatever the page's title and URL.
 */
export function headerLine(meta: PageMeta, budget?: number): string {
  if (budget === undefined) return `page ${quote(meta.title)} ${escapeBare(meta.url)} doc=${meta.document}`;
  const titleRoom = Math.max(24, Math.floor(budget * TITLE_SHARE));
  const urlRoom = Math.max(40, Math.floor(budget * URL_SHARE));
  const title = (n: number) => quote(cap(meta.title, n));
  const url = (n: number) => escapeBare(cap(meta.url, n));
  return `page ${title(largestFitting(meta.title.length, titleRoom, title))} ${url(largestFitting(meta.url.length, urlRoom, url))} doc=${meta.document}`;
}

/** The coverage line closing a page: what was visited, shown and left out, and how to continue. */
function coverageLine(visited: number, shown: number, start: number, end: number, total: number, omitted: number, cursor: Cursor | undefined, dropped: number): string {
  let coverage = `coverage: ${visited} visited, ${shown} shown`;
  if (start > 0 || end < total) coverage += ` (lines ${start + 1}-${end} of ${total})`;
  coverage += `, ${omitted} omitted`;
  coverage += cursor ? `, truncated; continue with cursor="${encodeCursor(cursor)}"` : dropped ? ', truncated at the node limit' : ', complete';
  return coverage;
}

/**
 * A line too long for the room left on its page, cut to at most `room` characters: never inside an escape, a quote
 * left open is closed, then the `…(+N)` marker and, when the cut removed it, the line's handle (so it can still be
 * acted on).
 */
export function cutLine(line: Line, room: number): string {
  const text = line.text;
  const tail = line.handle && text.endsWith(` @${line.handle}`) ? ` @${line.handle}` : '';
  const limit = room - capMarker(text.length).length - 1 - tail.length; // 1: a closing quote
  let inQuote = false;
  let end = 0;
  let endInQuote = false;
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    let step = 1;
    if (inQuote && c === '\\') step = text[i + 1] === 'u' && text[i + 2] === '{' ? text.indexOf('}', i) + 1 - i : 2;
    else if (c >= '\ud800' && c <= '\udbff') step = 2; // a surrogate pair stays whole
    if (i + step > limit) break;
    if (c === '"' && step === 1) inQuote = !inQuote;
    i += step;
    end = i;
    endInQuote = inQuote;
  }
  const cut = `${text.slice(0, end)}${endInQuote ? '"' : ''}${capMarker(text.length - end)}`;
  if (tail && cut.length + tail.length <= room) return cut + tail;
  return cut.length <= room ? cut : cut.slice(0, Math.max(0, room));
}

/**
 * Fills one page from `start` with whole lines while the text (header and coverage line included) stays within
 * `budget` characters; the text never exceeds it. At least one line is shown so a cursor always advances: a first
 * line longer than the room left is cut ({@link cutLine}).
 */
export function paginate(lines: Line[], start: number, budget: number, meta: PageMeta, filters: string): Page {
  const header = headerLine(meta, budget);
  // The coverage line is written last; reserve its longest form: every count at its largest, the longest anchor.
  const big = lines.length + meta.dropped;
  let longestHandle = '';
  for (let i = start; i < lines.length; i++) if ((lines[i]!.handle?.length ?? 0) > longestHandle.length) longestHandle = lines[i]!.handle!;
  const worst = coverageLine(meta.visited, big, big - 1, big, big, big, { start: big, after: big, anchor: longestHandle || undefined, filters }, meta.dropped);
  let used = header.length + 1 + worst.length;
  let end = start;
  const body: string[] = [];
  while (end < lines.length) {
    const line = lines[end]!;
    const cost = line.text.length + 1;
    if (used + cost > budget) {
      if (end > start) break;
      const cut = cutLine(line, budget - used - 1);
      body.push(cut);
      used += cut.length + 1;
      end++;
      break;
    }
    body.push(line.text);
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
  const coverage = coverageLine(meta.visited, shown, start, end, lines.length, omitted, cursor, meta.dropped);
  const page: Page = { text: [header, ...body, coverage].join('\n'), shown, end };
  if (cursor) page.cursor = cursor;
  return page;
}
