// Reaching the hub from a relay: connect to its socket, starting a detached hub process first when none answers.
import net from 'node:net';
import { spawn } from 'node:child_process';
import { openSync, mkdirSync, statSync, renameSync } from 'node:fs';
import path from 'node:path';
import { encodeFrame } from '../../shared/framing.js';
import type { SocketHello } from '../../shared/protocol.js';
import { ensurePrivateDir, hubMeeting, hubSocketCandidates, orielDirs, recordedHubSocket } from '../common/paths.js';
import { logger, MAX_LOG_BYTES } from '../common/log.js';

const log = logger('spawn');

/** How long a relay keeps trying to reach a hub it started, ms. */
const START_DEADLINE_MS = 15_000;

function tryConnect(socketPath: string): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', () => resolve(undefined));
  });
}

/**
 * Starts `oriel hub` detached, its stderr going to `<data>/hub.log` (moved to hub.log.1 first when past its bound; the
 * hub keeps it bounded while it runs). Several may start at once: the lock keeps one.
 */
export function startHubProcess(): void {
  const dirs = orielDirs();
  mkdirSync(dirs.data, { recursive: true });
  const logPath = path.join(dirs.data, 'hub.log');
  try {
    if (statSync(logPath).size > MAX_LOG_BYTES) renameSync(logPath, `${logPath}.1`);
  } catch {
    /* no log yet */
  }
  const logFd = openSync(logPath, 'a', 0o600);
  const cli = process.argv[1]!;
  const child = spawn(process.execPath, [cli, 'hub'], { detached: true, stdio: ['ignore', 'ignore', logFd], env: process.env });
  child.unref();
}

/**
 * Connects to the hub (starting it when needed) and sends the hello frame for `hello.role`.
 * @throws Error when no hub answers within 15 s.
 */
export async function connectHub(hello: SocketHello, options: { autostart?: boolean } = {}): Promise<net.Socket> {
  const dirs = orielDirs();
  // The hub another environment started (recorded in the meeting place, its folder checked) first, then this
  // process's own socket, once its folder is known to be private.
  const reach = async (): Promise<net.Socket | undefined> => {
    for (const candidate of hubSocketCandidates(dirs)) {
      const found = await tryConnect(candidate);
      if (found) return found;
    }
    return undefined;
  };
  const meeting = hubMeeting();
  const recorded = meeting && recordedHubSocket(meeting);
  let socket = recorded ? await tryConnect(recorded) : undefined;
  if (!socket) {
    if (dirs.fallback) log.warn('using the private runtime folder', { refused: dirs.fallback.refused, problem: dirs.fallback.problem, runtime: dirs.runtime });
    ensurePrivateDir(dirs.runtime); // throws RuntimeDirError, whose message `oriel doctor` repeats
    socket = await reach();
  }
  if (!socket && options.autostart !== false) {
    startHubProcess();
    let lastStart = Date.now();
    const deadline = Date.now() + START_DEADLINE_MS;
    let delay = 25;
    while (!socket && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, delay));
      // A hub that found a crashed hub's lock not yet stale exits; try again once the lock has gone stale.
      if (Date.now() - lastStart > 3_000) {
        startHubProcess();
        lastStart = Date.now();
      }
      delay = Math.min(delay * 2, 500);
      socket = await reach();
    }
  }
  if (!socket) throw new Error('the Oriel hub is not running and could not be started');
  socket.write(encodeFrame(hello));
  return socket;
}
