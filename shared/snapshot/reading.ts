// What a frame's content script answers to `snapshot.lines` (extension/content/snapshot/session.ts writes it,
// extension/background/snapshot-reading.ts reads it): the next outline lines of that frame, and where they stopped.
import type { Line, SnapNode } from './index.js';

/** An iframe placeholder reached by the lines: the background writes its line and the child frame's lines under it. */
export interface FrameStop {
  /** The iframe's node (its line is written by the background, which knows whether the frame can be reached). */
  node: SnapNode;
  depth: number;
  /** The frame reference: a frameId (Firefox) or the token the child frame posted (Chromium). */
  ref: number | string;
  /** The frame sits outside an open modal: everything in it is inert. */
  inert: boolean;
  /** Usability states the frame's controls share. */
  inherit: string[];
}

/** The answer to `snapshot.lines`. */
export interface LinesReply {
  reading: string;
  document: string;
  url: string;
  title: string;
  /** `document.readyState` when the lines were read. */
  ready_state: 'loading' | 'interactive' | 'complete';
  lines: Line[];
  /** An iframe the lines stopped at: its line and frame are the background's to write and read. */
  stop?: FrameStop;
  /** Every line of this frame has been given. */
  done: boolean;
  visited: number;
  dropped: number;
  /** The document changed since the reading began. */
  changed: boolean;
  /** A modal dialog was found after lines outside it had already been given unmarked. */
  lateModal: boolean;
  /**
   * Custom elements were met whose ElementInternals Oriel cannot read: its page script reached the document after the
   * page's own scripts, or not at all (docs/architecture.md, "What a page can see").
   */
  internalsUnknown?: boolean;
  /** Milliseconds this answer took in the page. */
  ms: number;
}
