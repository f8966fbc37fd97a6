// The content script's operation table: op name → handler. Each feature folder contributes its own handlers.
import type { HandleRegistry } from './registry.js';

/** What every content handler receives besides its arguments. */
export interface ContentContext {
  /** Registry of the document this frame shows now. */
  registry: HandleRegistry;
  /** Aborted when the hub cancels the call or its deadline passes. */
  signal: AbortSignal;
}

/**
 * A content operation. Args arrive already validated by the background for public ops; handlers still treat them
 * as untrusted shapes. Throw {@link OrielError} for expected failures; return JSON-serialisable values.
 */
export type ContentHandler = (args: Record<string, unknown>, ctx: ContentContext) => unknown;
