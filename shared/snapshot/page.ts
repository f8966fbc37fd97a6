// Pages of the outline: the header and coverage lines, how many lines fit a character budget, and the cursor that
// continues a snapshot. Counterpart: extension/background/snapshot.ts, which reads the lines frame by frame.
import { lineText, type Line } from './render.js';
import { cap, capMarker, escapeBare, quote } from './escape.js';

/** Default and maximum character budgets of one snapshot page (docs/architecture.md, "Snapshot"). */
export const DEFAULT_BUDGET = 24_000;
export const HARD_CAP = 200_000;
/** Characters kept free on every page for the coverage line and any note after the header. */
export const PAGE_RESERVE = 200;

export interface PageMeta {
  title: string;
  url: string;
  /** The top frame's document id. */
  document: string;
  /** This snapshot's id (what `since` names). */
  snapshot: string;
}

/** Where a snapshot continues: the snapshot, the index of the next line, and an anchor in case its place is lost. */
export interface Cursor {
  /** The snapshot the cursor continues. */
  snapshot: string;
  /** Index of the first line of the next page. */
  start: number;
  /** Handle of the last line with a handle on the previous page, and how many lines after it were shown. */
  anchor?: string;
  after: number;
  /** Fingerprint of the filters the cursor was made with. */
  filters: string;
}

/** Snapshot ids: `s` and random base-36 characters. */
export const SNAPSHOT_ID = /^s[a-z0-9]{4,12}$/;

