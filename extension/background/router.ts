// Runs one call from the hub in a shared tab: checks sharing and the document guard, validates arguments, then hands
// the op to the background implementation or to the content script of the frame that owns the handle, with the
// user's redaction policy attached (content side: extension/content/redaction.ts).
import { errorData, OrielError, toErrorData } from '../../shared/errors.js';
import { OPS, type RedactionPolicy } from '../../shared/ops.js';
import type { BrowserToHub } from '../../shared/protocol.js';
import { readSettings, type Settings } from '../settings.js';
import { frameOfDocument, listFrames, sendToFrame } from './frames.js';
import { isShared } from './sharing.js';
import { snapshotTab } from './snapshot.js';
import { backgroundOps } from './ops/index.js';

/** Largest result the background sends up, bytes of JSON (the broker accepts 8 MiB frames). */
const MAX_RESULT_BYTES = 7 * 1024 * 1024;

/** Calls running in content scripts: call id → the tab and frames running it, so a cancel can reach them. */
const running = new Map<number, { tab: number; frames: number[] }>();

/** The user's settings, read once and kept until storage says they changed. */
let settings: Promise<Settings> | undefined;
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && 'settings' in changes) settings = undefined;
});

/** The redaction policy every content op receives, from the cached settings. */
async function redactionPolicy(): Promise<RedactionPolicy> {
  const current = (settings ??= readSettings());
  try {
    const s = await current;
    return { selectors: s.redactSelectors, value_limit: s.valueLimit };
  } catch (err) {
    // A failed read is not kept: the next call reads again.
    if (settings === current) settings = undefined;
    throw err;
  }
}

/** The namespace part of a handle. */
function namespaceOf(handle: string): string {
  return handle.slice(0, handle.indexOf('.'));
}

/**
 * Routes one call and returns the result frame for the hub. Never throws.
 */
export async function handleCall(message: { id: number; tab: number; op: string; args: Record<string, unknown>; timeout_ms?: number }): Promise<BrowserToHub> {
  try {
    const work = route(message.id, message.tab, message.op, message.args);
    const value = message.timeout_ms === undefined ? await work : await withDiagnosedDeadline(work, message.tab, message.op, message.timeout_ms);
    const size = JSON.stringify(value ?? null).length;
    if (size > MAX_RESULT_BYTES) throw new OrielError(errorData('too_large', `The result (${size} bytes) is too large; narrow the request.`));
    return { t: 'result', id: message.id, ok: true, value: value ?? null };
  } catch (err) {
    return { t: 'result', id: message.id, ok: false, error: toErrorData(err) };
  }
}

/**
 * Races `work` against a timer that fires just before the hub's deadline and tells why, if it can: a page whose top
 * frame no longer answers at all is blocked by a dialog (alert, confirm, prompt) or a busy script, which waiting or
 * snapshotting cannot fix. Rejects with `timeout` then; otherwise settles as `work` does.
 */
