// The one envelope every page call travels in: minted by the hub (broker/hub/hub.ts), carried to the background in a
// `call` frame (shared/protocol.ts), and narrowed for the content script of one frame. Values that belong to the call
// (its id, session, caller, document guard, deadline, capability, redaction policy) live here, never inside `args`,
// which holds only the operation's own arguments (shared/ops.ts). Documented in docs/native-messaging.md.
import { z } from 'zod';
import { CapabilitySchema, OPS, RedactionPolicy, SnapshotLinesArgs, isPublicOp, type Capability, type OpName, type PublicOpName } from './ops.js';
import { TrustedOfferSchema } from './trusted-input.js';

/** Who makes a call: the MCP client connection (its id is minted by the hub; its name is the client's `clientInfo.name`). */
export const CallerSchema = z.object({
  id: z.string().min(1).max(40),
  name: z.string().max(200),
});
export type Caller = z.infer<typeof CallerSchema>;

/** Longest operation name. */
const OP_MAX = 40;
/** Longest origin a content call or its answer carries, characters (a scheme, a host of at most 253, a port). */
export const ORIGIN_MAX = 300;

/**
 * A page call as the hub sends it to a browser (hub → native host → background).
 * - `deadline`: absolute time (ms since the Unix epoch, this machine's clock) by which the answer must arrive. Set once
 *   by the MCP side from the tool's default and maximum; everyone downstream only reads it.
 * - `capability`: what the operation needs ({@link OPS}); the background checks it equals the op's own.
 * - `document`: the caller's guard, the top document id it expects (`stale_document` otherwise).
 */
export const PageCallSchema = z.object({
  id: z.number().int().nonnegative(),
  op: z.string().max(OP_MAX),
  args: z.record(z.string(), z.unknown()),
  session: z.string().max(100),
  tab: z.number().int(),
  client: CallerSchema,
  document: z.string().max(32).optional(),
  deadline: z.number().int().nonnegative(),
  capability: CapabilitySchema,
});
export type PageCall = z.infer<typeof PageCallSchema>;

/**
 * A call's time budget as it travels from the background to the content script: the call's absolute `deadline` (ms
 * since the Unix epoch; the resumed one after a permission prompt) and `slack_ms`, the time its work leaves free before
 * it for the answer to travel back (shared/ops.ts `OpBudget`). Content actions wait until `deadline - slack_ms`.
 */
export const CallBudgetSchema = z.object({
  deadline: z.number().int().nonnegative(),
  slack_ms: z.number().int().min(0).max(120_000),
});
export type CallBudget = z.infer<typeof CallBudgetSchema>;

/** When the work under `budget` must end: its deadline less its slack (ms since the Unix epoch). */
export function workEnd(budget: CallBudget): number {
  return budget.deadline - budget.slack_ms;
}

/**
 * A call narrowed for one frame's content script (background → content). `redaction` is the user's policy, attached by
 * the background from the options page; an agent can neither send nor weaken it. `input` says whether the pointer and
 * key input of this call may go through the browser's trusted input (the person's option, never the agent's).
 */
export const ContentCallSchema = z.object({
  oriel: z.literal(2),
  id: z.number().int(),
  op: z.string().max(OP_MAX),
  args: z.record(z.string(), z.unknown()),
  redaction: RedactionPolicy.optional(),
  /** The call's budget; Oriel's own private calls may go without. */
  budget: CallBudgetSchema.optional(),
  /** Trusted input for this call (click, hover, press_key, type), when the person turned it on (shared/trusted-input.ts). */
  input: TrustedOfferSchema.optional(),
  /**
   * `snapshot.lines` arguments for a reading to start once the op has succeeded, answered in the same exchange
   * (`then_read` of the response): an action's comparison with what its caller saw begins without a second round trip
   * (extension/background/action-changes.ts). Not read when the op reports a navigation it started.
   */
  then_read: SnapshotLinesArgs.optional(),
  /**
   * For an op that may follow a link or submit a form (shared/ops.ts `activates`): the origin of the frame it acts in.
   * Right before acting, the content script reads where the element leads; when that is an http(s) page of another
   * origin, the op is not carried out and the answer's `leads_to` names that origin, so consent can judge it first
   * (docs/architecture.md, "Consent": navigation is an act on the destination). Absent: the op acts wherever it leads.
   */
  leads_from: z.string().max(ORIGIN_MAX).optional(),
});
export type ContentCall = z.infer<typeof ContentCallSchema>;

/** Version tag of {@link ContentCallSchema} messages. */
export const CONTENT_WIRE = 2 as const;

/** The capability `op` needs, from the one op map. */
export function capabilityOf(op: OpName): Capability {
  return OPS[op].capability;
}

/**
 * Checks what the hub sent against the op map: the op must be public and its capability the op's own.
 * @returns the op name, or why the call is refused.
 */
export function checkPageCall(call: PageCall): { ok: true; op: PublicOpName } | { ok: false; message: string } {
  if (!isPublicOp(call.op)) return { ok: false, message: `Unknown page operation ${JSON.stringify(call.op.slice(0, OP_MAX))}.` };
  if (OPS[call.op].capability !== call.capability) return { ok: false, message: `Operation ${call.op} needs ${OPS[call.op].capability}, not ${call.capability}.` };
  return { ok: true, op: call.op };
}

/** Milliseconds left until `deadline` (never negative). */
export function remainingMs(deadline: number, now = Date.now()): number {
  return Math.max(0, deadline - now);
}
