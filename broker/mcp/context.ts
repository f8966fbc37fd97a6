// Builds the narrow ToolContext a tool handler receives from the hub's state.
import type { Hub } from '../hub/hub.js';
import type { SessionView, ToolContext } from './tools/types.js';

/** Default page-call deadline when a tool gives none, ms. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** No page call may run longer than this, ms. */
export const MAX_CALL_TIMEOUT_MS = 120_000;

export function makeToolContext(hub: Hub, clientId: string, signal: AbortSignal): ToolContext {
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
    callPage(session, op, args, options = {}) {
      const timeoutMs = Math.min(Math.max(options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, 100), MAX_CALL_TIMEOUT_MS);
      return hub.callPage(session, op, args, {
        timeoutMs,
        signal,
        ...(options.document !== undefined && { document: options.document }),
      });
    },
  };
}
