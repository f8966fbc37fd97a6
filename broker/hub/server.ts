// The hub process: one per user, on a private local socket; owns the Hub state and accepts relay connections
// (browser = native-host relay, client = `oriel mcp`, control = `oriel status`/`doctor`/`serve`). Started by
// broker/hub/spawn.ts.
import net from 'node:net';
import { existsSync, unlinkSync, chmodSync, writeFileSync, rmSync, realpathSync } from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { FrameDecoder, encodeFrame, INBOUND_MAX_BYTES, HOST_TO_BROWSER_MAX_BYTES } from '../../shared/framing.js';
import {
  BrowserToHubSchema,
  ControlRequestSchema,
  SocketHelloSchema,
  WIRE_VERSION,
  type ControlServing,
  type ControlStatus,
  type HubToBrowser,
} from '../../shared/protocol.js';
import { ensurePrivateDir, hubMeeting, hubSocketPath, orielDirs, removeHubRecord, writeHubRecord } from '../common/paths.js';
import { limitLogFile, logger } from '../common/log.js';
import { SERVER_VERSION } from '../common/version.js';
import { Hub, type BrowserLink } from './hub.js';

const log = logger('hub');

/** Default idle time before the hub exits with no browser and no client, ms (override: ORIEL_HUB_IDLE_MS). */
export const DEFAULT_IDLE_MS = 5 * 60_000;
/** A connection must say hello within this many ms. */
const HELLO_TIMEOUT_MS = 5_000;

/** Serves one MCP client connection (broker/mcp/connection.ts); given to the hub so the hub never imports the MCP layer. */
export type ClientServer = (hub: Hub, socket: net.Socket, initial: Uint8Array, name?: string, tools?: readonly string[]) => void;

/** Starts the HTTP transport in the hub (broker/mcp/http.ts); given to the hub like {@link ClientServer}. */
export type HttpStarter = (hub: Hub, options: { host: string; port: number; token: string }) => Promise<{ url: string; close(): Promise<void> }>;

/**
 * Runs the hub until it is idle for `idleMs`. Exits quietly (resolving `false`) when another hub already holds the
 * lock: two relays starting at once make one hub.
 */
export async function runHub(options: { idleMs?: number; serveClient: ClientServer; startHttp?: HttpStarter }): Promise<boolean> {
  const dirs = orielDirs();
  ensurePrivateDir(dirs.runtime);
  const socketPath = hubSocketPath(dirs);
  // One lock per user and host wherever this hub's socket goes: relays started with other environments (another
  // runtime folder) meet at the same lock, so they make one hub, and find it by its record.
  const meeting = hubMeeting();
  if (meeting) ensurePrivateDir(meeting.dir);
  // The runtime folder's lock too: a hub of another home folder may use the same runtime folder, and must not have
  // its socket replaced.
  const locks: Array<() => Promise<void>> = [];
  const release = () => Promise.all(locks.map((r) => r().catch(() => undefined)));
  for (const target of [path.join(dirs.runtime, 'hub'), ...(meeting ? [meeting.lock] : [])]) {
    try {
      locks.push(await lockfile.lock(target, { realpath: false, stale: 5_000, update: 1_500, retries: 0 }));
    } catch (err) {
      log.info('another hub holds the lock; exiting', { lock: target, reason: (err as Error).message });
      await release();
      return false;
    }
  }
  if (process.platform !== 'win32' && existsSync(socketPath)) unlinkSync(socketPath);
  // Started by a relay, the hub's stderr is <data>/hub.log (./spawn.ts): keep it bounded however much is logged.
  limitLogFile(path.join(dirs.data, 'hub.log'));

  const hub = new Hub(log);
  const http = new HttpSlot(hub, options.startHttp);
  const server = net.createServer((socket) => accept(hub, socket, options.serveClient, http));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  if (process.platform !== 'win32') chmodSync(socketPath, 0o600);
  writeFileSync(path.join(dirs.runtime, 'hub.pid'), String(process.pid), { mode: 0o600 });
  if (meeting) writeHubRecord(meeting, socketPath);
  log.info('hub listening', { pid: process.pid, socket: socketPath });

  const idleMs = options.idleMs ?? (Number(process.env.ORIEL_HUB_IDLE_MS) || DEFAULT_IDLE_MS);
  let idleSince = Date.now();
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (hub.busy) idleSince = Date.now();
      else if (Date.now() - idleSince >= idleMs) {
        clearInterval(check);
        resolve();
      }
    }, Math.min(1000, Math.max(50, idleMs / 4)));
    const stop = () => {
      clearInterval(check);
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  log.info('hub exiting (idle)');
  await http.stop();
  server.close();
  rmSync(path.join(dirs.runtime, 'hub.pid'), { force: true });
  if (meeting) removeHubRecord(meeting, socketPath);
  if (process.platform !== 'win32' && existsSync(socketPath)) unlinkSync(socketPath);
  await release();
  return true;
}

