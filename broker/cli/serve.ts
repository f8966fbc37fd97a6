// `oriel serve --http`: asks the hub (starting it if needed) to serve MCP over Streamable HTTP on a loopback address,
// for as long as this command runs. The hub does the serving (broker/mcp/http.ts), so HTTP clients share its sessions
// and leases. Off unless asked; the bearer token lives in Oriel's config folder (broker/common/http-token.ts).
import type net from 'node:net';
import { encodeFrame, FrameDecoder } from '../../shared/framing.js';
import { ControlServingSchema } from '../../shared/protocol.js';
import { connectHub } from '../hub/spawn.js';
import { httpToken, httpTokenPath } from '../common/http-token.js';
import { loopbackAddress } from '../mcp/http.js';

/** Options of `oriel serve`. */
export interface ServeFlags {
  http?: boolean;
  host: string;
  port: string;
}

/** What went wrong before serving; `code` is the exit status. */
export class ServeRefused extends Error {
  constructor(
    message: string,
    readonly code = 2,
  ) {
    super(message);
  }
}

/**
 * Checks the flags: HTTP asked for, a loopback host, a port number.
 * @throws ServeRefused (exit 2) otherwise.
 */
export function checkServeFlags(flags: ServeFlags): { host: string; port: number } {
  if (!flags.http) throw new ServeRefused('nothing to serve: pass --http (MCP clients that start Oriel themselves use `oriel mcp` over stdio)');
  const host = loopbackAddress(flags.host);
  if (!host) throw new ServeRefused(`refusing to listen on ${JSON.stringify(flags.host)}: Oriel serves HTTP on a loopback address only (127.0.0.1, ::1 or localhost)`);
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ServeRefused(`--port must be a port number (0-65535), not ${JSON.stringify(flags.port)}`);
  return { host, port };
}

/** How one connection to the hub ended: refused (exit 1), stopped by a signal (exit 0), or the hub went away. */
type Outcome = { kind: 'refused' } | { kind: 'stopped' } | { kind: 'gone'; served: boolean };

/**
 * Asks the hub on `socket` to serve HTTP at `host`:`port` and waits until it refuses, a signal stops us, or the
 * connection closes. `onServing` gets the URL each time the hub starts serving.
 */
function serveOnce(socket: net.Socket, request: { host: string; port: number; token: string }, say: (line: string) => void, onServing: (url: string) => void): Promise<Outcome> {
  socket.write(encodeFrame({ t: 'serve_http', ...request }));
  const decoder = new FrameDecoder(64 * 1024);
  return new Promise<Outcome>((resolve) => {
    let served = false;
    const stop = () => {
      socket.end();
      resolve({ kind: 'stopped' });
    };
    socket.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) {
        const answer = frame.kind === 'frame' ? ControlServingSchema.safeParse(frame.value) : undefined;
        if (!answer?.success) continue;
        if (answer.data.t === 'refused') {
          say(`oriel serve: ${answer.data.reason}`);
          socket.end();
          resolve({ kind: 'refused' });
          return;
        }
        served = true;
        onServing(answer.data.url);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve({ kind: 'gone', served });
    });
  });
}

/**
 * Runs `oriel serve --http` until SIGINT/SIGTERM. When the hub goes away while serving, it is started again and asked
 * to serve on the same address (the port first served, so clients configured with `--port 0`'s answer keep working),
 * as the stdio relay reconnects (broker/mcp/relay.ts). Progress goes to `say` (stderr); the token is never printed here.
 * @returns the exit status: 0 when stopped by a signal, 1 when the hub refused or could not be reached again.
 * @throws ServeRefused when the flags are wrong (exit 2) or no hub can be reached at first (exit 1).
 */
export async function runServe(flags: ServeFlags, say: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<number> {
  const { host, port } = checkServeFlags(flags);
  const token = httpToken();
  const request = { host, port, token };
  let socket: net.Socket;
  try {
    socket = await connectHub({ t: 'hello', role: 'control' });
  } catch (err) {
    throw new ServeRefused(`cannot reach the Oriel hub: ${(err as Error).message}`, 1);
  }
  let first = true;
  const onServing = (url: string) => {
    // Keep the port the hub chose: a hub started again serves where clients were told to connect.
    const chosen = Number(new URL(url).port);
    if (Number.isInteger(chosen) && chosen > 0) request.port = chosen;
    if (!first) {
      say(`oriel serve: the hub is back; serving MCP over HTTP at ${url} again`);
      return;
    }
    first = false;
    say(`Oriel serves MCP over HTTP at ${url}`);
    say(`Clients send "Authorization: Bearer <token>"; the token is in ${httpTokenPath()}.`);
    say('`oriel config <client> --http` prints a client\'s configuration. Stop with Ctrl-C.');
  };
  for (;;) {
    const outcome = await serveOnce(socket, request, say, onServing);
    if (outcome.kind === 'stopped') return 0;
    // A hub that closes before serving (or refuses) is not restarted in a loop: that is an error to report.
    if (outcome.kind === 'refused' || !outcome.served) return 1;
    say('oriel serve: the hub went away; starting it again');
    try {
      socket = await connectHub({ t: 'hello', role: 'control' });
    } catch (err) {
      say(`oriel serve: could not reach a hub again (${(err as Error).message}); HTTP is no longer served`);
      return 1;
    }
  }
}
