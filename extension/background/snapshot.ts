// The snapshot operation in the background: pages of the outline read frame by frame as far as the budget needs
// (./snapshot-reading.ts), cursors that continue the same reading, and `since`: what changed since a snapshot the agent
// has, as a diff keyed by handles. Counterparts: extension/content/snapshot/ (walker, lines), shared/snapshot (model).
import { errorData, OrielError } from '../../shared/errors.js';
import type { ReadyState, SnapshotArgs, SnapshotResult } from '../../shared/ops.js';
import {
  DEFAULT_BUDGET,
  HARD_CAP,
  PAGE_RESERVE,
  anchorOf,
  composePage,
  decodeCursor,
  diffOutlines,
  encodeCursor,
  filterFingerprint,
  filters as hasFilters,
  headerLine,
  lineText,
  removedLine,
  resumeIndex,
  type FilterSpec,
  type Line,
  type WalkFlags,
} from '../../shared/snapshot/index.js';
import { frameOfDocument } from './frames.js';
import { secretParams } from './secret-params.js';
import { scrubUrl } from '../../shared/url-redaction.js';
import { LostPlace, Reading } from './snapshot-reading.js';
import { readSettings, type Settings } from '../settings.js';
import { forgetSeen } from './snapshot-seen.js';
import { navigationUnderWay } from './top-navigations.js';

/** Snapshots kept for cursors and `since`: per tab, and in all. */
const KEEP_PER_TAB = 3;
const KEEP_IN_ALL = 9;
/** Most characters of outline kept per snapshot for `since` (beyond it, `since` gives the whole outline). */
const RECORD_CHARS = 2_000_000;
/** A diff larger than this share of the whole outline is not worth it: the outline is shown instead. */
const DIFF_WORTH = 0.5;
/** Without a deadline from the call (tests), the snapshot gives itself this long, ms. */
const DEFAULT_DEADLINE_MS = 25_000;

/** A snapshot the agent was given: its reading (for its cursor) and the outline lines it showed (for `since`). */
export interface Kept {
  id: string;
  tab: number;
  /** The top document it was read from. */
  document: string;
  filters: string;
  /** The roles it is filtered by (`roles`), if any: a reading where none matched says so. */
  roles?: readonly string[];
  reading: Reading;
  /** Query parameters whose values are scrubbed from the URLs shown (secret fields this tab's GET forms submitted). */
  urlParams: string[];
  /** The lines shown so far, in order; undefined once they passed RECORD_CHARS. */
  record: Line[] | undefined;
  recordChars: number;
  used: number;
}

const kept = new Map<string, Kept>();

function snapshotId(): string {
  return 's' + Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => (b % 36).toString(36)).join('');
}

/** Keeps `k` for cursors and `since` (the oldest of its tab, and of all, make room). */
export function keep(k: Kept): void {
  kept.set(k.id, k);
  const mine = [...kept.values()].filter((x) => x.tab === k.tab).sort((a, b) => a.used - b.used);
  while (mine.length > KEEP_PER_TAB) kept.delete(mine.shift()!.id);
  const all = [...kept.values()].sort((a, b) => a.used - b.used);
  while (all.length > KEEP_IN_ALL) kept.delete(all.shift()!.id);
}

/** Forgets the snapshots of a tab (unshared or closed), and what each caller last saw of it. */
export function forgetSnapshots(tab: number): void {
  for (const [id, k] of kept) if (k.tab === tab) kept.delete(id);
  forgetSeen(tab);
}

/** Snapshot `id` while it is held. */
export function keptSnapshot(id: string): Kept | undefined {
  return kept.get(id);
}

/** The filter fingerprint of snapshot arguments (a cursor or `since` must come with the same). */
function filtersOf(args: SnapshotArgs): string {
  return filterFingerprint([args.root ?? null, args.query ?? null, args.roles ?? null, args.interactive_only ?? false]);
}

