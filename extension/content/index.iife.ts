// Content script entry (frames of shared tabs, document_start where the browser allows): answers operations the
// background sends for this frame.
// Each call is validated once here: the envelope (shared/call.ts) and the op's arguments (shared/ops.ts).
// Counterpart: extension/background/frames.ts (sendToFrame).
import '../zod-jitless.js'; // first: zod must be jitless before any schema is built
import './once.js'; // then: a second copy in this frame stops here, before it listens to anything
import { ContentCallSchema, type ContentCall } from '../../shared/call.js';
import { activationOf, argOf, budgetOf, elementOf, isOpName, isSiteOp, parseOpArgs, specOf, type OpArgs, type SiteOpName } from '../../shared/ops.js';
import { leadsElsewhere } from './actions/destination.js';
import type { ContentResponse } from '../../shared/protocol.js';
import { errorData, orielError, toErrorData } from '../../shared/errors.js';
import { currentRegistry } from './document.js';
import type { ContentContext, ContentHandler, ContentHandlers } from './handlers.js';

type ContentOpName = SiteOpName<'content'>;
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
import { armDialogs, dialogsOp, disarmDialogs, refusalWhileShown, unansweredDialogError } from './dialogs.js';

/** In-flight calls by id, so a `cancel` from the background can abort them. */
const inflight = new Map<number, AbortController>();

const HANDLERS: ContentHandlers = {
  ...snapshotHandlers,
  ...actionHandlers,
  ...bridgeHandlers,
  ...pageToolHandlers,
  ...maskHandlers,
  /** The document this frame shows: its id (handle namespace), URL, title and origin (https://html.spec.whatwg.org/multipage/webappapis.html#dom-origin-dev). */
  document: (_args, ctx) => ({ document: ctx.registry.namespace, url: location.href, title: document.title, origin: window.origin, ready_state: document.readyState }),
  dialogs: (args) => dialogsOp(args),
  /** Aborts the content side of another call (best effort). */
  cancel: ({ call }) => {
    inflight.get(call)?.abort();
    return null;
  },
  lifeline: ({ hold }) => {
    // Only the top frame holds one: a tab needs one lifeline, whatever its frames.
    if (window === window.top) holdLifeline(hold);
    return null;
  },
};


async function answer(message: unknown): Promise<ContentResponse> {
  const registry = currentRegistry();
  const parsed = ContentCallSchema.safeParse(message);
  if (!parsed.success) return { ok: false, error: errorData('invalid_argument', 'malformed request to the content script'), document: registry.namespace };
  const call: ContentCall = parsed.data;
  const op = call.op;
  if (!isOpName(op) || !isSiteOp(op, 'content')) return { ok: false, error: errorData('unsupported', `unknown page operation "${op.slice(0, 40)}"`), document: registry.namespace };
  const args = parseOpArgs(op, call.args);
  if (!args.ok) return { ok: false, error: errorData('invalid_argument', args.message), document: registry.namespace };
  if (!HANDLERS[op]) return { ok: false, error: errorData('unsupported', `page operation "${op}" is not handled in this frame`), document: registry.namespace };
  // A dialog of the browser's own waits for the person: the page is stopped mid-step (Firefox runs this call inside
  // it), so nothing that reads or acts runs until it is answered; Oriel's own bookkeeping ops still answer.
  const shownDialog = specOf(op).capability === 'none' ? undefined : refusalWhileShown();
  if (shownDialog) return { ok: false, error: shownDialog.data, document: registry.namespace };
  const controller = new AbortController();
  if (call.id !== 0) inflight.set(call.id, controller);
  let redactor: Redactor | undefined;
  const ctx: ContentContext = {
    registry,
    signal: controller.signal,
    call: call.id,
    ...(call.budget && { deadline: call.budget.deadline }),
    // A call without a budget (Oriel's own) works under its op's default one.
    budget: call.budget ?? { deadline: Date.now() + budgetOf(op, args.args).ms, slack_ms: budgetOf(op, args.args).slack_ms },
    ...(call.input && { input: call.input }),
    redactor() {
      if (redactor) return redactor;
      if (!call.redaction) throw orielError('internal', 'The call reached the page without the redaction policy; Oriel refuses to act without it.');
      return (redactor = Redactor.fromPolicy(call.redaction));
    },
  };
  // A link or a submit that leads to another origin is not followed before consent judged it (shared/call.ts `leads_from`).
  const how = call.leads_from !== undefined ? activationOf(op, args.args) : undefined;
  const target = how && elementOf(op, args.args);
  const leadsTo = target ? leadsElsewhere(how, target, call.leads_from!, ctx) : undefined;
  if (leadsTo !== undefined) {
    return { ok: false, error: errorData('permission_denied', `Not carried out: the element leads to ${leadsTo}, which consent judges first.`), document: registry.namespace, leads_to: leadsTo };
  }
  // Acting calls answer the JavaScript dialogs they open (./dialogs.ts), as the op map says.
  const dialogs = specOf(op).arms_dialogs ? armDialogs({ dialog: argOf(args.args, 'dialog'), dialog_text: argOf(args.args, 'dialog_text'), dialog_policy: argOf(args.args, 'dialog_policy') }) : undefined;
  try {
    const value = await run(op, args.args, ctx);
    if (dialogs) {
      const unanswered = unansweredDialogError(dialogs);
      if (unanswered) throw unanswered;
      if (dialogs.seen.length > 0 && typeof value === 'object' && value !== null) (value as { dialogs?: unknown }).dialogs = dialogs.seen;
    }
    const navigating = typeof value === 'object' && value !== null && argOf(value, 'navigation_started') === true;
    // Not after a navigation the op started, nor for a call that was cancelled meanwhile (nobody waits for it).
    const read = call.then_read && !navigating && !ctx.signal.aborted ? await readAfter(call.then_read, ctx) : undefined;
    return { ok: true, value, document: currentRegistry().namespace, ...(read !== undefined && { then_read: read }) };
  } catch (err) {
    return { ok: false, error: toErrorData(err), document: currentRegistry().namespace };
  } finally {
    if (dialogs) disarmDialogs(dialogs);
    if (call.id !== 0) inflight.delete(call.id);
  }
}

/**
 * The reading a call asked for after its op (shared/call.ts `then_read`), or undefined when it cannot be read here:
 * the background then reads by itself, and reports the failure if it recurs (extension/background/action-changes.ts).
 */
async function readAfter(args: OpArgs<'snapshot.lines'>, ctx: ContentContext): Promise<unknown> {
  try {
    return await run('snapshot.lines', args, ctx);
  } catch {
    return undefined;
  }
}

/** Runs `op`'s handler (the table's entry for `op` takes `op`'s arguments). */
async function run<N extends ContentOpName>(op: N, args: OpArgs<N>, ctx: ContentContext): Promise<unknown> {
  const handler: ContentHandler<N> | undefined = HANDLERS[op];
  if (!handler) throw orielError('unsupported', `page operation "${op}" is not handled in this frame`);
  return handler(args, ctx);
}

chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
  // Only our own extension's background talks to us; page scripts cannot reach runtime messaging.
  if (sender.id !== chrome.runtime.id) return false;
  if (typeof message !== 'object' || message === null || (message as { oriel?: unknown }).oriel === undefined) return false;
  void answer(message).then(sendResponse);
  return true;
});

startBridge();
