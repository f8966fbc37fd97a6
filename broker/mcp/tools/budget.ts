// How long each page operation may take, as one table: the one home of the "(timeout_ms ?? default) + slack" rule
// that every tool handler used to repeat. The numbers belong with the operation itself and move into the op map
// (shared/ops.ts) once it carries budgets; broker/mcp/context.ts turns a budget into the call's absolute deadline.
import type { PublicOpName } from '../../../shared/ops.js';

/**
 * An operation's budget, ms. The whole call may take `(timeout_ms ?? default_ms) × waits + slack_ms`, at most
 * `max_ms`: `timeout_ms` is how long the page side waits (for its target, a load, a page tool), and the slack covers
 * the trip through the hub, the background and the frame before and after that wait, so the page's own diagnosis
 * (`not_actionable`, a wait's `timeout`) arrives before the broker's deadline does. An operation without a
 * `timeout_ms` argument has no slack: `default_ms` is its whole budget.
 */
export interface OpBudget {
  /** The page side's wait when the call gives no `timeout_ms` (or the whole budget, without slack). */
  default_ms: number;
  /** The longest the whole call may take, whatever `timeout_ms` says. */
  max_ms: number;
  /** Added to the page side's wait for the way there and back. */
  slack_ms: number;
  /** How many times the page side may wait `timeout_ms` in one call (drag waits for its source, then its target); 1 when omitted. */
  waits?: number;
}

/** Slack of the acting and waiting operations: the trip around the page side's own wait, ms. */
const SLACK_MS = 5_000;

/**
 * Every public operation's budget. Maxima sit `slack_ms` above their argument's own maximum (shared/ops.ts), so the
 * longest wait an agent may ask for still answers with the page's diagnosis.
 */
export const OP_BUDGETS: Readonly<Record<PublicOpName, OpBudget>> = {
  snapshot: { default_ms: 30_000, max_ms: 60_000, slack_ms: 0 },
  // timeout_ms up to 60 s: 65 s in all (it stopped at 60 s, so the longest wait timed out before the page's answer).
  click: { default_ms: 5_000, max_ms: 65_000, slack_ms: SLACK_MS },
  // Loads are slow and already bounded by the browser's own events: the slack only covers the answer's trip.
  navigate: { default_ms: 30_000, max_ms: 120_000, slack_ms: 2_000 },
  type: { default_ms: 5_000, max_ms: 65_000, slack_ms: SLACK_MS },
  select_options: { default_ms: 5_000, max_ms: 65_000, slack_ms: SLACK_MS },
  press_key: { default_ms: 5_000, max_ms: 65_000, slack_ms: SLACK_MS },
  hover: { default_ms: 5_000, max_ms: 65_000, slack_ms: SLACK_MS },
  scroll: { default_ms: 10_000, max_ms: 65_000, slack_ms: SLACK_MS },
  drag: { default_ms: 5_000, max_ms: 65_000, slack_ms: SLACK_MS, waits: 2 },
  upload: { default_ms: 5_000, max_ms: 65_000, slack_ms: SLACK_MS },
  wait_for: { default_ms: 10_000, max_ms: 55_000, slack_ms: SLACK_MS },
  extract: { default_ms: 10_000, max_ms: 30_000, slack_ms: 0 },
  extract_rows: { default_ms: 15_000, max_ms: 30_000, slack_ms: 0 },
  evaluate: { default_ms: 10_000, max_ms: 65_000, slack_ms: SLACK_MS },
  screenshot: { default_ms: 15_000, max_ms: 30_000, slack_ms: 0 },
  send_message: { default_ms: 10_000, max_ms: 30_000, slack_ms: 0 },
  list_tab_operations: { default_ms: 10_000, max_ms: 30_000, slack_ms: 0 },
  call_tab_operation: { default_ms: 30_000, max_ms: 70_000, slack_ms: SLACK_MS },
};

/** Waiting for another client's lease to end (acquire_lease's `timeout_ms`): no page side, so no slack. */
export const LEASE_WAIT_BUDGET: OpBudget = { default_ms: 30_000, max_ms: 120_000, slack_ms: 0 };

/**
 * The budget of one call, ms: `(timeout_ms ?? default_ms) × waits + slack_ms`, at most `max_ms` ({@link OpBudget}).
 * `timeout_ms` is read from the operation's own arguments; anything but a number there counts as not given.
 */
export function budgetMs(budget: OpBudget, args: object): number {
  const given = (args as { timeout_ms?: unknown }).timeout_ms;
  const wait = typeof given === 'number' ? given : budget.default_ms;
  return Math.min(wait * (budget.waits ?? 1) + budget.slack_ms, budget.max_ms);
}

/** {@link budgetMs} of public operation `op` with arguments `args`, ms. */
export function opBudgetMs(op: PublicOpName, args: object): number {
  return budgetMs(OP_BUDGETS[op], args);
}
