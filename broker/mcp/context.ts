// Builds the narrow ToolContext a tool handler receives from the hub's state.
import type { Hub } from '../hub/hub.js';
import type { SessionView, ToolContext } from './tools/types.js';

/** Default page-call deadline when a tool gives none, ms. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** No page call may run longer than this, ms. */
export const MAX_CALL_TIMEOUT_MS = 120_000;

/** The common arguments of one call (SPEC §4): which session, and the optional document guard. */
export interface CallTarget {
  session?: string;
  document?: string;
  /** The tool's deadline defaults, ms. */
  timeout?: { default: number; max: number };
}

export function makeToolContext(hub: Hub, clientId: string, signal: AbortSignal, target: CallTarget = {}): ToolContext {
  return {
    clientId,
    signal,
    listSessions(): SessionView[] {
      return hub.sessions.all().map((s) => ({
        id: s.id,
        title: s.info.title,
        url: s.info.url,
        origin: s.info.origin,
        browser: s.browser,
        active: s.info.active,
        connected: s.connected,
        ...(s.info.document !== undefined && { document: s.info.document }),
      }));
    },
    callPage(op, args, options = {}) {
      const max = Math.min(target.timeout?.max ?? MAX_CALL_TIMEOUT_MS, MAX_CALL_TIMEOUT_MS);
      const timeoutMs = Math.min(Math.max(options.timeoutMs ?? target.timeout?.default ?? DEFAULT_CALL_TIMEOUT_MS, 100), max);
      return hub.callPage(target.session, op, args, {
        timeoutMs,
        signal,
        ...(target.document !== undefined && { document: target.document }),
      });
    },
  };
}
