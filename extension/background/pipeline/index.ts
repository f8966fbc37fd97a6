// The background's pipeline for one page call from the hub: validate the envelope and arguments once, then
// shared tab → no open dialog → target frame → consent → document guard → dispatch, under the call's deadline. Each
// stage is its own module (./shared-tab.ts, ./open-dialog.ts, ./target.ts, ./consent.ts, ./guard.ts, ./dispatch.ts).
// Counterpart: broker/hub/hub.ts.
import { checkPageCall, type PageCall } from '../../../shared/call.js';
import { errorData, orielError, toErrorData, type ErrorData } from '../../../shared/errors.js';
import { parseOpArgs, specOf } from '../../../shared/ops.js';
import type { BrowserToHub } from '../../../shared/protocol.js';
import { codeFields } from '../../consent/audit.js';
import { disabledTools, readSettings, type Settings } from '../../settings.js';
import { audit } from '../audit.js';
import { agentCallEnded, agentCallStarted } from '../downloads.js';
import { pdfOfTab } from '../pdf-tab.js';
import { post } from '../native.js';
import { afterDispatch } from './changes.js';
import { consent } from './consent.js';
import { CallClock, withDiagnosedDeadline } from './deadline.js';
import { dispatch } from './dispatch.js';
import { documentGuard } from './guard.js';
import { cancelInFrames } from './running.js';
import { sharedTab } from './shared-tab.js';
import { noOpenDialog, stopOnDialog } from './open-dialog.js';
import { target } from './target.js';
import type { CallState, Stage } from './types.js';

/** The stages every call passes before dispatch, in order. */
export const STAGES: readonly Stage[] = [sharedTab, noOpenDialog, target, consent, documentGuard];

/** Largest result the background sends up, bytes of JSON (the broker accepts 8 MiB frames). */
const MAX_RESULT_BYTES = 7 * 1024 * 1024;

/** Calls in the pipeline: id → controller, so a cancel from the hub reaches stages that wait (a prompt). */
const controllers = new Map<number, AbortController>();

/** The user's settings, read once and kept until storage says they changed. */
let settings: Promise<Settings> | undefined;
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && 'settings' in changes) settings = undefined;
});

async function currentSettings(): Promise<Settings> {
  const pending = (settings ??= readSettings());
  try {
    return await pending;
  } catch (err) {
    // A failed read is not kept: the next call reads again.
    if (settings === pending) settings = undefined;
    throw err;
  }
}

/** Runs one call and returns the result frame for the hub. Never throws. */
export async function runCall(call: PageCall): Promise<BrowserToHub> {
  const controller = new AbortController();
  controllers.set(call.id, controller);
  const clock = new CallClock(call.id, call.deadline, (event) => post({ t: 'event', event }));
  const seen: { state?: CallState } = {};
  let reply: BrowserToHub;
  agentCallStarted(call);
  try {
    let value = await withDiagnosedDeadline(run(call, controller.signal, clock, seen), call.tab, call.op, clock);
    // Downloads the call started (extension/background/downloads.ts) travel with its result, by id.
    const downloads = await agentCallEnded(call.id);
    if (downloads.length > 0 && typeof value === 'object' && value !== null && !Array.isArray(value)) value = { ...value, downloads };
    const size = JSON.stringify(value ?? null).length;
    if (size > MAX_RESULT_BYTES) throw orielError('too_large', `The result (${size} bytes) is too large; narrow the request.`);
    reply = { t: 'result', id: call.id, ok: true, value: value ?? null };
  } catch (err) {
    reply = { t: 'result', id: call.id, ok: false, error: toErrorData(err) };
  } finally {
    controllers.delete(call.id);
    void agentCallEnded(call.id);
  }
  if (seen.state?.exec) void auditUse(seen.state, reply.ok ? undefined : reply.error);
  return reply;
}

/** Every exec use goes to the audit log with its outcome: `ok`, or the error (a refusal included). */
function auditUse(state: CallState, error: ErrorData | undefined): Promise<void> {
  const exec = state.exec!;
  return audit({
    time: Date.now(),
    kind: 'use',
    session: state.call.session,
    origin: exec.origin,
    client: state.call.client.name,
    client_id: state.call.client.id,
    tool: state.op,
    ...(exec.code !== undefined && codeFields(exec.code, exec.codeHash)),
    ...(exec.operation !== undefined && { operation: exec.operation }),
    outcome: error?.code ?? 'ok',
    ran: state.dispatched === true,
  });
}

async function run(call: PageCall, signal: AbortSignal, clock: CallClock, seen: { state?: CallState }): Promise<unknown> {
  const checked = checkPageCall(call);
  if (!checked.ok) throw orielError('unsupported', checked.message);
  const parsed = parseOpArgs(checked.op, call.args);
  if (!parsed.ok) throw orielError('invalid_argument', parsed.message);
  const state: CallState = { call, op: checked.op, args: parsed.args, tab: call.tab, settings: await currentSettings(), signal, clock };
  seen.state = state;
  // A tab showing a PDF in the browser's viewer has no content script: ops that read it read the PDF itself (../pdf-tab.ts).
  if (specOf(state.op).reads_pdf && !disabledTools(state.settings).includes('snapshot')) {
    await sharedTab(state);
    const pdf = await pdfOfTab(state.tab, signal);
    if (pdf) return pdf;
  }
  for (const stage of STAGES) {
    signal.throwIfAborted();
    await stage(state);
  }
  state.dispatched = true;
  try {
    return await afterDispatch(state, await stopOnDialog(dispatch(state), state.tab, call.id));
  } finally {
    // The answer leaves once the navigation guard is narrowed (./guarded.ts); never fails the call.
    await state.guardReleased?.catch(() => undefined);
  }
}

/** Best-effort cancel of a call: stops a stage that waits, and the content scripts running it. */
export function cancelCall(id: number): void {
  controllers.get(id)?.abort(errorData('cancelled', 'The call was cancelled.'));
  cancelInFrames(id);
}
