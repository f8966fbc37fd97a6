// The background's pipeline for one page call from the hub: validate the envelope and arguments once, then
// shared tab → target frame → consent → document guard → dispatch, under the call's deadline. Each stage is its own
// module (./shared-tab.ts, ./target.ts, ./consent.ts, ./guard.ts, ./dispatch.ts). Counterpart: broker/hub/hub.ts.
import { checkPageCall, type PageCall } from '../../../shared/call.js';
import { errorData, orielError, toErrorData } from '../../../shared/errors.js';
import { parseOpArgs, type PublicOpName } from '../../../shared/ops.js';
import type { BrowserToHub } from '../../../shared/protocol.js';
import { readSettings, type Settings } from '../../settings.js';
import { consent } from './consent.js';
import { withDiagnosedDeadline } from './deadline.js';
import { dispatch } from './dispatch.js';
import { documentGuard } from './guard.js';
import { cancelInFrames } from './running.js';
import { sharedTab } from './shared-tab.js';
import { target } from './target.js';
import type { CallState, Stage } from './types.js';

/** The stages every call passes before dispatch, in order. */
export const STAGES: readonly Stage[] = [sharedTab, target, consent, documentGuard];

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
  try {
    const value = await withDiagnosedDeadline(run(call, controller.signal), call.tab, call.op, call.deadline);
    const size = JSON.stringify(value ?? null).length;
    if (size > MAX_RESULT_BYTES) throw orielError('too_large', `The result (${size} bytes) is too large; narrow the request.`);
    return { t: 'result', id: call.id, ok: true, value: value ?? null };
  } catch (err) {
    return { t: 'result', id: call.id, ok: false, error: toErrorData(err) };
  } finally {
    controllers.delete(call.id);
  }
}

async function run(call: PageCall, signal: AbortSignal): Promise<unknown> {
  const checked = checkPageCall(call);
  if (!checked.ok) throw orielError('unsupported', checked.message);
  const parsed = parseOpArgs(checked.op, call.args);
  if (!parsed.ok) throw orielError('invalid_argument', parsed.message);
  const state: CallState = { call, op: checked.op as PublicOpName, args: parsed.args, tab: call.tab, settings: await currentSettings(), signal };
  for (const stage of STAGES) {
    signal.throwIfAborted();
    await stage(state);
  }
  return dispatch(state);
}

/** Best-effort cancel of a call: stops a stage that waits, and the content scripts running it. */
export function cancelCall(id: number): void {
  controllers.get(id)?.abort(errorData('cancelled', 'The call was cancelled.'));
  cancelInFrames(id);
}
