// What an action changed, for its result: the page is read again as far as the caller's last snapshot went, with the
// same root and filters, and compared with what the caller saw (shared/snapshot/diff.ts); the diff becomes what the
// caller has seen. A navigation, another document, a change too large to show, or a page that cannot be read in time
// gives a one-line note instead (docs/tools.md, "Results"). Counterparts: ./snapshot.ts, ./snapshot-seen.ts.
import { ACTION_DIFF_CHARS, type ActionChanges } from '../../shared/action-changes.js';
import { OrielError } from '../../shared/errors.js';
import { diffOutlines, lineText, removedLine, type Line } from '../../shared/snapshot/index.js';
import type { OpArgs, OpResult } from '../../shared/ops.js';
import type { Settings } from '../settings.js';
import { commitCount } from './frames.js';
import { keep, record, shownWhole, startSnapshot, type Kept } from './snapshot.js';
import { LostPlace } from './snapshot-reading.js';
import { noteSeen, seenBy, type Seen, type SeenArgs } from './snapshot-seen.js';

/** Longest a comparison may read the page, ms (within what is left of the action's deadline). */
const READ_BUDGET_MS = 4_000;
/** Time kept free before the action's deadline, ms. */
const DEADLINE_LEAD_MS = 1_000;
/**
 * Most characters of what the caller saw that are compared (one snapshot page at the hard cap): an agent that once
 * followed the cursor through a huge outline would otherwise pay for reading all of it again on every action.
 */
const COMPARE_CHARS = 200_000;

/** What `caller` now knows of `tab` after being shown snapshot `k` (read with `args`). */
export function noteShown(k: Kept, caller: string, args: SeenArgs): void {
  // A copy: pages of the same snapshot that others read later (its cursor) grow the record, not what this caller saw.
  const lines = k.record && [...k.record];
  let chars = 0;
  if (lines) for (const l of lines) chars += l.d + l.t.length + 1;
  noteSeen({ id: k.id, tab: k.tab, caller, document: k.document, args, lines, whole: lines !== undefined && shownWhole(k), chars, frames: k.reading.metFrames });
}

/** `seen` cut to its first lines within `chars` characters: the start of an outline. */
function startOf(seen: Seen, chars: number): Seen {
  const lines = seen.lines!;
  let n = 0;
  let used = 0;
  for (; n < lines.length; n++) {
    const size = lines[n]!.d + lines[n]!.t.length + 1;
    if (used + size > chars) break;
    used += size;
  }
  return { ...seen, lines: lines.slice(0, n), whole: false, chars: used };
}

/** The last handle among `lines`. */
function lastHandle(lines: readonly Line[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.h !== undefined) return lines[i]!.h;
  return undefined;
}

/**
 * Reads `k` until it holds as much of the outline as `before` covered: the whole page when `before` was whole, else
 * up to the line after `before`'s last handle (a handled line, so the lines after that handle are complete), or
 * about twice as many characters when that handle is gone; or until the lines show another document. False when the
 * page could not be read that far in time.
 */
async function readAsFar(k: Kept, before: Seen, deadline: number): Promise<boolean> {
  const r = k.reading;
  const last = before.whole ? undefined : lastHandle(before.lines!);
  const enough = before.chars * 2 + 20_000;
  for (;;) {
    if (r.readAll) return true;
    if (!before.whole) {
      if (r.readyChars > enough) return true;
      const at = last === undefined ? -1 : r.ready.findIndex((l) => l.h === last);
      if (at >= 0 && r.ready.some((l, i) => i > at && l.h !== undefined)) return true;
    }
    const had = r.readyChars;
    // As much as was seen and a little more (the line after its last handle), in one answer where the frame allows.
    await r.fill(r.readyChars + Math.max(firstRoom(before) - r.readyChars, 8_000), deadline, 0);
    // Another document: the caller will be told so, without reading it further.
    if (r.top.document !== before.document) return true;
    if (Date.now() >= deadline || (r.readyChars === had && !r.readAll)) return false;
  }
}

/** What an action's comparison starts from: what the caller saw, as far as it is compared. */
function baseOf(seen: Seen): Seen {
  return seen.lines && seen.chars > COMPARE_CHARS ? startOf(seen, COMPARE_CHARS) : seen;
}

/** Characters of lines the first answer of a comparison's reading is asked for: as much as was seen, and a little more. */
function firstRoom(before: Seen): number {
  return Math.max(before.chars + 2_000, 8_000);
}

/**
 * A comparison begun before its action: a new snapshot of the tab whose first lines the action's own message to its
 * frame asks for, read right after the action in the same exchange (shared/call.ts `then_read`), sparing a round trip.
 */
export interface BegunComparison {
  /** What the caller had seen when the action was sent (the comparison is with it, if it is still what it saw). */
  seen: Seen;
  k: Kept;
  /** The arguments of the frame's first `snapshot.lines`, to send with the action. */
  ask: OpArgs<'snapshot.lines'>;
  /** The frame's count of committed documents when the action was sent (./frames.ts `commitCount`). */
  commits: number;
}

/**
 * Begins the comparison for an action that `caller` sends to frame `frame` of `tab`, when its reading can start there
 * in the same exchange: the caller saw the tab, its view is kept, the outline starts in that frame (the top frame) and
 * met no iframe last time. Undefined otherwise (the comparison then reads after the action). Never throws.
 */
