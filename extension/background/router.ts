// Runs one call from the hub in a shared tab: checks sharing and the document guard, validates arguments, then hands
// the op to the background implementation or to the content script of the frame that owns the handle.
import { errorData, OrielError, toErrorData } from '../../shared/errors.js';
import { OPS } from '../../shared/ops.js';
import type { BrowserToHub } from '../../shared/protocol.js';
import { frameOfDocument, sendToFrame } from './frames.js';
import { isShared } from './sharing.js';
import { snapshotTab } from './snapshot.js';
import { backgroundOps } from './ops/index.js';

/** Largest result the background sends up, bytes of JSON (the broker accepts 8 MiB frames). */
const MAX_RESULT_BYTES = 7 * 1024 * 1024;

/** Calls running in a content script: call id → where, so a cancel can reach them. */
const running = new Map<number, { tab: number; frameId: number }>();

/** The namespace part of a handle. */
function namespaceOf(handle: string): string {
  return handle.slice(0, handle.indexOf('.'));
}

/**
 * Routes one call and returns the result frame for the hub. Never throws.
 */
export async function handleCall(message: { id: number; tab: number; op: string; args: Record<string, unknown> }): Promise<BrowserToHub> {
  try {
    const value = await route(message.id, message.tab, message.op, message.args);
    const size = JSON.stringify(value ?? null).length;
    if (size > MAX_RESULT_BYTES) throw new OrielError(errorData('too_large', `The result (${size} bytes) is too large; narrow the request.`));
    return { t: 'result', id: message.id, ok: true, value: value ?? null };
  } catch (err) {
    return { t: 'result', id: message.id, ok: false, error: toErrorData(err) };
  }
}

/** Best-effort cancel of a running content call. */
export function cancelCall(id: number): void {
  const where = running.get(id);
  if (where) void sendToFrame(where.tab, where.frameId, 'cancel', { call: id }).catch(() => undefined);
}

async function route(id: number, tab: number, op: string, rawArgs: Record<string, unknown>): Promise<unknown> {
  if (!(await isShared(tab))) throw new OrielError(errorData('session_gone', 'This tab is no longer shared.'));
  const { document: expected, ...rest } = rawArgs;
  const schema = (OPS as Record<string, { args: { safeParse(v: unknown): { success: boolean; data?: unknown; error?: { message: string } } } }>)[op]?.args;
  let args = rest;
  if (schema) {
    const parsed = schema.safeParse(rest);
    if (!parsed.success) throw new OrielError(errorData('invalid_argument', `Invalid arguments for ${op}: ${parsed.error?.message ?? ''}`.slice(0, 1000)));
    args = parsed.data as Record<string, unknown>;
  }
  if (typeof expected === 'string') {
    const now = await sendToFrame(tab, 0, 'document', {});
    if (now.document !== expected) {
      throw new OrielError(errorData('stale_document', `The tab now shows another document (doc=${now.document}, expected ${expected}). Take a new snapshot.`, { details: { document: now.document } }));
    }
  }
  if (op === 'snapshot') return snapshotTab(tab, args as never);
  const inBackground = backgroundOps[op];
  if (inBackground) return inBackground(tab, args);

  const handle = typeof args.handle === 'string' ? args.handle : undefined;
  let frameId = 0;
  if (handle !== undefined) {
    const found = await frameOfDocument(tab, namespaceOf(handle));
    if (found === undefined) {
      throw new OrielError(errorData('unknown_handle', `Handle ${handle} does not belong to any document now shown in this tab (it is from a previous page, another tab, or made up). Take a new snapshot.`));
    }
    frameId = found;
  }
  running.set(id, { tab, frameId });
  try {
    return (await sendToFrame(tab, frameId, op, { ...args, call: id })).value;
  } finally {
    running.delete(id);
  }
}