async function withDiagnosedDeadline<T>(work: Promise<T>, tab: number, op: string, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(async () => {
      const probe = chrome.tabs.sendMessage(tab, { oriel: 1, op: 'document', args: {} }, { frameId: 0 }).then(
        () => true,
        () => true,
      );
      const answered = await Promise.race([probe, new Promise<boolean>((r) => setTimeout(() => r(false), 200))]);
      reject(
        new OrielError(
          answered
            ? errorData('timeout', `"${op}" did not finish within ${timeoutMs} ms. The page may still complete it: snapshot to see its state.`)
            : errorData('timeout', `"${op}" did not finish within ${timeoutMs} ms, and the page is not responding: a dialog (alert, confirm, prompt) may be open, or a script is busy. Ask the user to look at the tab; snapshot will wait too until it is free.`, {
                retryable: false,
                next: 'ask the user to close the dialog or wait for the page',
              }),
        ),
      );
    }, Math.max(0, timeoutMs - 300));
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Best-effort cancel of a running content call, in every frame running it. */
export function cancelCall(id: number): void {
  const where = running.get(id);
  if (where) for (const frameId of where.frames) void sendToFrame(where.tab, frameId, 'cancel', { call: id }).catch(() => undefined);
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

  // Content ops always carry the user's redaction policy; the agent's own `redaction` field was dropped by the schema.
  const content = { ...args, call: id, redaction: await redactionPolicy() };
  const handle = typeof args.handle === 'string' ? args.handle : undefined;
  if (op === 'wait_for' && handle === undefined) return endsWithDocument(waitInEveryFrame(id, tab, content), tab, 0);
  let frameId = 0;
  if (handle !== undefined) {
    const found = await frameOfDocument(tab, namespaceOf(handle));
    if (found === undefined) {
      throw new OrielError(errorData('unknown_handle', `Handle ${handle} does not belong to any document now shown in this tab (it is from a previous page, another tab, or made up). Take a new snapshot.`));
    }
    frameId = found;
  }
  running.set(id, { tab, frames: [frameId] });
  try {
    const acts = op === 'click' || op === 'type';
    return (await endsWithDocument(sendToFrame(tab, frameId, op, content), tab, frameId, acts ? OWN_NAVIGATION_GRACE_MS : 0)).value;
  } finally {
    running.delete(id);
  }
}

/** Acting ops may cause the navigation themselves (a link, a submit): their answer gets this long to arrive, ms. */
const OWN_NAVIGATION_GRACE_MS = 1_000;

/**
 * Settles as `work` does, unless frame `frameId` of `tab` commits a new document first: the call then fails with
 * `stale_document` (its target's page is gone; what it would find in the new page is not what was asked for). For
 * ops that act (`graceMs` > 0) the navigation may be their own doing, so their answer still wins if it comes soon.
 */
async function endsWithDocument<T>(work: Promise<T>, tab: number, frameId: number, graceMs = 0): Promise<T> {
  let listener: ((d: { tabId: number; frameId: number }) => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gone = new Promise<never>((_, reject) => {
    const fail = () => reject(new OrielError(errorData('stale_document', 'The page navigated while this call was under way; it was not carried out in the new page. Take a new snapshot.')));
    listener = (d) => {
      if (d.tabId !== tab || d.frameId !== frameId) return;
      if (graceMs > 0) timer ??= setTimeout(fail, graceMs);
      else fail();
    };
    chrome.webNavigation.onCommitted.addListener(listener);
  });
  try {
    return await Promise.race([work, gone]);
  } finally {
    clearTimeout(timer);
    if (listener) chrome.webNavigation.onCommitted.removeListener(listener);
  }
}

/** Errors a frame gives when it cannot host the wait at all (no content script, mid-navigation): not an answer. */
const UNREACHABLE = new Set(['unsupported', 'stale_document']);

/**
 * `wait_for` by selector or text looks in every frame of the tab, as the snapshot does. To appear (`visible`,
 * `attached`) it is enough that one frame sees the target: the first frame to succeed answers and the others are
 * cancelled. To go (`hidden`, `detached`) every frame must agree, since a frame that never had the target succeeds at
 * once. Failing that, the top frame's error is the answer (or `timeout` when the top frame could not be asked).
 * Frames that load after the call starts are not searched.
 */
async function waitInEveryFrame(id: number, tab: number, args: Record<string, unknown>): Promise<unknown> {
  const frames = (await listFrames(tab)).map((f) => f.frameId).sort((a, b) => a - b);
  if (!frames.includes(0)) frames.unshift(0);
  const going = args.state === 'hidden' || args.state === 'detached';
  const entry = { tab, frames: [...frames] };
  running.set(id, entry);
  const cancelOthers = (except: number) => {
    for (const f of entry.frames) if (f !== except) void sendToFrame(tab, f, 'cancel', { call: id }).catch(() => undefined);
    entry.frames = [except];
  };
  try {
    const outcomes = frames.map((frameId) =>
      endsWithDocument(sendToFrame(tab, frameId, 'wait_for', args), tab, frameId).then(
        (reply) => ({ frameId, ok: true as const, value: reply.value }),
        (err: unknown) => ({ frameId, ok: false as const, err }),
      ),
    );
    if (!going) {
      // The first success wins; the race ends early without waiting for the frames still waiting.
      const first = await new Promise<{ frameId: number; value: unknown } | undefined>((resolve) => {
        let left = outcomes.length;
        for (const o of outcomes) {
          void o.then((r) => {
            if (r.ok) resolve({ frameId: r.frameId, value: r.value });
            else if (--left === 0) resolve(undefined);
          });
        }
      });
      if (first) {
        cancelOthers(first.frameId);
        return first.value;
      }
    }
    const settled = await Promise.all(outcomes);
    const answered = settled.filter((r) => r.ok || !isUnreachable(r.err));
    if (going && answered.length > 0 && answered.every((r) => r.ok)) {
      const top = answered.find((r) => r.frameId === 0) ?? answered[0]!;
      return top.ok ? top.value : undefined;
    }
    const topFailure = settled.find((r) => r.frameId === 0 && !r.ok);
    if (topFailure && !topFailure.ok && !isUnreachable(topFailure.err)) throw topFailure.err;
    const other = answered.find((r) => !r.ok);
    if (other && !other.ok) throw other.err;
    if (topFailure && !topFailure.ok) throw topFailure.err;
    throw new OrielError(errorData('timeout', 'No frame of this tab could be searched. Take a snapshot to see the page as it is.', { next: 'snapshot' }));
  } finally {
    running.delete(id);
  }
}

function isUnreachable(err: unknown): boolean {
  return err instanceof OrielError && UNREACHABLE.has(err.data.code);
}
