// Pipeline stage 2: which frame a call touches, that frame's origin and the tab's top origin, so consent can judge it.
// How is the op map's (shared/ops.ts `target`): a handle names its document, hence its frame; calls without one act in
// (or start from) the top frame; some read every frame; an op that navigates also names the origin it takes the tab to.
import { orielError } from '../../../shared/errors.js';
import { handleOf, specOf } from '../../../shared/ops.js';
import { frameOfDocument, frameOrigin, frameOriginOrError, originOfDocument } from '../frames.js';
import { originOf } from '../../consent/rules.js';
import { destinationOfCall } from '../ops/index.js';
import { navigates, type Stage } from './types.js';

/** The namespace part of a handle (`q7k2mzr4.3` → `q7k2mzr4`). */
export function namespaceOf(handle: string): string {
  return handle.slice(0, handle.indexOf('.'));
}

export const target: Stage = async (state) => {
  const args = state.args;
  const how = specOf(state.op).target ?? 'top';
  const handle = how === 'top' ? undefined : handleOf(state.op, args);
  let frame = 0;
  if (handle !== undefined) {
    const found = await frameOfDocument(state.tab, namespaceOf(handle));
    if (found === undefined) {
      throw orielError('unknown_handle', `Handle ${handle} does not belong to any document now shown in this tab (it is from a previous page, another tab, or made up). Take a new snapshot.`);
    }
    frame = found;
  }
  const everyFrame = how === 'every_frame' || (how === 'handle_or_every_frame' && handle === undefined);
  // A handle of the top frame's document: the call can only act in that document (the content script resolves handles
  // in the document that issued them and no other), so its origin is the one to judge, and it is known once asked.
  const known = handle !== undefined && frame === 0 ? originOfDocument(state.tab, namespaceOf(handle)) : undefined;
  if (known !== undefined) {
    state.target = { frame, origin: known, topOrigin: known, everyFrame, topReachable: true };
    return;
  }
  const top = await frameOriginOrError(state.tab, 0);
  const origin = frame === 0 ? top.origin : await frameOrigin(state.tab, frame);
  state.target = { frame, origin, topOrigin: top.origin, everyFrame, topReachable: top.reachable };
  if (navigates(state)) state.target.destination = originOf(await destinationOfCall(state.op, state.tab, state.args));
};
