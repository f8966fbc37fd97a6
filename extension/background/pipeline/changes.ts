// After dispatch: what the caller has now seen of the tab, and what an action changed. A snapshot becomes the caller's
// view of the tab; an action that can change the page gets `changes` in its result, compared with that view
// (../action-changes.ts; docs/tools.md, "Results").
import { specOf } from '../../../shared/ops.js';
import { disabledTools } from '../../settings.js';
import { beginComparison, changesSinceSeen, noteShown, type BegunComparison } from '../action-changes.js';
import { keptSnapshot } from '../snapshot.js';
import type { SeenArgs } from '../snapshot-seen.js';
import type { CallState } from './types.js';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether the call's result reports what it changed (the op says so, and the person did not switch snapshot off). */
function reportsChanges(state: CallState): boolean {
  // The changes are outline lines: where the person switched snapshot off, actions do not show them either.
  return specOf(state.op).reports_changes === true && !disabledTools(state.settings).includes('snapshot');
}

/**
 * Begins the comparison of an action carried out in frame `frame`, so that its first lines are read in the action's
 * own exchange (../action-changes.ts `beginComparison`); undefined when the call reports no changes or cannot.
 */
export function beginChanges(state: CallState, frame: number): Promise<BegunComparison | undefined> {
  return reportsChanges(state) ? beginComparison(state.tab, state.call.client.id, frame, state.settings) : Promise.resolve(undefined);
}

/** `value` of the dispatched call, with `changes` when the op reports them. Never fails a call that succeeded. */
export async function afterDispatch(state: CallState, value: unknown): Promise<unknown> {
  const caller = state.call.client.id;
  if (specOf(state.op).sets_view) {
    const k = isRecord(value) && typeof value.snapshot === 'string' ? keptSnapshot(value.snapshot) : undefined;
    if (k && k.tab === state.tab) noteShown(k, caller, filtersOf(state.args));
    return value;
  }
  if (!reportsChanges(state) || !isRecord(value)) return value;
  const changes = await changesSinceSeen(state.tab, caller, { navigating: value.navigation_started === true, deadline: state.clock.deadline, settings: state.settings, begun: state.begun });
  return changes ? { ...value, changes } : value;
}

/** The filters a view was read under (a snapshot's root, query, roles, interactive_only): the next diff reads the same. */
function filtersOf(args: Record<string, unknown>): SeenArgs {
  const out: SeenArgs = {};
  if (typeof args.root === 'string') out.root = args.root;
  if (typeof args.query === 'string') out.query = args.query;
  if (Array.isArray(args.roles)) out.roles = args.roles.filter((r): r is string => typeof r === 'string');
  if (args.interactive_only === true) out.interactive_only = true;
  return out;
}
