// The control connection to the hub socket, as `oriel status` and `oriel doctor` use it: hello, status, one answer.
// The hub's side lives in broker/hub. Never starts the hub.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { encodeFrame, FrameDecoder } from '../../shared/framing.js';
import { ControlStatusSchema, type ControlStatus } from '../../shared/protocol.js';
import { hubSocketCandidates, type OrielDirs } from '../common/paths.js';

/** What asking the hub for its status found. */
export type HubQuery =
  | { state: 'running'; status: ControlStatus }
  | { state: 'not_running'; detail: string }
  | { state: 'error'; detail: string };

/**
 * Connects to the hub socket, sends `{t:'hello', role:'control'}` then `{t:'status'}`, and waits for a frame that
 * matches {@link ControlStatusSchema}. A missing socket or a refused connection means the hub is not running.
 */
export function queryHubStatus(socketPath: string, timeoutMs = 3000): Promise<HubQuery> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    const decoder = new FrameDecoder();
    let settled = false;
    const finish = (result: HubQuery) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ state: 'error', detail: `the hub did not answer within ${timeoutMs} ms` }), timeoutMs);
    socket.on('connect', () => {
      socket.write(encodeFrame({ t: 'hello', role: 'control' }));
      socket.write(encodeFrame({ t: 'status' }));
    });
    socket.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) {
        if (frame.kind !== 'frame') return finish({ state: 'error', detail: `the hub sent an unreadable frame (${frame.kind})` });
        const status = ControlStatusSchema.safeParse(frame.value);
        if (status.success) return finish({ state: 'running', status: status.data });
        const error = (frame.value as { error?: { message?: unknown } } | null)?.error;
        if (error) return finish({ state: 'error', detail: `the hub refused the status request: ${String(error.message ?? JSON.stringify(error)).slice(0, 300)}` });
        // Any other frame (a greeting, say) is not the answer: keep reading.
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') finish({ state: 'not_running', detail: 'the hub is not running' });
      else finish({ state: 'error', detail: `cannot reach the hub socket (${err.code ?? err.message})` });
    });
    socket.on('close', () => finish({ state: 'error', detail: 'the hub closed the connection without answering the status request' }));
  });
}

/**
 * Asks the hub this process's relays would reach (broker/common/paths.ts, `hubSocketCandidates`: the recorded hub,
 * then this environment's own socket) for its status; the own socket's answer when none is running.
 */
export async function findHub(dirs: OrielDirs, env: NodeJS.ProcessEnv, timeoutMs = 3000): Promise<HubQuery & { socket: string }> {
  const candidates = hubSocketCandidates(dirs, env);
  let last: (HubQuery & { socket: string }) | undefined;
  for (const socket of candidates) {
    last = { ...(await queryHubStatus(socket, timeoutMs)), socket };
    if (last.state === 'running') return last;
  }
  return last!;
}

/**
 * The line `oriel hub` prints on stderr when another hub holds the lock: that hub's pid, socket (and version and
 * program, when it reports them) as it answers on the socket relays reach, or — while it does not answer yet (still
 * starting, or a hub that ended without cleaning up, whose lock goes stale within seconds) — the pid it recorded.
 */
export async function hubAlreadyRunningText(dirs: OrielDirs, env: NodeJS.ProcessEnv, timeoutMs = 1500): Promise<string> {
  const found = await findHub(dirs, env, timeoutMs);
  if (found.state === 'running') {
    const { status } = found;
    const runs = status.version !== undefined ? `, oriel ${status.version}${status.program ? ` from ${status.program}` : ''}` : '';
    return `oriel hub: a hub is already running (pid ${status.pid}, socket ${found.socket}${runs}); it serves every browser and client of yours, so this one exits. \`oriel status\` shows it.\n`;
  }
  let pid = '';
  try {
    pid = readFileSync(path.join(dirs.runtime, 'hub.pid'), 'utf8').trim();
  } catch {
    /* none recorded */
  }
  return `oriel hub: another hub holds the lock in ${dirs.runtime}${/^\d+$/.test(pid) ? ` (pid ${pid})` : ''} but does not answer on ${found.socket} yet (${found.detail}); it may still be starting. Run \`oriel status\` to see it.\n`;
}
