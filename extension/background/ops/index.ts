// Page operations the background runs itself because they need extension APIs (tabs, webNavigation, scripting,
// userScripts): the op map's `site: 'background'` entries (shared/ops.ts). Dispatch (../pipeline/dispatch.ts) runs them.
import type { OpArgs, OpResult, SiteOpName } from '../../../shared/ops.js';
import type { FrameCallOptions } from '../frames.js';
import { snapshotTab } from '../snapshot.js';
import { evaluate } from './evaluate.js';
import { navigate } from './navigate.js';
import { screenshot } from './screenshot.js';

/** The operations the background runs. */
export type BackgroundOpName = SiteOpName<'background'>;

/**
 * What content calls made on a background op's behalf must carry: the call id, the redaction policy, and the call's
 * deadline (absolute, ms since the epoch; the resumed one when the call waited on a permission prompt).
 */
export type BackgroundCall = FrameCallOptions & { deadline: number };

/** One background op: `tab` is the shared tab's id, `args` the call's arguments, validated against the op's schema. */
export type BackgroundOp<N extends BackgroundOpName> = (tab: number, args: OpArgs<N>, call: BackgroundCall) => Promise<OpResult<N>>;

/** op name → implementation, exactly the background-site ops of the op map. */
export const backgroundOps: { [N in BackgroundOpName]: BackgroundOp<N> } = {
  snapshot: (tab, args, call) => snapshotTab(tab, args, call.deadline),
  navigate: (tab, args) => navigate(tab, args),
  evaluate: (tab, args) => evaluate(tab, args),
  screenshot,
};

/** Runs background op `op` (the one typed dispatch: the table's entry for `op` takes `op`'s arguments). */
export function runInBackground<N extends BackgroundOpName>(op: N, tab: number, args: OpArgs<N>, call: BackgroundCall): Promise<OpResult<N>> {
  const run: BackgroundOp<N> = backgroundOps[op];
  return run(tab, args, call);
}
