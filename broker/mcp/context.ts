// Builds the narrow ToolContext a tool handler receives from the hub's state. The one place a call's deadline is set.
import type { Hub } from '../hub/hub.js';
import { sessionId } from '../hub/sessions.js';
import type { Caller } from '../../shared/call.js';
import { orielError } from '../../shared/errors.js';
import type { SessionView, ToolContext } from './tools/types.js';
import { readUploadFiles } from './files.js';

/** Default page-call deadline when a tool gives none, ms. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** No page call may run longer than this, ms. */
export const MAX_CALL_TIMEOUT_MS = 120_000;
/** Shortest page-call budget, ms. */
const MIN_CALL_TIMEOUT_MS = 100;

/** The common arguments of one call: which session, and the optional document guard. */
export interface CallTarget {
  session?: string;
  document?: string;
  /** The tool's deadline defaults, ms. */
  timeout?: { default: number; max: number };
}

/**
 * The context of one tool call by `caller`. `callPage` turns the tool's budget (its own or the tool's default, clamped
 * to the tool's and Oriel's maximum) into the call's absolute deadline, which the hub, the background and the content
 * script only read.
 */
export function makeToolContext(hub: Hub, caller: Caller, signal: AbortSignal, target: CallTarget = {}): ToolContext {
  return {
    clientId: caller.id,
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
        ...(s.info.opener !== undefined && { opener: sessionId(s.instance, s.info.opener) }),
      }));
    },
    readUploadFiles(paths) {
      const session = hub.sessions.resolve(target.session);
      return readUploadFiles(hub.uploadFolder(session.instance), paths);
    },
    callPage(op, args, options = {}) {
      const max = Math.min(target.timeout?.max ?? MAX_CALL_TIMEOUT_MS, MAX_CALL_TIMEOUT_MS);
      const budget = Math.min(Math.max(options.timeoutMs ?? target.timeout?.default ?? DEFAULT_CALL_TIMEOUT_MS, MIN_CALL_TIMEOUT_MS), max);
      return hub.callPage({
        session: target.session,
        op,
        args,
        caller,
        deadline: Date.now() + budget,
        signal,
        ...(target.document !== undefined && { document: target.document }),
      });
    },
    async awaitMessages({ after, max, timeoutMs }) {
      const session = hub.sessions.resolve(target.session);
      if (target.document !== undefined && session.info.document !== undefined && session.info.document !== target.document) {
        throw orielError('stale_document', `The tab now shows another document (doc=${session.info.document}, expected ${target.document}).`, { details: { document: session.info.document } });
      }
      const read = await hub.bridge.wait(session.id, after, max, timeoutMs, signal);
      const document = hub.sessions.get(session.id)?.info.document;
      return { ...read, ...(document !== undefined && { document }) };
    },
  };
}