export async function beginComparison(tab: number, caller: string, frame: number, settings: Settings): Promise<BegunComparison | undefined> {
  const seen = seenBy(tab, caller);
  if (!seen?.lines || seen.frames || frame !== 0) return undefined;
  try {
    const k = await startSnapshot(tab, seen.args, settings);
    if (k.reading.startFrame !== frame) return undefined;
    return { seen, k, ask: k.reading.firstAsk(firstRoom(baseOf(seen))), commits: commitCount(tab, frame) };
  } catch {
    return undefined;
  }
}

/** The snapshot a comparison reads: the begun one, fed the lines its action's exchange brought, or a new one. */
async function comparisonSnapshot(tab: number, before: Seen, settings: Settings, begun: { comparison: BegunComparison; read?: OpResult<'snapshot.lines'> } | undefined): Promise<Kept> {
  // The frame committed another document meanwhile: what was read may be of the one before, so it is read again.
  const c = begun?.comparison;
  if (c && begun.read && c.commits === commitCount(tab, c.k.reading.startFrame) && c.k.reading.seed(begun.read)) return c.k;
  return startSnapshot(tab, before.args, settings);
}

/**
 * The changes since what `caller` last saw of `tab`, or undefined when it saw nothing of it (no snapshot this session,
 * or Oriel no longer holds it). `navigating`: the action reported a navigation it started. `deadline`: the action's,
 * ms since the epoch. `begun`: the comparison {@link beginComparison} began with the action, and the lines the action's
 * exchange brought, if any. Never throws: a failure to compare is a note (the action itself was done).
 */
export async function changesSinceSeen(
  tab: number,
  caller: string,
  options: { navigating: boolean; deadline: number; settings: Settings; begun?: { comparison: BegunComparison; read?: OpResult<'snapshot.lines'> } | undefined },
): Promise<ActionChanges | undefined> {
  const seen = seenBy(tab, caller);
  if (!seen) return undefined;
  const before = baseOf(seen);
  // The comparison begun with the action counts only if it began from what the caller still has seen.
  const begun = options.begun?.comparison.seen === seen ? options.begun : undefined;
  // What the action's exchange read counts as the comparison's time too.
  const readBefore = begun?.read && !('lost' in begun.read) ? begun.read.ms : 0;
  const t0 = performance.now();
  const note = (reason: NonNullable<ActionChanges['reason']>, why: string): ActionChanges => ({
    since: before.id,
    shown_as: 'note',
    changed: 0,
    added: 0,
    removed: 0,
    reason,
    text: `changes since ${before.id}: not shown, ${why}`,
  });
  if (options.navigating) return note('navigating', 'the action started a navigation: take a snapshot once the page has loaded');
  if (!before.lines) return note('not_kept', `what ${before.id} showed is not kept for comparison (too large, or continued after the page changed): take a snapshot`);
  const deadline = Math.min(options.deadline - DEADLINE_LEAD_MS, Date.now() + READ_BUDGET_MS);
  let k: Kept;
  try {
    k = await comparisonSnapshot(tab, before, options.settings, begun);
    // One answer from the frame usually holds all that was seen; its first lines tell which document the tab shows.
    const read = await readAsFar(k, before, deadline);
    if (k.reading.top.document !== before.document) {
      return note('new_document', `the tab now shows another document (doc=${k.reading.top.document || 'unknown'}): take a snapshot, a diff would be the whole page`);
    }
    if (!read) return note('not_read', 'the page could not be read again in time: take a snapshot');
  } catch (err) {
    // The frame's reading went with its document: the tab moved on while it was read.
    if (err instanceof LostPlace || (err instanceof OrielError && err.data.code === 'stale_document')) {
      return note('new_document', 'the tab went on to another document while it was read: take a snapshot');
    }
    // The snapshot's root element is gone (the action removed or replaced it): its `detached` error speaks of a call
    // that did nothing, which is not this one's story.
    if (err instanceof OrielError && err.data.code === 'detached') {
      return note('not_read', `the element the last snapshot was rooted at (${before.args.root ?? 'its root'}) is gone from the page: take a snapshot`);
    }
    const why = err instanceof OrielError ? err.data.message : 'the page could not be read again';
    return note('not_read', `${why.replace(/\s+/g, ' ').slice(0, 300)} Take a snapshot.`);
  }
  const r = k.reading;
  k.document = r.top.document;
  const d = diffOutlines(before.lines, r.ready, before.whole);
  if (d.chars > ACTION_DIFF_CHARS) {
    return note('too_large', `the change is too large to show here (${d.chars} characters of diff; up to ${ACTION_DIFF_CHARS} are shown): take a snapshot (since=${before.id} gives only the changes)`);
  }
  const counts = { changed: d.changed, added: d.added, removed: d.removed.length };
  const summary = counts.changed + counts.added + counts.removed === 0 ? 'none' : `${counts.changed} changed, ${counts.added} added, ${counts.removed} removed`;
  const lines = [`changes since ${before.id}, now snapshot=${k.id}: ${summary}`];
  for (const h of d.hunks) lines.push(h.where, ...h.lines.map(lineText));
  if (d.removed.length) lines.push(removedLine(d.removed));
  // What the caller now knows: the new outline as far as the comparison went; the next action compares with it.
  k.record = [];
  k.recordChars = 0;
  record(k, r.take(d.compared));
  keep(k);
  noteShown(k, caller, before.args);
  const timing = { content_ms: Math.round(r.contentMs * 10) / 10, browser_ms: Math.round((performance.now() - t0 + readBefore) * 10) / 10 };
  return { since: before.id, shown_as: 'diff', snapshot: k.id, ...counts, timing, text: lines.join('\n') };
}
