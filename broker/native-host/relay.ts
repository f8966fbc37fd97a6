// `oriel native-host`: the relay the browser spawns (native messaging). Checks the caller's extension id, validates
// every frame from the browser (size, JSON, known type) before it reaches the hub, and bounds what goes back.
// stdout carries frames only; logs go to stderr. Counterpart: extension/background/native.ts.
import { encodeFrame, FrameDecoder, HOST_TO_BROWSER_MAX_BYTES, INBOUND_MAX_BYTES, type DecodedFrame } from '../../shared/framing.js';
import { BrowserToHubSchema, type BrowserToHub, type HubToBrowser } from '../../shared/protocol.js';
import { connectHub } from '../hub/spawn.js';
import { errorData } from '../../shared/errors.js';
import { logger } from '../common/log.js';
import { SERVER_VERSION } from '../common/version.js';
import { orielDirs, runtimeDirIssue } from '../common/paths.js';

const log = logger('native-host');

/**
 * The caller's extension id from the browser's argv: Chromium passes `chrome-extension://<id>/`, Firefox passes the
 * manifest path then the add-on id. https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging
 */
export function callerId(argv: readonly string[]): string | undefined {
  for (const a of argv) {
    const m = /^chrome-extension:\/\/([a-p]{32})\/?$/.exec(a);
    if (m) return m[1];
  }
  const last = argv[argv.length - 1];
  if (argv.length >= 2 && last && !last.startsWith('chrome-extension://') && /@|^\{/.test(last)) return last;
  return undefined;
}

/**
 * What becomes of one frame from the browser: forwarded to the hub (`forward`: the frame, encoded for the hub socket)
 * when it is a valid message, else refused with the reason the browser is told (`rejected` frame) — and, for a
 * malformed `result` whose call id is readable, an error result the hub is sent instead, so the call settles at once
 * rather than at its deadline.
 */
export type FrameVerdict = { forward: Uint8Array } | { reject: string; settle?: BrowserToHub };

/** Judges one decoded frame from the browser ({@link FrameVerdict}). Never throws: a frame that cannot be checked is refused. */
export function judgeBrowserFrame(frame: DecodedFrame): FrameVerdict {
  if (frame.kind === 'oversized') return { reject: `frame of ${frame.bytes} bytes exceeds the ${INBOUND_MAX_BYTES}-byte limit` };
  if (frame.kind === 'invalid_json') return { reject: `frame is not UTF-8 JSON (${frame.reason})` };
  try {
    // The frame as it came, not as parsed: the hub validates it again on arrival.
    if (BrowserToHubSchema.safeParse(frame.value).success) return { forward: encodeFrame(frame.value, INBOUND_MAX_BYTES) };
  } catch (err) {
    // e.g. JSON nested too deeply to validate or encode again: refuse it like any other bad frame.
    return { reject: `frame could not be checked (${(err as Error).message.slice(0, 100)})` };
  }
  const value = frame.value as { t?: unknown; id?: unknown } | null;
  const id = value?.t === 'result' ? value.id : undefined;
  const reject = 'unknown or malformed message type';
  if (!Number.isSafeInteger(id)) return { reject };
  return { reject, settle: { t: 'result', id: id as number, ok: false, error: errorData('internal', 'The extension sent a malformed result for this call.') } };
}

function writeFrame(message: HubToBrowser | Record<string, unknown>): void {
  try {
    process.stdout.write(encodeFrame(message, HOST_TO_BROWSER_MAX_BYTES));
  } catch (err) {
    log.error('dropped a frame over the 1 MB host→browser cap', { message: (err as Error).message });
  }
}

/**
 * Runs the relay until the browser closes stdin.
 * @param allowedIds - extension ids this host was installed for; empty allows any (development only).
 * @param browserArgs - the arguments the browser passed.
 */
export async function runNativeHost(allowedIds: readonly string[], browserArgs: readonly string[]): Promise<void> {
  if (process.env.ORIEL_NATIVE_HOST_CHECK === '1') {
    // Judged with the environment the browser gives its host, which may differ from the shell's.
    const issue = runtimeDirIssue(orielDirs());
    writeFrame(issue ? { t: 'check', ok: false, error: issue } : { t: 'check', ok: true, version: SERVER_VERSION });
    return;
  }
  const caller = callerId(browserArgs);
  if (allowedIds.length > 0 && (caller === undefined || !allowedIds.includes(caller))) {
    log.error('refusing a caller this host was not installed for', { caller: caller ?? '(none)' });
    process.exitCode = 1;
    return;
  }
  const socket = await connectHub({ t: 'hello', role: 'browser', relay_pid: process.pid });
  const fromBrowser = new FrameDecoder(INBOUND_MAX_BYTES);
  const fromHub = new FrameDecoder(HOST_TO_BROWSER_MAX_BYTES);
  process.stdin.on('data', (chunk: Buffer) => {
    for (const frame of fromBrowser.push(chunk)) {
      const verdict = judgeBrowserFrame(frame);
      if ('forward' in verdict) {
        socket.write(verdict.forward);
        continue;
      }
      log.warn('rejected a frame from the browser', { reason: verdict.reject });
      writeFrame({ t: 'rejected', reason: verdict.reject });
      if (verdict.settle) socket.write(encodeFrame(verdict.settle, INBOUND_MAX_BYTES));
    }
  });
  process.stdin.on('end', () => {
    if (fromBrowser.pendingBytes > 0) log.warn('the browser closed the pipe in the middle of a frame', { bytes: fromBrowser.pendingBytes });
    socket.end();
  });
  socket.on('data', (chunk: Buffer) => {
    for (const frame of fromHub.push(chunk)) {
      if (frame.kind === 'frame') writeFrame(frame.value as HubToBrowser);
      else log.warn('dropped a bad frame from the hub', { kind: frame.kind });
    }
  });
  await new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    socket.on('error', (err) => {
      log.error('hub connection error', { message: err.message });
      resolve();
    });
  });
  process.exit(0);
}
