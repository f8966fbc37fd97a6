// Names under which Oriel's isolated-world scripts in one frame find each other: the content script (./index.iife.ts)
// and the early watcher (./early.iife.ts). Extension scripts of one frame share the isolated world's global, which
// pages cannot see (docs/architecture.md, "What a page can see").

/** Key of the content script's mark: a function telling whether the copy that set it is still alive (./once.ts). */
export const CONTENT_MARK = Symbol.for('oriel.content');

/** Key of the early watcher, while it watches: an {@link EarlyWatch}. */
export const EARLY_MARK = Symbol.for('oriel.early');

/** What the early watcher hands to the content script when that arrives (./secret-watch.ts takes it). */
export interface EarlyWatch {
  /**
   * Stops the early watcher (its pending mutation records are read first, so no flip is lost) and returns the fields
   * it saw stop being secret, still in the document or not.
   */
  handOver(): Element[];
}

/** The isolated world's global, as a table of these marks. */
export const marks = globalThis as unknown as { [CONTENT_MARK]?: () => boolean; [EARLY_MARK]?: EarlyWatch };
