// Collects the outline children of one node while the walker visits its DOM subtree: inline text from sibling and
// nested inline elements joins into one run ("Hel" + <b>"lo"</b> → "Hello"); block boundaries and nodes split runs.
import { cap, collapseWhitespace, type SnapNode } from '../../../shared/snapshot/index.js';

export class Builder {
  readonly items: SnapNode[] = [];
  private pending = '';

  constructor(private readonly textLimit: number) {}

  text(data: string): void {
    this.pending += data;
  }

  /** A block boundary or line break: the current text run ends. */
  break(): void {
    this.flush();
  }

  push(node: SnapNode): void {
    this.flush();
    this.items.push(node);
  }

  /** Ends the current run and returns the children. */
  done(): SnapNode[] {
    this.flush();
    return this.items;
  }

  private flush(): void {
    if (this.pending === '') return;
    const t = collapseWhitespace(this.pending);
    this.pending = '';
    if (t) this.items.push({ role: 'text', name: cap(t, this.textLimit) });
  }
}
