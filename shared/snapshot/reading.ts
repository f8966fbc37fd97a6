// What a frame's content script answers to `snapshot.lines` (extension/content/snapshot/session.ts writes it,
// extension/background/snapshot-reading.ts reads it): the next outline lines of that frame, and where they stopped.
import { z } from 'zod';
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

/** Keys a {@link Line} may have. */
const LINE_KEYS = new Set(['t', 'd', 'h', 'a', 'r', 'q']);

/** A whole number ≥ 0. */
function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

/**
 * Whether `v` is an array of outline lines as they cross from the content script (shared/snapshot/render.ts `Line`):
 * `t` a string, `d` a whole number ≥ 0, and where present `h` a string of at most 64 characters, `a` a whole number
 * ≥ 0, `r` and `q` strings; no other keys. A plain loop rather than a zod object per line: the background checks
 * every line of every reading (tens of thousands on a large page), and zod, which runs without code generation in the
 * extension, took about 3 µs a line there.
 */
export function isLineArray(v: unknown): v is Line[] {
  if (!Array.isArray(v)) return false;
  for (const l of v as unknown[]) {
    if (typeof l !== 'object' || l === null || Array.isArray(l)) return false;
    const o = l as Record<string, unknown>;
    if (typeof o.t !== 'string' || !isCount(o.d)) return false;
    for (const k in o) {
      if (!LINE_KEYS.has(k)) return false;
      const x = o[k];
      if (x === undefined) continue;
      if (k === 'h' ? typeof x !== 'string' || x.length > 64 : k === 'a' ? !isCount(x) : (k === 'r' || k === 'q') && typeof x !== 'string') return false;
    }
  }
  return true;
}

/** Outline lines as the background validates them on arrival ({@link isLineArray}). */
const LinesSchema = z.custom<Line[]>(isLineArray, { message: 'not an array of outline lines' });

/** A snapshot node (shared/snapshot/node.ts `SnapNode`), with its children. */
const SnapNodeSchema: z.ZodType<SnapNode> = z.lazy(() =>
  z.object({
    role: z.string(),
    name: z.string().optional(),
    value: z.string().optional(),
    description: z.string().optional(),
    url: z.string().optional(),
    states: z.array(z.string()).optional(),
    handle: z.string().max(64).optional(),
    children: z.array(SnapNodeSchema).optional(),
    frame: z.union([z.number(), z.string()]).optional(),
    act: z.literal(1).optional(),
  }),
);

/** {@link LinesReply} as the background validates it on arrival. */
export const LinesReplySchema: z.ZodType<LinesReply> = z.object({
  reading: z.string().max(32),
  document: z.string().max(32),
  url: z.string(),
  title: z.string(),
  ready_state: z.enum(['loading', 'interactive', 'complete']),
  lines: LinesSchema,
  stop: z
    .object({ node: SnapNodeSchema, depth: z.number().int().min(0), ref: z.union([z.number(), z.string()]), inert: z.boolean(), inherit: z.array(z.string()) })
    .optional(),
  done: z.boolean(),
  visited: z.number().int(),
  dropped: z.number().int(),
  changed: z.boolean(),
  lateModal: z.boolean(),
  internalsUnknown: z.boolean().optional(),
  ms: z.number(),
});

/** What `snapshot.lines` answers when the reading it names is gone or its place in the page is (read afresh). */
export const LinesLostSchema = z.object({ lost: z.literal(true) });
export type LinesLost = z.infer<typeof LinesLostSchema>;
