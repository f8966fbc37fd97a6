// The decision of a call read in every frame of a tab (wait_for by selector or text), once every frame has answered:
// which answer is the call's. Pure, so it is unit-tested apart from the frames (./dispatch.ts asks them).
import { OrielError, orielError } from '../../../shared/errors.js';

/** One frame's answer: its value, or the error it gave. */
export type FrameOutcome = { frameId: number; ok: true; value: unknown } | { frameId: number; ok: false; err: unknown };

/** Errors a frame gives when it cannot host the call at all (no content script, mid-navigation): not an answer. */
const UNREACHABLE = new Set(['unsupported', 'stale_document']);

/** Whether `err` says the frame could not be asked at all. */
export function isUnreachable(err: unknown): boolean {
  return err instanceof OrielError && UNREACHABLE.has(err.data.code);
}

/**
 * The call's answer from every frame's: with `agree` (the op map's `frames_agree`: waiting for something to go), the
 * value of the top frame — or of the first frame — when every frame that could be asked succeeded. Otherwise, or when
 * one failed: the top frame's own error, else another asked frame's error, else the top frame's unreachability, else
 * `timeout` (no frame could be asked). Without `agree`, a success would have answered before every frame did.
 */
export function decideEveryFrame(settled: readonly FrameOutcome[], agree: boolean): { ok: true; value: unknown } | { ok: false; err: unknown } {
  const answered = settled.filter((r) => r.ok || !isUnreachable(r.err));
  if (agree && answered.length > 0 && answered.every((r) => r.ok)) {
    const top = answered.find((r) => r.frameId === 0) ?? answered[0]!;
    return { ok: true, value: top.ok ? top.value : undefined };
  }
  const topFailure = settled.find((r): r is Extract<FrameOutcome, { ok: false }> => r.frameId === 0 && !r.ok);
  if (topFailure && !isUnreachable(topFailure.err)) return { ok: false, err: topFailure.err };
  const other = answered.find((r): r is Extract<FrameOutcome, { ok: false }> => !r.ok);
  if (other) return { ok: false, err: other.err };
  if (topFailure) return { ok: false, err: topFailure.err };
  return { ok: false, err: orielError('timeout', 'No frame of this tab could be searched. Take a snapshot to see the page as it is.', { next: 'snapshot' }) };
}