/** Reads the hello frame of a new connection and hands the socket to the matching role. */
function accept(hub: Hub, socket: net.Socket, serveClient: ClientServer, http: HttpSlot): void {
  const decoder = new FrameDecoder(64 * 1024);
  const timer = setTimeout(() => socket.destroy(), HELLO_TIMEOUT_MS);
  const onData = (chunk: Buffer) => {
    const frames = decoder.push(chunk, 1);
    if (frames.length === 0) return;
    clearTimeout(timer);
    socket.off('data', onData);
    const first = frames[0]!;
    const hello = first.kind === 'frame' ? SocketHelloSchema.safeParse(first.value) : undefined;
    if (!hello?.success) {
      log.warn('connection without a valid hello; closing', { kind: first.kind });
      socket.destroy();
      return;
    }
    const rest = decoder.detach();
    if (hello.data.role === 'client') {
      serveClient(hub, socket, rest, hello.data.name, hello.data.tools);
    } else if (hello.data.role === 'browser') {
      serveBrowser(hub, socket, rest);
    } else {
      serveControl(hub, socket, rest, http);
    }
  };
  socket.on('data', onData);
  socket.on('error', (err) => log.debug('socket error', { message: err.message }));
}

/** A native-host relay connection: frames in both directions; the first browser frame must be the extension's hello. */
function serveBrowser(hub: Hub, socket: net.Socket, initial: Uint8Array): void {
  const decoder = new FrameDecoder(INBOUND_MAX_BYTES);
  let link: BrowserLink | undefined;
  const send = (message: HubToBrowser) => {
    if (!socket.destroyed) socket.write(encodeFrame(message, HOST_TO_BROWSER_MAX_BYTES));
  };
  const reject = (reason: string) => {
    log.warn('rejected browser frame', { reason });
    try {
      send({ t: 'rejected', reason });
    } catch {
      /* socket gone */
    }
  };
  const onBytes = (chunk: Uint8Array) => {
    try {
      handleFrames(chunk);
    } catch (err) {
      log.error('failed to handle a browser frame', { message: (err as Error).message });
    }
  };
  const handleFrames = (chunk: Uint8Array) => {
    for (const frame of decoder.push(chunk)) {
      if (frame.kind === 'oversized') reject(`frame of ${frame.bytes} bytes exceeds ${INBOUND_MAX_BYTES}`);
      else if (frame.kind === 'invalid_json') reject(`frame is not JSON: ${frame.reason}`);
      else {
        const parsed = BrowserToHubSchema.safeParse(frame.value);
        if (!parsed.success) {
          reject(`unknown or malformed message (${describeType(frame.value)})`);
          continue;
        }
        const message = parsed.data;
        if (!link) {
          if (message.t !== 'hello') {
            reject('the first message must be hello');
            continue;
          }
          if (message.wire !== WIRE_VERSION) {
            reject(`wire version ${message.wire} is not spoken here (expected ${WIRE_VERSION})`);
            socket.end();
            return;
          }
          link = { info: message.browser, send, close: () => socket.destroy() };
          send({ t: 'welcome', wire: WIRE_VERSION });
          hub.attachBrowser(link, message.tabs);
        } else hub.fromBrowser(link, message);
      }
    }
  };
  if (initial.byteLength) onBytes(initial);
  socket.on('data', onBytes);
  socket.on('close', () => {
    if (decoder.pendingBytes > 0) log.warn('browser connection closed in the middle of a frame', { bytes: decoder.pendingBytes });
    if (link) hub.detachBrowser(link);
  });
}

/**
 * The hub's one HTTP transport: started for an `oriel serve --http` control connection and stopped when that connection
 * closes. While it runs the hub is not idle.
 */
class HttpSlot {
  private running?: { url: string; close(): Promise<void>; owner: net.Socket; release(): void };

  constructor(
    private readonly hub: Hub,
    private readonly startHttp: HttpStarter | undefined,
  ) {}

  /** The URL served now (`http://127.0.0.1:<port>/mcp`), or undefined while nothing is served. */
  get url(): string | undefined {
    return this.running?.url;
  }

