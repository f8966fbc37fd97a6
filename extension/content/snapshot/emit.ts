// Writes the outline lines of a walk as it grows (extension/content/snapshot/walk.ts): every finished node, and the
// line of a node still being walked as soon as nothing its later children bring can change it. What it writes is
// exactly what shared/snapshot/render.ts toLines writes for the whole tree, in the same order; it stops at each
// iframe placeholder (the background puts the child frame's lines there) and where the walk has not yet decided.
import { collapsesInto, lineOf, openLine, shownChildren, type Line, type LineFields, type SnapNode } from '../../../shared/snapshot/index.js';
import type { FrameStop } from '../../../shared/snapshot/reading.js';
import type { Builder } from './builder.js';
import type { OpenNode, Walker } from './walk.js';

export interface Drained {
  lines: Line[];
  /** Characters of `lines`, indentation and newlines included. */
  chars: number;
  stop?: FrameStop;
  /** Every line of the walk has been written. */
  done: boolean;
}

/** One level of the pre-order path: a list of nodes and the next index in it. */
interface Place {
  list: SnapNode[];
  i: number;
  depth: number;
  /** For a list still growing: its builder and the node it belongs to (`root` for the top level). */
  builder?: Builder;
  owner?: OpenNode | 'root';
}

export class Emitter {
  private readonly path: Place[];

  constructor(
    private readonly walker: Walker,
    private readonly fields: LineFields,
  ) {
    this.path = [{ list: walker.root.items, i: 0, depth: 0, builder: walker.root, owner: 'root' }];
  }

  /** Writes the lines that are ready, until `want` characters are written, an iframe is reached or nothing is ready. */
  drain(want: number): Drained {
    const lines: Line[] = [];
    let chars = 0;
    const put = (l: Line) => {
      lines.push(l);
      chars += l.d + l.t.length + 1;
    };
    while (chars < want) {
      const top = this.path[this.path.length - 1];
      if (!top) return { lines, chars, done: true };
      if (top.i < top.list.length) {
        const item = top.list[top.i++]!;
        if (item.frame !== undefined) {
          const { frame, ...node } = item;
          const info = this.walker.frames.get(item) ?? { inert: false, inherit: [] };
          return { lines, chars, stop: { node, depth: top.depth, ref: frame, inert: info.inert, inherit: info.inherit }, done: false };
        }
        const only = collapsesInto(item);
        if (only) {
          this.path.push({ list: [only], i: 0, depth: top.depth });
          continue;
        }
        const kids = shownChildren(item);
        const { line, inline } = lineOf(item, top.depth, this.fields, kids);
        put(line);
        if (!inline) this.path.push({ list: kids, i: 0, depth: top.depth + 1 });
        continue;
      }
      // The end of the list written so far.
      if (top.owner === undefined || (top.owner === 'root' ? this.walker.done : top.owner.done)) {
        this.path.pop();
        continue;
      }
      const open = this.walker.openChild.get(top.builder!);
      if (!open) break;
      if (top.builder!.hasPending) {
        // The text before an open node ends where the node starts.
        top.builder!.flush();
        continue;
      }
      const node = open.node;
      const kids = open.kids.items;
      if (openLine(node, kids, { nameMayDrop: open.nameMayDrop, shiftMayApply: !open.shiftDone }) === undefined) break;
      put(lineOf(node, top.depth, this.fields, kids).line);
      open.headEmitted = true;
      // The node takes this place in the list when it is finished; its children follow as they come.
      top.i++;
      this.path.push({ list: kids, i: 0, depth: top.depth + 1, builder: open.kids, owner: open });
    }
    return { lines, chars, done: false };
  }
}