/**
 * A new snapshot of `tab` (not yet read or kept) with `args`' root and filters, under a new id.
 * @throws OrielError `unknown_handle` for a root handle no document of the tab issued.
 */
export async function startSnapshot(tab: number, args: SnapshotArgs, settings?: Settings): Promise<Kept> {
  const urlParams = await secretParams(tab);
  const flags = walkFlags(settings ?? (await readSettings()), args, urlParams);
  if (await freshWalks()) flags.fresh = true;
  const reading = new Reading(tab, await startFrameOf(tab, args.root), flags, filterSpec(args));
  return { id: snapshotId(), tab, document: '', filters: filtersOf(args), ...(args.roles?.length && { roles: args.roles }), reading, urlParams, record: [], recordChars: 0, used: Date.now() };
}

/** The public arguments, mapped once to the walker's flags. Redaction comes only from the user's settings. */
function walkFlags(settings: Settings, args: SnapshotArgs, urlParams: string[]): WalkFlags {
  const flags: WalkFlags = {
    redactSelectors: settings.redactSelectors,
    valueLimit: settings.valueLimit,
    nameLimit: 300,
    textLimit: 2000,
    maxNodes: 100_000,
    maxDepth: 40,
  };
  if (args.root) flags.root = args.root;
  // Link URLs resolve against the page's own URL (`#top`), which a GET form may have filled with secret values.
  if (urlParams.length) flags.urlParams = urlParams;
  if (args.roles?.length) flags.lineRoles = true;
  if (args.query?.trim()) flags.lineSearch = true;
  return flags;
}

/**
 * Whether snapshots read every element afresh, reusing no reading of an earlier one: a diagnostic switch in the
 * extension's local storage (`freshWalks: true`), which only the extension's own pages can set. The randomized test
 * of reuse (test/e2e/snapshot-reuse-*.test.ts) compares warm outlines with fresh ones through it; no agent can.
 */
async function freshWalks(): Promise<boolean> {
  return (await chrome.storage.local.get('freshWalks')).freshWalks === true;
}

function filterSpec(args: SnapshotArgs): FilterSpec | undefined {
  const spec: FilterSpec = {};
  if (args.query) spec.query = args.query;
  if (args.roles) spec.roles = args.roles;
  if (args.interactive_only) spec.interactiveOnly = true;
  return hasFilters(spec) ? spec : undefined;
}

/** The frame whose document issued the root handle (the top frame without one). */
async function startFrameOf(tab: number, root: string | undefined): Promise<number> {
  if (!root) return 0;
  const f = await frameOfDocument(tab, root.slice(0, root.indexOf('.')));
  if (f === undefined) {
    throw new OrielError(errorData('unknown_handle', `Handle ${root} was not issued by any document now shown in this tab (it is from a previous page, another tab, or made up). Take a new snapshot.`));
  }
  return f;
}

/**
 * The snapshot operation (shared/ops.ts SnapshotArgs → SnapshotResult). `deadline`: the call's absolute deadline, ms
 * since the epoch; a page that cannot be filled in time is returned shorter, with a cursor for the rest.
 * @throws OrielError `invalid_argument` for a cursor of other filters or both `cursor` and `since`; `unknown_handle`
 *   for a root handle no document of the tab issued; the top frame's errors.
 */
export async function snapshotTab(tab: number, args: SnapshotArgs, deadline = Date.now() + DEFAULT_DEADLINE_MS): Promise<SnapshotResult> {
  const t0 = performance.now();
  const out = await snapshotOf(tab, args, deadline);
  return { ...out, timing: { ...out.timing!, browser_ms: Math.round((performance.now() - t0) * 10) / 10 } };
}

