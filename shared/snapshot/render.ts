// The pure renderer: snapshot tree → outline lines (one element per line, never cut). Format: docs/snapshot-format.md.
// The content script renders as it walks (extension/content/snapshot/emit.ts), so the rules that depend on a node's
// children also say when they are settled for a node whose children are still coming (`openLine`).
import { NAME_FROM_CONTENT, type SnapNode } from './node.js';
import { quote } from './escape.js';

/**
 * One rendered line and what pagination and filters need to know about it. Short keys: lines cross from the content
 * script to the background by the thousand.
 */
export interface Line {
  /** The line's text without its indentation. */
  t: string;
  /** Depth: the line is indented by one space per level. */
  d: number;
  /** Handle of the element on this line, if it has one (cursor anchor, diff key). */
  h?: string;
  /** Number of interactive elements the line shows (a compacted row can show none or several); absent for 0. */
  a?: number;
  /** The node's role (`text` for a text run), when the walk was asked for it (the `roles` filter). */
  r?: string;
  /** Lower-cased name, value and URL of the line's node and of the children written on it (the `query` filter). */
  q?: string;
}

/** What a renderer adds to each line besides its text: role and query text, when asked for. */
export interface LineFields {
  role?: boolean;
  search?: boolean;
}

const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);
const SPAN_STATE = /^(rowspan|colspan)=\d+$/;

/** A line with its indentation. */
export function lineText(l: Line): string {
  return ' '.repeat(l.d) + l.t;
}

/** Whether `n` carries nothing but a name (and how many rows or columns it spans), so its parent can write it inline. */
function isBare(n: SnapNode): boolean {
  return (
    !n.handle && shownChildren(n).length === 0 && n.value === undefined && n.description === undefined && !n.url &&
    (!n.states?.length || n.states.every((s) => SPAN_STATE.test(s))) && n.frame === undefined
  );
}

/** The children worth writing: text that only repeats a name taken from content is dropped. */
export function shownChildren(n: SnapNode): SnapNode[] {
  const kids = n.children ?? [];
  if (kids.length > 0 && n.name && NAME_FROM_CONTENT.has(n.role) && kids.every((k) => k.role === 'text')) return [];
  return kids;
}

/** A plain list item holding one element (a link in a menu) is written as that element. */
export function collapsesInto(n: SnapNode): SnapNode | undefined {
  if (n.role === 'listitem' && !n.name && !n.handle && !n.states?.length && n.children?.length === 1 && n.children[0]!.role !== 'text') return n.children[0];
  return undefined;
}

/** The line for one node (without indentation), and whether its children were written inline on it. */
export function nodeLine(n: SnapNode, kids: SnapNode[] = shownChildren(n)): { text: string; inline: boolean } {
  if (n.role === 'text') return { text: quote(n.name ?? ''), inline: true };
  let s = n.role;
  if (n.name) s += ' ' + quote(n.name);
  if (n.value !== undefined) s += ' value=' + quote(n.value);
  if (n.description !== undefined) s += ' desc=' + quote(n.description);
  if (n.url) s += ' ' + n.url;
  if (n.states?.length) s += ' [' + n.states.join(' ') + ']';
  if (n.handle) s += ' @' + n.handle;
  if (kids.length === 0) return { text: s, inline: true };
  // A row of plain cells on one line: `row: "Name" "Price"`; header rows say so; a spanning cell says how far.
  if (n.role === 'row' && kids.every((k) => CELL_ROLES.has(k.role) && isBare(k))) {
    const kind = kids[0]!.role;
    if (kids.every((k) => k.role === kind)) {
      const cells = kids.map((k) => ' ' + quote(k.name ?? '') + (k.states?.length ? ` [${k.states.join(' ')}]` : '')).join('');
      return { text: s + (kind === 'columnheader' ? ' (headers):' : ':') + cells, inline: true };
    }
  }
  // A node whose only content is one run of text: `listitem: "Apples"`.
  if (!n.name && kids.length === 1 && kids[0]!.role === 'text') return { text: s + ': ' + quote(kids[0]!.name ?? ''), inline: true };
  return { text: s, inline: false };
}

/** The text a `query` is matched against: name, value and URL of the node, and of children written on its line. */
function searchText(n: SnapNode, kids: SnapNode[], inline: boolean): string {
  const parts = [n.name, n.value, n.url];
  if (inline) for (const k of kids) parts.push(k.name);
  return parts.filter((p) => p !== undefined && p !== '').join('\n').toLowerCase();
}

/** The line of `n` at `depth`, with the fields asked for. */
export function lineOf(n: SnapNode, depth: number, fields: LineFields = {}, kids: SnapNode[] = shownChildren(n)): { line: Line; inline: boolean } {
  const { text, inline } = nodeLine(n, kids);
  const line: Line = { t: text, d: depth };
  if (n.handle) line.h = n.handle;
  const act = (n.act ? 1 : 0) + (inline ? kids.reduce((c, k) => c + (k.act ? 1 : 0), 0) : 0);
  if (act) line.a = act;
  if (fields.role) line.r = n.role;
  if (fields.search) line.q = searchText(n, kids, inline);
  return { line, inline };
}

/** Flattens a tree into lines, depth-first in document order. */
export function toLines(nodes: SnapNode[], depth = 0, out: Line[] = [], fields: LineFields = {}): Line[] {
  for (const n of nodes) {
    const only = collapsesInto(n);
    if (only) {
      toLines([only], depth, out, fields);
      continue;
    }
    const kids = shownChildren(n);
    const { line, inline } = lineOf(n, depth, fields, kids);
    out.push(line);
    if (!inline) toLines(kids, depth + 1, out, fields);
  }
  return out;
}

/** The whole outline as text (no header, no budget). */
export function render(nodes: SnapNode[]): string {
  return toLines(nodes).map(lineText).join('\n');
}

/** What a node whose children are still coming may yet see changed by them (the walker tracks both). */
export interface OpenState {
  /** A later element child would drop the name (a container named from its content: extension/content/snapshot/walk.ts). */
  nameMayDrop: boolean;
  /** A first text child that repeats the name may still be dropped. */
  shiftMayApply: boolean;
}

/**
 * The line of a node whose children are still being walked, when nothing a later child brings can change it or the
 * way its children are written (then they follow on lines of their own); `undefined` while it could still change —
 * name from text children, an inline form (`row: …`, `listitem: "…"`), a list item written as its only child, a
 * name-from-content whose text children are dropped. Equal to what {@link toLines} writes once the node is complete.
 */
export function openLine(n: SnapNode, kids: readonly SnapNode[], open: OpenState): string | undefined {
  const allText = kids.every((k) => k.role === 'text');
  if (n.role === 'clickable' && allText) return undefined;
  if (open.nameMayDrop && n.name) return undefined;
  if (n.name && open.shiftMayApply && (kids.length === 0 || (kids.length === 1 && kids[0]!.role === 'text' && kids[0]!.name === n.name))) return undefined;
  if (n.role === 'listitem' && !n.name && !n.handle && !n.states?.length && (kids.length === 0 || (kids.length === 1 && kids[0]!.role !== 'text'))) return undefined;
  if (n.role === 'row' && kids.every((k) => CELL_ROLES.has(k.role) && isBare(k))) return undefined;
  if (n.name && NAME_FROM_CONTENT.has(n.role) && allText) return undefined;
  if (!n.name && (kids.length === 0 || (kids.length === 1 && kids[0]!.role === 'text'))) return undefined;
  const { text, inline } = nodeLine(n, kids as SnapNode[]);
  return inline ? undefined : text;
}
