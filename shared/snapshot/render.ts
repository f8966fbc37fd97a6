// The pure renderer: snapshot tree → outline lines (one element per line, never cut). Format: docs/snapshot-format.md.
import { NAME_FROM_CONTENT, type SnapNode } from './node.js';
import { quote } from './escape.js';

/** One rendered line and what pagination needs to know about it. */
export interface Line {
  text: string;
  /** Handle of the element on this line, if it has one (cursor anchor). */
  handle?: string;
  /** Number of interactive elements the line shows (a compacted row can show none or several). */
  act: number;
}

const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

/** Whether `n` carries nothing but a name, so it can be written inline by its parent. */
function isBare(n: SnapNode): boolean {
  return !n.handle && shownChildren(n).length === 0 && n.value === undefined && !n.url && !n.states?.length && n.frame === undefined;
}

/** The children worth writing: text that only repeats a name taken from content is dropped. */
export function shownChildren(n: SnapNode): SnapNode[] {
  const kids = n.children ?? [];
  if (kids.length > 0 && n.name && NAME_FROM_CONTENT.has(n.role) && kids.every((k) => k.role === 'text')) return [];
  return kids;
}

/** The line for one node (without indentation), and whether its children were written inline on it. */
export function nodeLine(n: SnapNode, kids: SnapNode[] = shownChildren(n)): { text: string; inline: boolean } {
  if (n.role === 'text') return { text: quote(n.name ?? ''), inline: true };
  let s = n.role;
  if (n.name) s += ' ' + quote(n.name);
  if (n.value !== undefined) s += ' value=' + quote(n.value);
  if (n.url) s += ' ' + n.url;
  if (n.states?.length) s += ' [' + n.states.join(' ') + ']';
  if (n.handle) s += ' @' + n.handle;
  if (kids.length === 0) return { text: s, inline: true };
  // A row of plain cells on one line: `row: "Name" "Price"`; header rows say so.
  if (n.role === 'row' && kids.every((k) => CELL_ROLES.has(k.role) && isBare(k))) {
    const kind = kids[0]!.role;
    if (kids.every((k) => k.role === kind)) {
      const cells = kids.map((k) => ' ' + quote(k.name ?? '')).join('');
      return { text: s + (kind === 'columnheader' ? ' (headers):' : ':') + cells, inline: true };
    }
  }
  // A node whose only content is one run of text: `listitem: "Apples"`.
  if (!n.name && kids.length === 1 && kids[0]!.role === 'text') return { text: s + ': ' + quote(kids[0]!.name ?? ''), inline: true };
  return { text: s, inline: false };
}

/** Flattens a tree into indented lines, one space per level, depth-first in document order. */
export function toLines(nodes: SnapNode[], depth = 0, out: Line[] = []): Line[] {
  const pad = ' '.repeat(depth);
  for (const n of nodes) {
    // A plain list item holding one element (a link in a menu) is written as that element.
    if (n.role === 'listitem' && !n.name && !n.handle && !n.states?.length && n.children?.length === 1 && n.children[0]!.role !== 'text') {
      toLines(n.children, depth, out);
      continue;
    }
    const kids = shownChildren(n);
    const { text, inline } = nodeLine(n, kids);
    const line: Line = { text: pad + text, act: n.act ? 1 : 0 };
    if (n.handle) line.handle = n.handle;
    out.push(line);
    if (!inline) toLines(kids, depth + 1, out);
  }
  return out;
}

/** The whole outline as text (no header, no budget). */
export function render(nodes: SnapNode[]): string {
  return toLines(nodes).map((l) => l.text).join('\n');
}