async function snapshotOf(tab: number, args: SnapshotArgs, deadline: number): Promise<SnapshotResult> {
  const settings = await readSettings();
  const budget = Math.min(args.max_chars ?? DEFAULT_BUDGET, HARD_CAP);
  const filters = filtersOf(args);
  if (args.cursor !== undefined && args.since !== undefined) {
    throw new OrielError(errorData('invalid_argument', 'Give either cursor (to continue a snapshot) or since (to see what changed), not both.', { next: 'snapshot' }));
  }
  const fresh = () => startSnapshot(tab, args, settings);

  if (args.cursor !== undefined) {
    const cursor = decodeCursor(args.cursor);
    if (!cursor || cursor.filters !== filters) {
      throw new OrielError(errorData('invalid_argument', 'This cursor does not belong to a snapshot with these arguments. Call snapshot again with the same root, query, roles and interactive_only as the snapshot that returned the cursor, or without a cursor.', { next: 'snapshot' }));
    }
    const k = kept.get(cursor.snapshot);
    if (k && k.tab === tab && k.reading.shown === cursor.start) {
      try {
        return await page(k, budget, deadline, []);
      } catch (err) {
        if (!(err instanceof LostPlace)) throw err;
      }
    }
    // The reading is gone (or its place in the page is): read afresh and resume after the cursor's anchor.
    const k2 = await fresh();
    k2.id = cursor.snapshot;
    k2.record = undefined;
    let found = false;
    for (;;) {
      await k2.reading.fill(k2.reading.readyChars + 200_000, deadline);
      const at = resumeIndex(k2.reading.ready, cursor, k2.reading.readAll);
      if (at !== undefined) {
        found = cursor.anchor !== undefined && k2.reading.ready.some((l) => l.h === cursor.anchor);
        k2.reading.skipTo(at);
        break;
      }
      if (Date.now() > deadline - 1_500) throw new OrielError(errorData('timeout', 'The page changed since the previous page of this snapshot and Oriel could not find its place again in time. Take a new snapshot.', { next: 'snapshot' }));
    }
    k2.reading.changed = true;
    k2.document = k2.reading.top.document;
    const where = found ? `after @${cursor.anchor}` : `at line ${cursor.start + 1}${cursor.anchor ? ` (@${cursor.anchor} is gone)` : ''}`;
    return page(k2, budget, deadline, [`note: continued ${where}, read afresh: the page changed where the previous page stopped, or Oriel no longer held that snapshot`], 0);
  }

  const k = await fresh();
  if (args.since === undefined) return page(k, budget, deadline, []);
  return since(k, args.since, budget, deadline);
}

/**
 * The note for custom elements whose ElementInternals Oriel could not read: its page script reached their document
 * after the page's own scripts (docs/architecture.md, "What a page can see").
 */
const INTERNALS_UNKNOWN_NOTE =
  "note: this page loaded before Oriel's page script reached it (shared after loading, or from another site): roles, names and states its custom elements set through ElementInternals are not shown; reload the tab to read them";

/** Shows the next page of `k`'s outline: header, notes, as many lines as fit, coverage, and a cursor for the rest. */
async function page(k: Kept, budget: number, deadline: number, notes: string[], contentBefore = k.reading.contentMs): Promise<SnapshotResult> {
  const r = k.reading;
  k.used = Date.now();
  // At least one line: a page always shows one, cut if it must be.
  await r.fill(Math.max(1, budget - 300 - PAGE_RESERVE), deadline);
  if (!k.document) k.document = r.top.document;
  const loading = loadingNote(r.top.ready_state);
  if (loading) notes = [loading, ...notes];
  if (r.lateModal) notes = [...notes, 'note: a modal dialog was found after the first lines were read; controls outside it shown before are not marked inert'];
  if (r.internalsUnknown) notes = [...notes, INTERNALS_UNKNOWN_NOTE];
  const none = noRoleNote(k);
  if (none) notes = [...notes, none];
  const leaving = leavingNote(k.tab);
  if (leaving) notes = [leaving, ...notes];
  const p = composePage({
    meta: { ...shownTop(k), snapshot: k.id },
    notes,
    ready: r.ready,
    first: r.shown,
    budget,
    visited: r.visited,
    readAll: r.readAll,
    dropped: r.dropped,
    changed: r.changed && r.shown > 0,
    filters: k.filters,
  });
  r.take(p.taken);
  record(k, p.lines);
  keep(k);
  const result: SnapshotResult = {
    snapshot: k.id,
    document: r.top.document,
    url: shownTop(k).url,
    title: r.top.title,
    ...(r.top.ready_state !== 'complete' ? { loading: r.top.ready_state } : {}),
    text: p.text,
    coverage: { visited: r.visited, shown: p.lines.length, omitted: p.coverage.omitted, truncated: p.cursor !== undefined || r.dropped > 0, read_all: r.readAll },
    timing: { content_ms: contentMs(r, contentBefore), browser_ms: 0 },
  };
  if (p.cursor) result.cursor = encodeCursor(p.cursor);
  return result;
}