  async start(owner: net.Socket, options: { host: string; port: number; token: string }): Promise<ControlServing> {
    if (!this.startHttp) return { t: 'refused', reason: 'this hub was started without the HTTP transport' };
    if (this.running) return { t: 'refused', reason: `the hub already serves MCP over HTTP at ${this.running.url}` };
    try {
      const served = await this.startHttp(this.hub, options);
      this.running = { ...served, owner, release: this.hub.hold() };
      owner.once('close', () => void this.stop(owner));
      return { t: 'serving', url: served.url };
    } catch (err) {
      return { t: 'refused', reason: (err as Error).message.slice(0, 500) };
    }
  }

  async stop(owner?: net.Socket): Promise<void> {
    const r = this.running;
    if (!r || (owner && r.owner !== owner)) return;
    this.running = undefined;
    r.release();
    await r.close().catch((err: Error) => log.warn('closing the HTTP transport failed', { message: err.message }));
    log.info('stopped serving MCP over HTTP');
  }
}

/**
 * A control connection: `oriel status` and `oriel doctor` ask for the status (one answer per request); `oriel serve
 * --http` asks the hub to serve HTTP for as long as the connection stays open.
 */
function serveControl(hub: Hub, socket: net.Socket, initial: Uint8Array, http: HttpSlot): void {
  const decoder = new FrameDecoder(64 * 1024);
  const onBytes = (chunk: Uint8Array) => {
    for (const frame of decoder.push(chunk)) {
      const request = frame.kind === 'frame' ? ControlRequestSchema.safeParse(frame.value) : undefined;
      if (!request?.success) {
        // Never log the frame itself: a serve request carries the HTTP token.
        log.warn('rejected control frame', { kind: frame.kind });
        // A serve request that does not validate (a token too short, say) is refused with the field at fault, not left unanswered.
        const serve = frame.kind === 'frame' && (frame.value as { t?: unknown } | null)?.t === 'serve_http';
        if (serve && !socket.destroyed) {
          const field = request?.error.issues[0]?.path.join('.') || 'request';
          socket.write(encodeFrame({ t: 'refused', reason: `invalid serve_http request: ${field} is not valid` }, INBOUND_MAX_BYTES));
        }
        continue;
      }
      if (request.data.t === 'serve_http') {
        const { host, port, token } = request.data;
        void http.start(socket, { host, port, token }).then((answer) => {
          if (!socket.destroyed) socket.write(encodeFrame(answer, INBOUND_MAX_BYTES));
        });
        continue;
      }
      socket.write(encodeFrame(controlStatus(hub, http.url), INBOUND_MAX_BYTES));
    }
  };
  if (initial.byteLength) onBytes(initial);
  socket.on('data', onBytes);
  socket.on('error', (err) => log.debug('control socket error', { message: err.message }));
}

/**
 * The CLI file this hub was started from (`node <cli> hub`), symlinks resolved as `oriel doctor` resolves its own, so
 * the two compare; undefined when Node was given no script.
 */
function hubProgram(argv1: string | undefined = process.argv[1]): string | undefined {
  if (!argv1) return undefined;
  try {
    return realpathSync(argv1);
  } catch {
    return path.resolve(argv1);
  }
}

function controlStatus(hub: Hub, httpUrl: string | undefined): ControlStatus {
  const program = hubProgram();
  return {
    t: 'status',
    pid: process.pid,
    started_at: hub.startedAt.toISOString(),
    version: SERVER_VERSION,
    ...(program && { program }),
    browsers: hub.browserList(),
    sessions: hub.sessions.all().map((s) => {
      const held = hub.leaseOf(s.id);
      const lease = held && { client: held.holder.name, expires_at: new Date(held.expiresAt).toISOString(), max_until: new Date(held.maxUntil).toISOString() };
      const bridge = hub.bridge.stats(s.id);
      return { id: s.id, title: s.info.title, url: s.info.url, browser: s.browser, connected: s.connected, queued: hub.scheduler.depth(s.id), ...(s.info.withheld && { withheld: true }), ...(bridge && { bridge }), ...(lease && { lease }) };
    }),
    clients: hub.clients.size,
    prompts: hub.promptList(),
    ...(httpUrl !== undefined && { http: { url: httpUrl } }),
  };
}

function describeType(value: unknown): string {
  if (typeof value === 'object' && value !== null && 't' in value) return `t=${JSON.stringify((value as { t: unknown }).t).slice(0, 40)}`;
  return typeof value;
}
