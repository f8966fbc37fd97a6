// The op map (shared/ops.ts) carries what generic code decides per operation: budgets, targets and the per-op rules.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CLIENT_REQUEST_TIMEOUT_MS, LONGEST_CALL_MS, MAX_TIMEOUT_MS } from '../../shared/time-limits.js';
import { activationOf, answersBeforeCommit, budgetOf, execShownOf, handleOf, OPS, specOf, survivesDisconnect, type OpName } from '../../shared/ops.js';

/** The `maximum` a number schema (optional or not) allows, undefined for none or no schema. */
function maxOf(schema: z.ZodType | undefined): number | undefined {
  if (!schema) return undefined;
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { maximum?: number };
  return json.maximum;
}

describe('op map', () => {
  it('gives every public operation a target and a budget whose default fits its maximum', () => {
    for (const op of Object.keys(OPS) as OpName[]) {
      const spec = specOf(op);
      if (!spec.public) continue;
      expect(spec.target, op).toBeDefined();
      expect(spec.budget, op).toBeDefined();
      expect(spec.budget!.default_ms * (spec.budget!.waits ?? 1) + spec.budget!.slack_ms, op).toBeLessThanOrEqual(spec.budget!.max_ms);
    }
  });

  it('budgets a call as (timeout_ms or its default) × waits + slack, capped at the maximum', () => {
    // The numbers the tools used before the map held them: (timeout_ms ?? default) + 5 s, navigate + 2 s, drag twice.
    expect(budgetOf('click', {})).toEqual({ ms: 10_000, slack_ms: 5_000 });
    expect(budgetOf('click', { timeout_ms: 50_000 })).toEqual({ ms: 55_000, slack_ms: 5_000 });
    expect(budgetOf('scroll', {})).toEqual({ ms: 15_000, slack_ms: 5_000 });
    expect(budgetOf('drag', { timeout_ms: 1_000 })).toEqual({ ms: 7_000, slack_ms: 5_000 });
    expect(budgetOf('drag', { timeout_ms: 50_000 }).ms).toBe(55_000);
    expect(budgetOf('wait_for', {})).toEqual({ ms: 15_000, slack_ms: 5_000 });
    expect(budgetOf('wait_for', { timeout_ms: 50_000 }).ms).toBe(55_000);
    expect(budgetOf('evaluate', {}).ms).toBe(15_000);
    expect(budgetOf('navigate', {})).toEqual({ ms: 32_000, slack_ms: 2_000 });
    expect(budgetOf('navigate', { timeout_ms: 50_000 }).ms).toBe(52_000);
    expect(budgetOf('call_tab_operation', {}).ms).toBe(35_000);
    expect(budgetOf('snapshot', {})).toEqual({ ms: 30_000, slack_ms: 1_500 });
    expect(budgetOf('screenshot', {}).ms).toBe(15_000);
    expect(budgetOf('document', {})).toEqual({ ms: 30_000, slack_ms: 0 });
  });

  it('ends every call, at its longest timeout_ms, before the official SDKs give up on it (60 s by default)', () => {
    // Oriel's own timeout must arrive first: the whole budget (wait × waits + slack, capped) stays under the client's.
    expect(LONGEST_CALL_MS).toBeLessThan(CLIENT_REQUEST_TIMEOUT_MS);
    for (const op of Object.keys(OPS) as OpName[]) {
      const spec = specOf(op);
      if (!spec.public) continue;
      expect(spec.budget!.max_ms, op).toBeLessThanOrEqual(LONGEST_CALL_MS);
      const longest = maxOf((spec.args as z.ZodObject).shape.timeout_ms);
      if (longest === undefined) continue;
      expect(longest, op).toBeLessThanOrEqual(MAX_TIMEOUT_MS);
      // The work the content script does at that timeout still leaves the slack before the deadline.
      expect(Math.min(longest, spec.budget!.max_ms - spec.budget!.slack_ms) + spec.budget!.slack_ms, op).toBeLessThanOrEqual(LONGEST_CALL_MS);
      expect(budgetOf(op, { timeout_ms: longest }).ms, op).toBeLessThanOrEqual(LONGEST_CALL_MS);
    }
  });

  it('reads the handle from the argument the operation names it by', () => {
    expect(handleOf('click', { handle: 'ab12cd34.1' })).toBe('ab12cd34.1');
    expect(handleOf('snapshot', { root: 'ab12cd34.1' })).toBe('ab12cd34.1');
    expect(handleOf('snapshot', { handle: 'ab12cd34.1' })).toBeUndefined();
  });

  it('says which calls activate their element, and how', () => {
    expect(activationOf('click', { handle: 'a.1' })).toBe('click');
    expect(activationOf('type', { handle: 'a.1', text: 'x', submit: true })).toBe('enter');
    expect(activationOf('type', { handle: 'a.1', text: 'x' })).toBeUndefined();
    expect(activationOf('press_key', { handle: 'a.1', key: 'Enter' })).toBe('enter');
    expect(activationOf('press_key', { key: 'Enter' })).toBeUndefined();
    expect(activationOf('press_key', { handle: 'a.1', key: 'Tab' })).toBeUndefined();
    expect(activationOf('hover', { handle: 'a.1' })).toBeUndefined();
  });

  it('names what exec consent shows, the navigations that outlive their answer, and what survives a disconnect', () => {
    expect(execShownOf('evaluate', { expression: '1+1' })).toEqual({ code: '1+1' });
    expect(execShownOf('call_tab_operation', { name: 'add', arguments: { a: 1 }, document: 'd', schema: '{}' })).toEqual({ operation: 'add', arguments: { a: 1 } });
    expect(execShownOf('click', { handle: 'a.1' })).toBeUndefined();
    expect(answersBeforeCommit('navigate', { url: 'https://a.test/', wait_until: 'none' })).toBe(true);
    expect(answersBeforeCommit('navigate', { url: 'https://a.test/' })).toBe(false);
    expect(survivesDisconnect('navigate')).toBe(true);
    expect(survivesDisconnect('click')).toBe(false);
    expect(survivesDisconnect('no such op')).toBe(false);
  });

  it('offers trusted input to the pointer and key ops only', () => {
    const offered = (Object.keys(OPS) as OpName[]).filter((op) => specOf(op).trusted_input);
    expect(offered.sort()).toEqual(['click', 'hover', 'press_key', 'type']);
  });
});
