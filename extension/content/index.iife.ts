// Content script entry (every frame, document_start): answers operations the background sends for this frame.
// Counterpart: extension/background/frames.ts (sendToFrame).
import { ContentRequestSchema, type ContentResponse } from '../../shared/protocol.js';
import { errorData, toErrorData } from '../../shared/errors.js';
import { currentRegistry } from './document.js';
import type { ContentHandler } from './handlers.js';
import { snapshotHandlers } from './snapshot/index.js';
import { actionHandlers } from './actions/index.js';

const HANDLERS: Record<string, ContentHandler> = {
  ...snapshotHandlers,
  ...actionHandlers,
  /** The document this frame shows: its id (handle namespace), URL and title. */
  document: (_args, ctx) => ({ document: ctx.registry.namespace, url: location.href, title: document.title }),
};

/** In-flight calls by id, so a `cancel` from the background can abort them. */
const inflight = new Map<number, AbortController>();

async function answer(message: unknown): Promise<ContentResponse> {
  const registry = currentRegistry();
  const parsed = ContentRequestSchema.safeParse(message);
  if (!parsed.success) return { ok: false, error: errorData('invalid_argument', 'malformed request to the content script'), document: registry.namespace };
  const { op, args } = parsed.data;
  if (op === 'cancel') {
    inflight.get(Number(args.call))?.abort();
    return { ok: true, value: null, document: registry.namespace };
  }
  const handler = HANDLERS[op];
  if (!handler) return { ok: false, error: errorData('unsupported', `unknown page operation "${op}"`), document: registry.namespace };
  const controller = new AbortController();
  const call = typeof args.call === 'number' ? args.call : undefined;
  if (call !== undefined) inflight.set(call, controller);
  try {
    const value = await handler(args, { registry, signal: controller.signal });
    return { ok: true, value, document: currentRegistry().namespace };
  } catch (err) {
    return { ok: false, error: toErrorData(err), document: currentRegistry().namespace };
  } finally {
    if (call !== undefined) inflight.delete(call);
  }
}

chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
  // Only our own extension's background talks to us; page scripts cannot reach runtime messaging.
  if (sender.id !== chrome.runtime.id) return false;
  if (typeof message !== 'object' || message === null || (message as { oriel?: unknown }).oriel === undefined) return false;
  void answer(message).then(sendResponse);
  return true;
});
