// How long each page operation may take, as the broker reads it: the op map's budgets (shared/ops.ts, `budget`), the
// one home of the "(timeout_ms ?? default) + slack" rule; broker/mcp/context.ts turns a budget into the call's absolute
// deadline. Only waiting for a lease, which has no page side, has its budget here.
import { budgetOf, OPS, type OpBudget, type PublicOpName } from '../../../shared/ops.js';
import { MAX_TIMEOUT_MS } from '../../../shared/time-limits.js';

export type { OpBudget };

/** Every public operation's budget, from the op map (shared/ops.ts `OPS[op].budget`). */
export const OP_BUDGETS: Readonly<Record<PublicOpName, OpBudget>> = Object.fromEntries(
  Object.entries(OPS).flatMap(([op, spec]) => (spec.public && 'budget' in spec ? [[op, spec.budget]] : [])),
) as Record<PublicOpName, OpBudget>;

/** Waiting for another client's lease to end (acquire_lease's `timeout_ms`): no page side, so no slack. */
export const LEASE_WAIT_BUDGET: OpBudget = { default_ms: 30_000, max_ms: MAX_TIMEOUT_MS, slack_ms: 0 };

/**
 * The budget of one call, ms: `(timeout_ms ?? default_ms) × waits + slack_ms`, at most `max_ms` ({@link OpBudget}).
 * `timeout_ms` is read from the operation's own arguments; anything but a number there counts as not given.
 */
export function budgetMs(budget: OpBudget, args: object): number {
  const given = (args as { timeout_ms?: unknown }).timeout_ms;
  const wait = typeof given === 'number' ? given : budget.default_ms;
  return Math.min(wait * (budget.waits ?? 1) + budget.slack_ms, budget.max_ms);
}

/** The whole budget of public operation `op` with arguments `args`, ms (the op map's `budgetOf`). */
export function opBudgetMs(op: PublicOpName, args: object): number {
  return budgetOf(op, args).ms;
}
