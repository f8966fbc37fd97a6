// What changed between two outlines of the same document, keyed by handles: the changed and added parts of the new
// outline in the same notation (under a line saying where they go), and the handles that are gone.
// Counterpart: extension/background/snapshot.ts keeps the outlines an agent was given (`since`).
import type { Line } from './render.js';

/**
 * A stretch of the outline that belongs to one handled element: the unhandled lines just before it that hold it, its
 * line, and the lines after it up to the next unit (its own text, cells and unhandled wrappers). Lines before the
 * first unit form the unit `^`.
 */
interface Unit {
  key: string;
  start: number;
  end: number;
  /** The unit's lines with their depths, to compare. */
  sig: string;
}

function units(lines: readonly Line[], limit = lines.length): Unit[] {
  // Where each unit starts: at its handled line, or earlier at the unhandled lines just before it that hold it
  // (a list item around a link belongs to the link's unit, not to the text before it).
  const starts: number[] = [];
  let prevHandled = -1;
  for (let i = 0; i < limit; i++) {
    if (lines[i]!.h === undefined) continue;
    let s = i;
    let depth = lines[i]!.d;
    for (let j = i - 1; j > prevHandled && lines[j]!.d < depth; j--) {
      s = j;
      depth = lines[j]!.d;
    }
    starts.push(s);
    prevHandled = i;
  }
  if (starts[0] !== 0 && limit > 0) starts.unshift(0);
  const out: Unit[] = [];
  const seen = new Map<string, number>();
  for (let u = 0; u < starts.length; u++) {
    const start = starts[u]!;
    const end = u + 1 < starts.length ? starts[u + 1]! : limit;
    if (end <= start) continue;
    const slice = lines.slice(start, end);
    let key = slice.find((l) => l.h !== undefined)?.h ?? '^';
    // An element shows once per outline; a repeat (it should not happen) still gets a key of its own.
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n > 1) key += `#${n}`;
    out.push({ key, start, end, sig: slice.map((l) => `${l.d} ${l.t}`).join('\n') });
  }
  return out;
}

export interface DiffHunk {
  /** `~ in <parent line>, after @h:` — where the lines go in the new outline. */
  where: string;
  /** The new outline's lines, re-indented from depth 1 under the hunk line. */
  lines: Line[];
}

export interface Diff {
  hunks: DiffHunk[];
  /** Handles whose elements are no longer in the outline (and `^` when the lines before the first handle went). */
  removed: string[];
  changed: number;
  added: number;
  /** Characters of the hunks and removal line as written. */
  chars: number;
  /** How many lines of `after` were compared (all, unless `before` covered only the start of the outline). */
  compared: number;
}

/** The line a hunk's position is told by: the nearest earlier line that is an ancestor of line `i` and has a handle. */
function parentOf(lines: readonly Line[], i: number): Line | undefined {
  let depth = lines[i]!.d;
  for (let j = i - 1; j >= 0 && depth > 0; j--) {
    const l = lines[j]!;
    if (l.d < depth) {
      if (l.h) return l;
      depth = l.d;
    }
  }
  return undefined;
}

const WHERE_CHARS = 120;

/**
 * Compares two outlines of one document. `before` is what the agent was given; when it is only the start of the
 * outline (`beforeComplete` false), the comparison stops where it stopped in `after` (after its last handle).
 * A unit of `after` is added when its handle is new, changed when its lines differ or it moved (the unit before it
 * among the shared ones is another); consecutive added and changed units under one parent make one hunk.
 */
export function diffOutlines(before: readonly Line[], after: readonly Line[], beforeComplete: boolean): Diff {
  let limit = after.length;
  if (!beforeComplete) {
    let last: string | undefined;
    for (let i = before.length - 1; i >= 0 && last === undefined; i--) last = before[i]!.h;
    const at = last === undefined ? -1 : after.findIndex((l) => l.h === last);
    limit = at >= 0 ? at + 1 : Math.min(after.length, before.length);
    while (limit < after.length && after[limit]!.h === undefined) limit++;
  }
  const old = units(before);
  const now = units(after, limit);
  const oldBy = new Map(old.map((u) => [u.key, u]));
  const nowKeys = new Set(now.map((u) => u.key));
  // The shared unit before each shared unit, in each outline (moves show as a change of it).
  const prevOld = new Map<string, string>();
  let p = '';
  for (const u of old) {
    if (!nowKeys.has(u.key)) continue;
    prevOld.set(u.key, p);
    p = u.key;
  }
  const status: Array<'same' | 'changed' | 'added'> = [];
  p = '';
  let changed = 0;
  let added = 0;
  for (const u of now) {
    const o = oldBy.get(u.key);
    if (!o) {
      status.push('added');
      added++;
      continue;
    }
    const moved = prevOld.get(u.key) !== p;
    p = u.key;
    if (moved || o.sig !== u.sig) {
      status.push('changed');
      changed++;
    } else status.push('same');
  }
  const hunks: DiffHunk[] = [];
  let chars = 0;
  for (let i = 0; i < now.length; ) {
    if (status[i] === 'same') {
      i++;
      continue;
    }
    // One hunk holds consecutive changed units inside one parent: a unit that starts shallower than the first has left
    // its parent (out of a frame or a list, say) and opens a hunk of its own, so that each hunk's "in" line is true.
    const depth = after[now[i]!.start]!.d;
    let j = i + 1;
    while (j < now.length && status[j] !== 'same' && after[now[j]!.start]!.d >= depth) j++;
    const start = now[i]!.start;
    const end = now[j - 1]!.end;
    const slice = after.slice(start, end);
    const min = Math.min(...slice.map((l) => l.d));
    // The unit just before, among this hunk's siblings (a deeper one is inside a sibling; a shallower one is the parent).
    let prev: string | undefined;
    for (let k = i - 1; k >= 0; k--) {
      const d = after[now[k]!.start]!.d;
      if (d > depth) continue;
      if (d === depth) prev = now[k]!.key.replace(/#\d+$/, '');
      break;
    }
    const parent = parentOf(after, start);
    let where = parent ? `~ in ${parent.t.length > WHERE_CHARS ? parent.t.slice(0, WHERE_CHARS) + '…' : parent.t}` : '~ at the top level';
    where += prev && prev !== '^' && prev !== parent?.h ? `, after @${prev}:` : ', at its start:';
    const lines = slice.map((l) => ({ ...l, d: l.d - min + 1 }));
    chars += where.length + 1 + lines.reduce((c, l) => c + l.d + l.t.length + 1, 0);
    hunks.push({ where, lines });
    i = j;
  }
  const removed = old.filter((u) => !nowKeys.has(u.key) && (beforeComplete || u.start < before.length)).map((u) => u.key.replace(/#\d+$/, ''));
  if (removed.length) chars += removedLine(removed).length + 1;
  return { hunks, removed, changed, added, chars, compared: limit };
}

/** Most handles listed as removed; the rest are counted. */
const MAX_REMOVED = 200;

/** `~ removed: @a.1 @a.2 …` */
export function removedLine(removed: readonly string[]): string {
  const shown = removed.slice(0, MAX_REMOVED).map((k) => (k === '^' ? 'the lines before the first handle' : `@${k}`));
  const more = removed.length > MAX_REMOVED ? ` and ${removed.length - MAX_REMOVED} more` : '';
  return `~ removed: ${shown.join(' ')}${more}`;
}
