// The snapshot filters (query, roles, interactive_only) over a stream of outline lines: a line is kept when its
// element matches, with the lines of its ancestors as context. Runs in the background on the lines of every frame as
// they arrive (extension/background/snapshot.ts), so a filtered snapshot is paged and resumed like any other.
import type { Line } from './render.js';

export interface FilterSpec {
  query?: string;
  roles?: string[];
  interactiveOnly?: boolean;
}

/** Whether `spec` filters anything. */
export function filters(spec: FilterSpec): boolean {
  return Boolean(spec.query?.trim() || spec.roles?.length || spec.interactiveOnly);
}

/**
 * Keeps the lines whose element matches every given filter, each with its ancestor lines (written once, just before
 * the first kept line under them). A line matching a `query` given alone also keeps everything under it. Lines must
 * carry `r` for `roles` and `q` for `query` (lineFields of the walk).
 */
export class LineFilter {
  private readonly query: string | undefined;
  private readonly roles: Set<string> | undefined;
  private readonly interactiveOnly: boolean;
  /** Lines that are ancestors of what comes next and not yet written (no match under them so far). */
  private readonly pending: Line[] = [];
  /** Depth of a `query` match whose whole subtree is kept, or -1. */
  private openMatch = -1;

  constructor(spec: FilterSpec) {
    this.query = spec.query?.trim().toLowerCase() || undefined;
    this.roles = spec.roles?.length ? new Set(spec.roles.map((r) => r.toLowerCase())) : undefined;
    this.interactiveOnly = spec.interactiveOnly === true;
  }

  /** Feeds the next line in document order; appends what is kept (ancestors first) to `out`. */
  push(line: Line, out: Line[]): void {
    while (this.pending.length && this.pending[this.pending.length - 1]!.d >= line.d) this.pending.pop();
    if (this.openMatch >= 0 && line.d <= this.openMatch) this.openMatch = -1;
    if (this.openMatch >= 0) {
      out.push(line);
      return;
    }
    if (this.matches(line)) {
      for (const p of this.pending) out.push(p);
      this.pending.length = 0;
      out.push(line);
      if (this.query && !this.roles && !this.interactiveOnly) this.openMatch = line.d;
    } else {
      this.pending.push(line);
    }
  }

  private matches(line: Line): boolean {
    if (this.roles && !this.roles.has(line.r ?? '')) return false;
    if (this.interactiveOnly && !line.a) return false;
    if (this.query && !(line.q ?? '').includes(this.query)) return false;
    return true;
  }
}
