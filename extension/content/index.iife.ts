// Content script entry (frames of shared tabs, document_start where the browser allows): answers operations the
// background sends for this frame.
// Each call is validated once here: the envelope (shared/call.ts) and the op's arguments (shared/ops.ts).
// Counterpart: extension/background/frames.ts (sendToFrame).
import '../zod-jitless.js'; // first: zod must be jitless before any schema is built
import './once.js'; // then: a second copy in this frame stops here, before it listens to anything
import { ContentCallSchema, type ContentCall } from '../../shared/call.js';
import { isOpName, OPS, parseOpArgs, type OpName } from '../../shared/ops.js';
import type { ContentResponse } from '../../shared/protocol.js';
import { errorData, orielError, toErrorData } from '../../shared/errors.js';
import { currentRegistry } from './document.js';
import type { ContentContext, ContentHandler, ContentHandlers } from './handlers.js';
import { snapshotHandlers } from './snapshot/index.js';
import { actionHandlers } from './actions/index.js';
import { maskHandlers } from './masks.js';
import { isSecretField, Redactor } from './redaction.js';
import { bridgeHandlers, startBridge } from './bridge.js';
import { pageToolHandlers } from './page-tools.js';
import { watchSecretSubmissions } from './form-watch.js';
import { flushSecretFlips, watchSecretFlips } from './secret-watch.js';
import { holdLifeline } from './lifeline.js';
import { watchPageHooks } from './page-hooks.js';

watchPageHooks();
// Taking over from the early watcher (./early.iife.ts) first: it stops listening as this script starts.
watchSecretFlips();
watchSecretSubmissions((el) => {
  flushSecretFlips();
  return isSecretField(el);
});
import { armDialogs, dialogsOp, disarmDialogs, unansweredDialogError } from './dialogs.js';

const HANDLERS: ContentHandlers = {
  ...snapshotHandlers,
  ...actionHandlers,
  ...bridgeHandlers,
  ...pageToolHandlers,
  ...maskHandlers,
  /** The document this frame shows: its id (handle namespace), URL, title and origin (https://html.spec.whatwg.org/multipage/webappapis.html#dom-origin-dev). */
  document: (_args, ctx) => ({ document: ctx.registry.namespace, url: location.href, title: document.title, origin: window.origin, ready_state: document.readyState }),
  dialogs: (args) => dialogsOp(args),
  lifeline: ({ hold }) => {
    // Only the top frame holds one: a tab needs one lifeline, whatever its frames.
    if (window === window.top) holdLifeline(hold);
    return null;
  },
};

/** In-flight calls by id, so a `cancel` from the background can abort them. */
const inflight = new Map<number, AbortController>();

async function answer(message: unknown): Promise<ContentResponse> {
  const registry = currentRegistry();
  const parsed = ContentCallSchema.safeParse(message);
  if (!parsed.success) return { ok: false, error: errorData('invalid_argument', 'malformed request to the content script'), document: registry.namespace };
  const call: ContentCall = parsed.data;
  const op = call.op;
  if (!isOpName(op) || OPS[op].site !== 'content') return { ok: false, error: errorData('unsupported', `unknown page operation "${op.slice(0, 40)}"`), document: registry.namespace };
  const args = parseOpArgs(op, call.args);
  if (!args.ok) return { ok: false, error: errorData('invalid_argument', args.message), document: registry.namespace };
  if (op === 'cancel') {
    inflight.get(Number(args.args.call))?.abort();
    return { ok: true, value: null, document: registry.namespace };
  }
  const handler = HANDLERS[op] as ContentHandler<OpName> | undefined;
  if (!handler) return { ok: false, error: errorData('unsupported', `page operation "${op}" is not handled in this frame`), document: registry.namespace };
  const controller = new AbortController();
  if (call.id !== 0) inflight.set(call.id, controller);
  let redactor: Redactor | undefined;
  const ctx: ContentContext = {
    registry,
    signal: controller.signal,
    call: call.id,
    ...(call.deadline !== undefined && { deadline: call.deadline }),
    ...(call.input && { input: call.input }),
    redactor() {
      if (redactor) return redactor;
      if (!call.redaction) throw orielError('internal', 'The call reached the page without the redaction policy; Oriel refuses to act without it.');
      return (redactor = Redactor.fromPolicy(call.redaction));
    },
  };
  // Acting calls answer the JavaScript dialogs they open (./dialogs.ts).
  const dialogs = OPS[op].capability === 'act' ? armDialogs(args.args) : undefined;
  try {
    const value = await handler(args.args as never, ctx);
    if (dialogs) {
      const unanswered = unansweredDialogError(dialogs);
      if (unanswered) throw unanswered;
      if (dialogs.seen.length > 0 && typeof value === 'object' && value !== null) (value as { dialogs?: unknown }).dialogs = dialogs.seen;
    }
    return { ok: true, value, document: currentRegistry().namespace };
  } catch (err) {
    return { ok: false, error: toErrorData(err), document: currentRegistry().namespace };
  } finally {
    if (dialogs) disarmDialogs(dialogs);
    if (call.id !== 0) inflight.delete(call.id);
  }
}

chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
  // Only our own extension's background talks to us; page scripts cannot reach runtime messaging.
  if (sender.id !== chrome.runtime.id) return false;
  if (typeof message !== 'object' || message === null || (message as { oriel?: unknown }).oriel === undefined) return false;
  void answer(message).then(sendResponse);
  return true;
});

startBridge();
