// Calls running in content scripts: call id → the tab and frames running it, so a cancel from the hub can reach them.
import { sendToFrame } from '../frames.js';

const running = new Map<number, { tab: number; frames: number[] }>();

/** Records that call `id` runs in `frames` of `tab` (replacing what was recorded); returns the live entry. */
export function trackCall(id: number, tab: number, frames: number[]): { tab: number; frames: number[] } {
  const entry = { tab, frames: [...frames] };
  running.set(id, entry);
  return entry;
}

export function untrackCall(id: number): void {
  running.delete(id);
}

/** Best-effort cancel of a running content call, in every frame running it. */
export function cancelInFrames(id: number, except?: number): void {
  const where = running.get(id);
  if (!where) return;
  for (const frameId of where.frames) if (frameId !== except) void sendToFrame(where.tab, frameId, 'cancel', { call: id }).catch(() => undefined);
}