/**
 * The note for a tab whose top frame is loading another page: the outline is of the page it still shows. Where it
 * goes is not said (the person may be the one navigating, to a site no agent was granted).
 */
function leavingNote(tab: number): string | undefined {
  const ms = navigationUnderWay(tab);
  if (ms === undefined) return undefined;
  return `note: the tab is loading another page (for ${ms < 10_000 ? 'a few seconds' : `${Math.floor(ms / 10_000) * 10} s and more`}): this outline is of the page it still shows, which it leaves when that one arrives; wait_for what you need, or snapshot again`;
}

/**
 * The note for a reading filtered by roles in which no element had any of them: the whole page was read and nothing
 * is shown, most often because a role was misspelt or is not one the outline writes.
 */
function noRoleNote(k: Kept): string | undefined {
  const r = k.reading;
  if (!k.roles || !r.readAll || r.shown > 0 || r.ready.length > 0) return undefined;
  const asked = k.roles.slice(0, 8).map((role) => JSON.stringify(role.slice(0, 40))).join(', ');
  return `note: no element on the page has the role ${asked}; roles are named as the outline writes them (button, link, textbox, checkbox, combobox, heading, …): snapshot without roles to see them`;
}

/**
 * A note for a top document that has not finished loading (`document.readyState`, HTML "current document readiness"):
 * while it is "loading" the parser has not reached the end, so the outline may stop early; while "interactive" the
 * DOM is whole but the load event has not fired (images, frames and scripts may still change it).
 */
function loadingNote(state: ReadyState): string | undefined {
  if (state === 'loading') return 'note: the document is still loading (the parser has not reached its end): this outline may be incomplete; wait_for what you need, or snapshot again';
  if (state === 'interactive') return 'note: the document is still loading (parsed, but its load event has not fired): parts may still change';
  return undefined;
}

/** The top frame's document, title and URL as shown: without the values of secret query parameters. */
export function shownTop(k: Kept): { document: string; url: string; title: string } {
  const top = k.reading.top;
  return k.urlParams.length ? { ...top, url: scrubUrl(top.url, k.urlParams) } : top;
}

function contentMs(r: Reading, before: number): number {
  return Math.round((r.contentMs - before) * 10) / 10;
}

/** Whether `k`'s lines shown so far are its whole outline (read to the end, every line given). */
export function shownWhole(k: Kept): boolean {
  return k.reading.readAll && k.reading.ready.length === 0 && k.record !== undefined && k.record.length === k.reading.shown;
}

/** Adds shown lines to what `since` compares against (while it stays within RECORD_CHARS). */
export function record(k: Kept, lines: readonly Line[]): void {
  if (!k.record) return;
  for (const l of lines) {
    k.recordChars += l.d + l.t.length + 1;
    k.record.push(l);
  }
  if (k.recordChars > RECORD_CHARS) k.record = undefined;
}

/**
 * `since`: reads the whole outline again and shows what changed since snapshot `sinceId` as hunks of new lines keyed by
 * handles and a list of removed handles; the whole outline (paged) when there is no such snapshot of this document
 * with these filters, or when the diff would not be much shorter than the outline.
 */
