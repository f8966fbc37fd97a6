// Page operations the background runs itself because they need extension APIs (tabs, webNavigation, scripting,
// userScripts): the op map's `site: 'background'` entries (shared/ops.ts). Dispatch (../pipeline/dispatch.ts) runs them.
import type { CallBudget } from '../../../shared/call.js';
import type { NavigatingOpName, OpArgs, OpResult, SiteOpName } from '../../../shared/ops.js';
import type { FrameCallOptions } from '../frames.js';
import { snapshotTab } from '../snapshot.js';
import { evaluate } from './evaluate.js';
import { destinationOf, navigate } from './navigate.js';
import { screenshot } from './screenshot.js';

/** The operations the background runs. */
export type BackgroundOpName = SiteOpName<'background'>;

/**
 * What content calls made on a background op's behalf must carry: the call id, the redaction policy, and the call's
 * budget (its deadline is the resumed one when the call waited on a permission prompt).
 */
export type BackgroundCall = FrameCallOptions & { budget: CallBudget };

/** One background op: `tab` is the shared tab's id, `args` the call's arguments, validated against the op's schema. */
export type BackgroundOp<N extends BackgroundOpName> = (tab: number, args: OpArgs<N>, call: BackgroundCall) => Promise<OpResult<N>>;

/** op name → implementation, exactly the background-site ops of the op map. */
export const backgroundOps: { [N in BackgroundOpName]: BackgroundOp<N> } = {
  snapshot: (tab, args, call) => snapshotTab(tab, args, call.budget.deadline),
  navigate: (tab, args) => navigate(tab, args),
  evaluate: (tab, args) => evaluate(tab, args),
  screenshot,
};

/** Runs background op `op` (the one typed dispatch: the table's entry for `op` takes `op`'s arguments). */
export function runInBackground<N extends BackgroundOpName>(op: N, tab: number, args: OpArgs<N>, call: BackgroundCall): Promise<OpResult<N>> {
  const run: BackgroundOp<N> = backgroundOps[op];
  return run(tab, args, call);
}

/**
 * Where a call of an op that navigates on purpose (the op map's `navigates`) takes the top frame, judged before it runs:
 * the URL it loads, the page back or forward leads to, the page a reload shows (`undefined` when the tab shows none).
 */
export const destinations: { [N in NavigatingOpName]: (tab: number, args: OpArgs<N>) => Promise<string | undefined> } = {
  navigate: destinationOf,
};

/** The destination of a navigating call ({@link destinations}). */
export function destinationOfCall<N extends NavigatingOpName>(op: N, tab: number, args: OpArgs<N>): Promise<string | undefined> {
  const of: (tab: number, args: OpArgs<N>) => Promise<string | undefined> = destinations[op];
  return of(tab, args);
}
