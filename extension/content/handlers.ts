// The content script's operation table types: op name → handler. Each feature folder contributes its own handlers;
// extension/content/index.iife.ts validates each call once (shared/call.ts envelope, shared/ops.ts arguments).
import type { OpArgs, OpName } from '../../shared/ops.js';
import type { HandleRegistry } from './registry.js';
import type { Redactor } from './redaction.js';
import type { TrustedOffer } from '../../shared/trusted-input.js';
import { remainingMs, workEnd, type CallBudget } from '../../shared/call.js';

/** What every content handler receives besides its arguments. */
export interface ContentContext {
  /** Registry of the document this frame shows now. */
  registry: HandleRegistry;
  /** Aborted when the hub cancels the call or its deadline passes. */
  signal: AbortSignal;
  /** The call's id (0 for Oriel's own private calls). */
  call: number;
  /** The call's absolute deadline, ms since the Unix epoch, when the background gave one. */
  deadline?: number;
  /**
   * The call's budget: its deadline (resumed after a permission prompt) and the slack to leave before it. Actions wait
   * until `deadline - slack_ms` ({@link workMs}), never on a clock of their own.
   */
  budget: CallBudget;
  /** Trusted input offered to this call, when the person turned it on (./actions/trusted.ts). */
  input?: TrustedOffer;
  /**
   * The user's redaction policy for this call, checked (every selector parses).
   * @throws OrielError `internal` when the call arrived without a policy (never act unredacted); `invalid_argument`
   *   when a user selector is not valid CSS.
   */
  redactor(): Redactor;
}

/**
 * A content operation. `args` arrive validated against the op's schema (shared/ops.ts). Throw {@link OrielError} for
 * expected failures; return JSON-serialisable values.
 */
export type ContentHandler<N extends OpName = OpName> = (args: OpArgs<N>, ctx: ContentContext) => unknown;

/** The table type: every content-site op may have a handler; `document` and `cancel` are answered by the entry. */
export type ContentHandlers = { [N in OpName]?: ContentHandler<N> };

/** How long the call's work may still take, ms: until its budget's deadline less the slack kept for the answer. */
export function workMs(ctx: Pick<ContentContext, 'budget'>): number {
  return remainingMs(workEnd(ctx.budget));
}
