// Collects the outline children of one node while the walker visits its DOM subtree: inline text from sibling and
// nested inline elements joins into one run ("Hel" + <b>"lo"</b> → "Hello"); block boundaries and nodes split runs.
import { cap, collapseWhitespace, type SnapNode } from '../../../shared/snapshot/index.js';
import type { Entry } from './reuse.js';

/** Told of each child a builder takes, in order (the walker settles what the children of an open node decide). */
export interface BuilderOwner {
  added(child: SnapNode, items: SnapNode[]): void;
}

export class Builder {
  readonly items: SnapNode[] = [];
  private pending = '';
  /** Where the walker records what this builder was given (./reuse.ts replays it), when it records. */
  log: Entry[] | undefined;

  constructor(
    private readonly textLimit: number,
    private readonly owner?: BuilderOwner,
  ) {}

  text(data: string): void {
    this.log?.push({ t: 'text', b: this, d: data });
    this.pending += data;
  }

  /** Whether a run of text has started and not yet been ended. */
  get hasPending(): boolean {
    return this.pending !== '';
  }

  /** A block boundary or line break: the current text run ends. */
  break(): void {
    this.log?.push({ t: 'break', b: this });
    this.flush();
  }

  push(node: SnapNode): void {
    this.log?.push({ t: 'push', b: this, n: node });
    this.flush();
    this.add(node);
  }

  /** Ends the current run and returns the children. */
  done(): SnapNode[] {
    this.flush();
    return this.items;
  }

  /** Ends the current run of text: it becomes a child (when it is not only whitespace). */
  flush(): void {
    if (this.pending === '') return;
    const t = collapseWhitespace(this.pending);
    this.pending = '';
    if (t) this.add({ role: 'text', name: cap(t, this.textLimit) });
  }

  private add(node: SnapNode): void {
    this.items.push(node);
    this.owner?.added(node, this.items);
  }
}