async function since(k: Kept, sinceId: string, budget: number, deadline: number): Promise<SnapshotResult> {
  const before = kept.get(sinceId);
  const r = k.reading;
  await r.fill(Number.MAX_SAFE_INTEGER, deadline);
  k.document = r.top.document;
  let reason: string | undefined;
  if (!before || before.tab !== k.tab) reason = `snapshot ${sinceId} is not held (Oriel keeps the last ${KEEP_PER_TAB} of each tab)`;
  else if (before.document !== k.document) reason = 'a new document is shown';
  else if (before.filters !== k.filters) reason = `snapshot ${sinceId} was taken with other root, query, roles or interactive_only`;
  else if (!before.record) reason = `snapshot ${sinceId} was too large to keep`;
  else if (!r.readAll) reason = 'the page could not be read to the end in time';
  const changes = { since: sinceId, changed: 0, added: 0, removed: 0 };
  if (reason === undefined) {
    const all = r.ready;
    const d = diffOutlines(before!.record!, all, shownWhole(before!));
    const total = r.readyChars;
    const room = budget - headerLine({ ...shownTop(k), snapshot: k.id }, budget).length - PAGE_RESERVE - 200;
    if (d.chars > room || (d.chars > DIFF_WORTH * total && total > 2_000)) reason = `the change is too large for a diff (${d.chars} characters of ${total})`;
    else {
      const summary = d.changed + d.added + d.removed.length === 0 ? 'none' : `${d.changed} changed, ${d.added} added, ${d.removed.length} removed`;
      const loading = loadingNote(r.top.ready_state);
      const body = [...(loading ? [loading] : []), `changes since ${sinceId}: ${summary}`];
      for (const h of d.hunks) body.push(h.where, ...h.lines.map(lineText));
      if (d.removed.length) body.push(removedLine(d.removed));
      // What the agent now knows: the new outline as far as the comparison went.
      const known = r.take(d.compared);
      k.record = [];
      k.recordChars = 0;
      record(k, known);
      const more = r.ready.length > 0;
      let cov = `coverage: ${r.visited} visited, diff of ${d.compared} lines`;
      if (more) {
        const a = anchorOf(known);
        const cursor = encodeCursor({ snapshot: k.id, start: r.shown, after: a.after, filters: k.filters, ...(a.anchor ? { anchor: a.anchor } : {}) });
        cov += ` (what ${sinceId} covered) of ${r.shown + r.ready.length}, truncated; continue with cursor="${cursor}"`;
        keep(k);
        return result(k, [headerLine({ ...shownTop(k), snapshot: k.id }, budget), ...body, cov].join('\n'), { ...changes, changed: d.changed, added: d.added, removed: d.removed.length }, 'diff', cursor);
      }
      cov += ', complete';
      keep(k);
      return result(k, [headerLine({ ...shownTop(k), snapshot: k.id }, budget), ...body, cov].join('\n'), { ...changes, changed: d.changed, added: d.added, removed: d.removed.length }, 'diff');
    }
  }
  const out = await page(k, budget, deadline, [`changes since ${sinceId}: the whole outline follows (${reason})`], 0);
  out.changes = { ...changes, shown_as: 'outline', reason };
  return out;
}

function result(k: Kept, text: string, changes: { since: string; changed: number; added: number; removed: number }, shownAs: 'diff', cursor?: string): SnapshotResult {
  const r = k.reading;
  const out: SnapshotResult = {
    snapshot: k.id,
    document: r.top.document,
    url: shownTop(k).url,
    title: r.top.title,
    ...(r.top.ready_state !== 'complete' ? { loading: r.top.ready_state } : {}),
    text,
    coverage: { visited: r.visited, shown: 0, omitted: r.ready.length + r.dropped, truncated: cursor !== undefined, read_all: r.readAll },
    changes: { ...changes, shown_as: shownAs },
    timing: { content_ms: contentMs(r, 0), browser_ms: 0 },
  };
  if (cursor) out.cursor = cursor;
  return out;
}
