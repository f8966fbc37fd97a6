// What each caller (one MCP client connection) last saw of each shared tab's outline: the lines of its last snapshot,
// `since` diff or action diff. An action's result compares the page with them (./action-changes.ts), so two agents on
// one tab each get the changes since what they themselves saw (docs/tools.md, "Results"). Held in memory, bounded.
import type { SnapshotArgs } from '../../shared/ops.js';
import type { Line } from '../../shared/snapshot/index.js';

/** The root and filters a snapshot was read with: a comparison reads the page the same way. */
export type SeenArgs = Pick<SnapshotArgs, 'root' | 'query' | 'roles' | 'interactive_only'>;

/** One caller's last view of one tab's outline. */
export interface Seen {
  /** The snapshot the lines belong to (what `snapshot(since=…)` would name). */
  id: string;
  tab: number;
  /** The caller's id (shared/call.ts `Caller.id`). */
  caller: string;
  /** The top document the lines were read from. */
  document: string;
  args: SeenArgs;
  /** The lines shown, in order; undefined when they were too many to keep (extension/background/snapshot.ts). */
  lines: readonly Line[] | undefined;
  /** True when the lines are the whole outline, false when they are its start (a page cut at its budget). */
  whole: boolean;
  /** Characters of the lines (indentation and newline included). */
  chars: number;
  /** The reading the lines came from met an iframe (a comparison must then introduce the frames before it reads). */
  frames: boolean;
  used: number;
}

/** Callers remembered per tab, in all, and characters of lines held in all (the least recently used go first). */
const PER_TAB = 4;
const IN_ALL = 32;
const CHARS_IN_ALL = 8_000_000;

const seen = new Map<string, Seen>();

const keyOf = (tab: number, caller: string) => `${tab} ${caller}`;

/** Records what `caller` was just shown of `tab`, replacing what it saw before. */
export function noteSeen(view: Omit<Seen, 'used'>): void {
  const key = keyOf(view.tab, view.caller);
  seen.delete(key);
  seen.set(key, { ...view, used: Date.now() });
  // Map order is insertion order: the first entries are the least recently noted.
  const ofTab = [...seen.entries()].filter(([, s]) => s.tab === view.tab);
  while (ofTab.length > PER_TAB) seen.delete(ofTab.shift()![0]);
  let chars = 0;
  for (const s of seen.values()) chars += s.lines ? s.chars : 0;
  for (const [k, s] of seen) {
    if (seen.size <= IN_ALL && chars <= CHARS_IN_ALL) break;
    if (k === key) continue;
    seen.delete(k);
    chars -= s.lines ? s.chars : 0;
  }
}

/** What `caller` last saw of `tab`, if Oriel still holds it. */
export function seenBy(tab: number, caller: string): Seen | undefined {
  return seen.get(keyOf(tab, caller));
}

/** Forgets every caller's view of `tab` (unshared or closed). */
export function forgetSeen(tab: number): void {
  for (const [k, s] of seen) if (s.tab === tab) seen.delete(k);
}
