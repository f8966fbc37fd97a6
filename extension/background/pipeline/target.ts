// Pipeline stage 2: which frame a call touches, that frame's origin and the tab's top origin, so consent can judge it.
// A handle names its document, hence its frame; calls without one act in (or start from) the top frame; snapshot and
// wait_for by selector or text read every frame.
import { orielError } from '../../../shared/errors.js';
import { frameOfDocument, frameOrigin, frameOriginOrError } from '../frames.js';
import type { Stage } from './types.js';

/** The namespace part of a handle (`q7k2mzr4.3` → `q7k2mzr4`). */
export function namespaceOf(handle: string): string {
  return handle.slice(0, handle.indexOf('.'));
}

export const target: Stage = async (state) => {
  const args = state.args;
  const handle = typeof args.handle === 'string' ? args.handle : typeof args.root === 'string' ? args.root : undefined;
  let frame = 0;
  if (handle !== undefined) {
    const found = await frameOfDocument(state.tab, namespaceOf(handle));
    if (found === undefined) {
      throw orielError('unknown_handle', `Handle ${handle} does not belong to any document now shown in this tab (it is from a previous page, another tab, or made up). Take a new snapshot.`);
    }
    frame = found;
  }
  const everyFrame = state.op === 'snapshot' || (state.op === 'wait_for' && handle === undefined);
  const top = await frameOriginOrError(state.tab, 0);
  const origin = frame === 0 ? top.origin : await frameOrigin(state.tab, frame);
  state.target = { frame, origin, topOrigin: top.origin, everyFrame, topReachable: top.reachable };
};
