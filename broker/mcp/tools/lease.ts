// acquire_lease, release_lease: holding a shared tab across calls so other clients' calls wait (docs/architecture.md,
// "Ordering and leases"). Hub-only: no browser operation; the ToolContext reaches the hub's scheduler.
import { z } from 'zod';
import { orielError } from '../../../shared/errors.js';
import { MAX_TIMEOUT_MS } from '../../../shared/time-limits.js';
import type { ToolDefinition } from './types.js';
import { defineTool } from './define.js';
import { listSessions } from './sessions.js';
import { click } from './click.js';

const iso = (ms: number) => new Date(ms).toISOString();

export const acquireLease: ToolDefinition = defineTool({
  name: 'acquire_lease',
  title: 'Hold a shared tab across calls',
  description: () => `Holds the tab so no other agent's call runs between yours; pass its id as lease, then ${releaseLease.name}.`,
  usage:
    'it lapses ttl_ms after the last call quoting it (default 30000) and 10 minutes after it began; timeout_ms waits for another holder',
  notes: () =>
    `Holds one shared tab for you across several calls, so no other agent's call runs between yours (e.g. ${click.name}, then read the result). Returns a lease id: pass it as \`lease\` in every call of the sequence; calls that do not quote it, yours included, wait until the lease ends. It lapses after ttl_ms without a call quoting it (default 30000) and after 10 minutes at the latest. If another client holds the tab, waits for it up to timeout_ms. Changes nothing in the page. Call ${releaseLease.name} as soon as the sequence is done.`,
  commonArgs: ['session'],
  input: z.object({
    ttl_ms: z.number().int().min(1_000).max(600_000).optional().meta({ default: 30_000 }),
    timeout_ms: z.number().int().min(100).max(MAX_TIMEOUT_MS).optional().meta({ default: 30_000 }),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  capability: 'none',
  async handler(args, ctx) {
    const lease = await ctx.acquireLease({ ...(args.ttl_ms !== undefined && { ttlMs: args.ttl_ms }), ...(args.timeout_ms !== undefined && { timeoutMs: args.timeout_ms }) });
    const structured = { lease: lease.lease, session: lease.session, ttl_ms: lease.ttlMs, expires_at: iso(lease.expiresAt), max_until: iso(lease.maxUntil) };
    return {
      structured,
      text: `Lease ${lease.lease} on session ${lease.session}. Pass lease="${lease.lease}" in each call of your sequence; it lapses ${lease.ttlMs} ms after the last such call and at ${structured.max_until} at the latest. Call ${releaseLease.name} when done.`,
    };
  },
});

export const releaseLease: ToolDefinition = defineTool({
  name: 'release_lease',
  title: 'Give a held tab back',
  description: () => `Ends the lease you pass as lease, so others' waiting calls run. See ${acquireLease.name}.`,
  notes: () =>
    `Ends a lease that ${acquireLease.name} gave you (pass it as \`lease\`), so other clients' waiting calls run. Changes nothing in the page. Fails with lease_expired if it had already lapsed: then other clients may have acted in the tab since, so take a new snapshot before relying on what you read under it.`,
  commonArgs: ['lease'],
  input: z.object({}),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  capability: 'none',
  async handler(_args, ctx) {
    if (ctx.lease === undefined) throw orielError('invalid_argument', `Pass the lease to release as \`lease\` (the id ${acquireLease.name} returned).`, { next: listSessions.name });
    const lease = ctx.releaseLease(ctx.lease);
    return { structured: { released: true, lease: lease.lease, session: lease.session }, text: `Released lease ${lease.lease}; session ${lease.session} is free for other clients.` };
  },
});