/** A short fingerprint of filter arguments, so a cursor is not reused with other filters. */
export function filterFingerprint(parts: unknown): string {
  const s = JSON.stringify(parts ?? null);
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

export function encodeCursor(c: Cursor): string {
  return `${c.snapshot}~${c.start}~${c.anchor ?? ''}~${c.after}~${c.filters}`;
}

/** Parses a cursor; undefined when it is not one of ours. */
export function decodeCursor(text: string): Cursor | undefined {
  const m = /^(s[a-z0-9]{4,12})~(\d{1,9})~([a-z0-9.]{0,40})~(\d{1,9})~([a-z0-9]{1,10})$/.exec(text);
  if (!m) return undefined;
  const c: Cursor = { snapshot: m[1]!, start: Number(m[2]), after: Number(m[4]), filters: m[5]! };
  if (m[3]) c.anchor = m[3];
  return c;
}

/**
 * Where a cursor resumes in lines read afresh (its snapshot's place was lost): just after its anchor when the anchor
 * is among them, else at the line index. `undefined` while the anchor may still come (more lines to read).
 */
export function resumeIndex(lines: readonly Line[], c: Cursor, complete: boolean): number | undefined {
  if (c.anchor !== undefined) {
    const at = lines.findIndex((l) => l.h === c.anchor);
    if (at >= 0) return Math.min(lines.length, at + 1 + c.after);
    if (!complete) return undefined;
  }
  return Math.min(lines.length, c.start);
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
 * The header line: `page "<title>" <url> doc=<id> snapshot=<id>`. With a `budget`, the title and URL are capped (with
 * a `…(+N)` marker) to shares of it, so that the header leaves room for the outline whatever the page's title and URL.
 */
export function headerLine(meta: PageMeta, budget?: number): string {
  const ids = `doc=${meta.document} snapshot=${meta.snapshot}`;
  if (budget === undefined) return `page ${quote(meta.title)} ${escapeBare(meta.url)} ${ids}`;
  const titleRoom = Math.max(24, Math.floor(budget * TITLE_SHARE));
  const urlRoom = Math.max(40, Math.floor(budget * URL_SHARE));
  const title = (n: number) => quote(cap(meta.title, n));
  const url = (n: number) => escapeBare(cap(meta.url, n));
  return `page ${title(largestFitting(meta.title.length, titleRoom, title))} ${url(largestFitting(meta.url.length, urlRoom, url))} ${ids}`;
}

/**
 * A line too long for the room left on its page, cut to at most `room` characters with its indentation: never inside
 * an escape, a quote left open is closed, then the `…(+N)` marker and, when the cut removed it, the line's handle (so
 * it can still be acted on).
 */
export function cutLine(line: Line, room: number): Line {
  const text = line.t;
  const width = room - line.d;
  const tail = line.h && text.endsWith(` @${line.h}`) ? ` @${line.h}` : '';
  const limit = width - capMarker(text.length).length - 1 - tail.length; // 1: a closing quote
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
  const t = tail && cut.length + tail.length <= width ? cut + tail : cut.length <= width ? cut : cut.slice(0, Math.max(0, width));
  return { ...line, t };
}

/**
 * How many of `lines` (from the first) fit in `budget` characters with their newlines; at least one (a first line
 * longer than the budget is to be shown cut: {@link cutLine}).
 */
export function fitLines(lines: readonly Line[], budget: number): number {
  let used = 0;
  let n = 0;
  while (n < lines.length) {
    const cost = lines[n]!.d + lines[n]!.t.length + 1;
    if (used + cost > budget && n > 0) break;
    used += cost;
    n++;
  }
  return n;
}

/** The last handled line among `lines`, as a cursor anchor: its handle and how many lines follow it. */
export function anchorOf(lines: readonly Line[]): { anchor?: string; after: number } {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.h) return { anchor: lines[i]!.h!, after: lines.length - 1 - i };
  return { after: lines.length };
}

/** What the coverage line reports about one page. */
export interface PageCoverage {
  /** DOM nodes looked at so far, over every frame read. */
  visited: number;
  /** Index of the page's first line, and how many it shows. */
  first: number;
  shown: number;
  /** Lines known to follow (read but not shown), plus nodes dropped at the node limit. */
  omitted: number;
  /** Whether the whole page has been read; when it has, `total` lines make the outline. */
  readAll: boolean;
  total: number;
  dropped: number;
  cursor?: string;
  /** The page changed since the snapshot's first page was read. */
  changed?: boolean;
}

/** `coverage: …` — what was read, what is shown, what is known to remain, and how to continue. */
export function coverageLine(c: PageCoverage): string {
  let s = `coverage: ${c.visited} visited, ${c.shown} shown`;
  const last = c.first + c.shown;
  if (!c.readAll) s += ` (lines ${c.first + 1}-${last}), more not yet read`;
  else {
    if (c.first > 0 || last < c.total) s += ` (lines ${c.first + 1}-${last} of ${c.total})`;
    s += `, ${c.omitted} omitted`;
  }
  if (c.changed) s += ', the page changed while it was read';
  if (c.cursor) s += `, truncated; continue with cursor="${c.cursor}"`;
  else if (c.dropped) s += ', truncated at the node limit';
  else s += ', complete';
  return s;
}

/**
 * The longest form the coverage line of a page could take, to keep its room before the page is filled: every count at
 * `big`, the longest anchor among `lines`, every clause present.
 */
export function coverageReserve(visited: number, big: number, lines: readonly Line[], snapshot: string, filters: string): number {
  let anchor = '';
  for (const l of lines) if ((l.h?.length ?? 0) > anchor.length) anchor = l.h!;
  const cursor = encodeCursor({ snapshot, start: big, after: big, filters, ...(anchor ? { anchor } : {}) });
  const common = { visited, first: big - 1, shown: big, omitted: big, total: big * 2, dropped: big, cursor, changed: true };
  return Math.max(coverageLine({ ...common, readAll: true }).length, coverageLine({ ...common, readAll: false }).length);
}


/** What one page is made of: the outline's state where the page starts. */
export interface PageInput {
  meta: PageMeta;
  /** Lines after the header (notes), written as they are. */
  notes: readonly string[];
  /** Lines read and not yet shown, from the page's first line on. */
  ready: readonly Line[];
  /** Index in the outline of `ready[0]`. */
  first: number;
  budget: number;
  visited: number;
  /** Whether the whole page has been read (then `ready` is all that is left). */
  readAll: boolean;
  dropped: number;
  /** The page changed while it was read. */
  changed: boolean;
  filters: string;
}

export interface ComposedPage {
  text: string;
  /** How many of `ready` the page shows (the last possibly cut). */
  taken: number;
  lines: Line[];
  /** The cursor to the rest, when there is a rest. */
  cursor?: Cursor;
  coverage: PageCoverage;
}

/**
 * One page of the outline within `budget` characters, header and coverage line included: the text never exceeds it.
 * The header is capped to shares of the budget, the coverage line's longest form is kept free, whole lines fill the
 * rest; a first line longer than the room left is shown cut ({@link cutLine}), so a page always shows a line.
 */
export function composePage(p: PageInput): ComposedPage {
  const header = headerLine(p.meta, p.budget);
  const big = Math.max(p.visited, p.first + p.ready.length + p.dropped) * 10 + 10;
  const reserve = coverageReserve(p.visited, big, p.ready, p.meta.snapshot, p.filters);
  const room = Math.max(1, p.budget - header.length - 1 - p.notes.reduce((c, n) => c + n.length + 1, 0) - reserve - 1);
  const taken = p.ready.length ? fitLines(p.ready, room) : 0;
  const lines = p.ready.slice(0, taken);
  if (lines.length === 1 && lines[0]!.d + lines[0]!.t.length + 1 > room) lines[0] = cutLine(lines[0]!, room - 1);
  const more = !p.readAll || taken < p.ready.length;
  const coverage: PageCoverage = {
    visited: p.visited,
    first: p.first,
    shown: lines.length,
    omitted: p.ready.length - taken + p.dropped,
    readAll: p.readAll,
    total: p.first + p.ready.length,
    dropped: p.dropped,
    changed: p.changed,
  };
  const out: ComposedPage = { text: '', taken, lines, coverage };
  if (more) {
    const a = anchorOf(lines);
    out.cursor = { snapshot: p.meta.snapshot, start: p.first + taken, after: a.after, filters: p.filters, ...(a.anchor ? { anchor: a.anchor } : {}) };
    coverage.cursor = encodeCursor(out.cursor);
  }
  out.text = [header, ...p.notes, ...lines.map(lineText), coverageLine(coverage)].join('\n');
  return out;
}
