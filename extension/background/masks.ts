// Screenshot masks: asks every frame of a tab where it paints redacted content (content op `redaction_boxes`,
// extension/content/masks.ts), places each child frame inside its iframe, and returns the boxes in the top frame's
// viewport CSS pixels. A frame that cannot be asked is masked whole. Used by ./ops/screenshot.ts.
import { RedactionBoxesResult } from '../../shared/ops.js';
import { introduceFrames, listFrames, sendToFrame, type FrameCallOptions } from './frames.js';

/** A box in the top frame's viewport, CSS pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Masks {
  /** The top frame's viewport, CSS pixels: a capture of `width` device pixels is scaled by capture.width / width. */
  viewport: { width: number; height: number };
  boxes: Box[];
}

/**
 * Measures the masks of every frame of `tab` now. `settle` lets the page paint a frame first (the first measurement
 * of a capture, so the image is not older than the layout measured).
 * @throws OrielError when the top frame cannot answer (nothing could be masked, so nothing is captured).
 */
export async function measureMasks(tab: number, frameCall: FrameCallOptions, settle: boolean): Promise<Masks> {
  const frames = await listFrames(tab);
  // A child frame without our content script is masked whole (its iframe's box).
  const { frameOfToken, childTokens } = await introduceFrames(tab, frames);
  const reports = new Map<number, RedactionBoxesResult>();
  await Promise.all(
    [0, ...frames.map((f) => f.frameId).filter((id) => id !== 0)].map(async (frameId) => {
      try {
        const r = await sendToFrame(tab, frameId, 'redaction_boxes', { expect: childTokens.get(frameId) ?? [], settle }, frameCall);
        reports.set(frameId, RedactionBoxesResult.parse(r.value));
      } catch (err) {
        if (frameId === 0) throw err;
      }
    }),
  );
  const top = reports.get(0)!;
  const boxes: Box[] = [];
  const seen = new Set<number>([0]);
  const push = (b: Box | null) => {
    if (b && b.width > 0 && b.height > 0) boxes.push(b);
  };
  /** Places `report`'s boxes: its viewport's origin at (ox, oy), scaled by (sx, sy), clipped to `clip`. */
  const place = (report: RedactionBoxesResult, ox: number, oy: number, sx: number, sy: number, clip: Box | undefined): void => {
    const at = (b: Box): Box => ({ x: ox + b.x * sx, y: oy + b.y * sy, width: b.width * sx, height: b.height * sy });
    for (const b of report.boxes) push(intersect(at(b), clip));
    for (const f of report.frames) {
      const area = intersect(at(f), clip);
      if (!area) continue;
      const id = typeof f.ref === 'number' ? f.ref : typeof f.ref === 'string' ? frameOfToken.get(f.ref) : undefined;
      const child = id !== undefined && !seen.has(id) ? reports.get(id) : undefined;
      if (!child) {
        // Not inspected (no content script, still loading, unplaceable): what it shows is unknown.
        push(area);
        continue;
      }
      seen.add(id!);
      const csx = (f.width * sx) / child.viewport.width;
      const csy = (f.height * sy) / child.viewport.height;
      // A frame stretched unevenly (a CSS transform) cannot be placed box by box: mask it whole if it has anything.
      if (Math.abs(csx - csy) > 0.02 * Math.max(csx, csy)) {
        if (child.boxes.length || child.frames.length) push(area);
        continue;
      }
      const origin = at(f);
      place(child, origin.x, origin.y, csx, csy, area);
    }
  };
  place(top, 0, 0, 1, 1, undefined);
  return { viewport: top.viewport, boxes };
}

function intersect(b: Box, clip: Box | undefined): Box | null {
  if (!clip) return b;
  const x = Math.max(b.x, clip.x);
  const y = Math.max(b.y, clip.y);
  const right = Math.min(b.x + b.width, clip.x + clip.width);
  const bottom = Math.min(b.y + b.height, clip.y + clip.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/** Whether two measurements agree to half a CSS pixel: the page did not move in between. */
export function sameMasks(a: Masks, b: Masks): boolean {
  if (a.viewport.width !== b.viewport.width || a.viewport.height !== b.viewport.height || a.boxes.length !== b.boxes.length) return false;
  const close = (p: number, q: number) => Math.abs(p - q) < 0.5;
  return a.boxes.every((x, i) => {
    const y = b.boxes[i]!;
    return close(x.x, y.x) && close(x.y, y.y) && close(x.width, y.width) && close(x.height, y.height);
  });
}
