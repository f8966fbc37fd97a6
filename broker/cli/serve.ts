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

/**
 * Runs `oriel serve --http` until SIGINT/SIGTERM or until the hub goes away. Progress goes to `say` (stderr); the
 * token is never printed here.
 * @returns the exit status.
 */
export async function runServe(flags: ServeFlags, say: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<number> {
  const { host, port } = checkServeFlags(flags);
  const token = httpToken();
  let socket: net.Socket;
  try {
    socket = await connectHub({ t: 'hello', role: 'control' });
  } catch (err) {
    throw new ServeRefused(`cannot reach the Oriel hub: ${(err as Error).message}`, 1);
  }
  socket.write(encodeFrame({ t: 'serve_http', host, port, token }));
  const decoder = new FrameDecoder(64 * 1024);
  return new Promise<number>((resolve) => {
    let serving = false;
    const stop = () => {
      socket.end();
      resolve(0);
    };
    socket.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) {
        const answer = frame.kind === 'frame' ? ControlServingSchema.safeParse(frame.value) : undefined;
        if (!answer?.success) continue;
        if (answer.data.t === 'refused') {
          say(`oriel serve: ${answer.data.reason}`);
          socket.end();
          resolve(1);
          return;
        }
        serving = true;
        say(`Oriel serves MCP over HTTP at ${answer.data.url}`);
        say(`Clients send "Authorization: Bearer <token>"; the token is in ${httpTokenPath()}.`);
        say('`oriel config <client> --http` prints a client\'s configuration. Stop with Ctrl-C.');
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (serving) say('oriel serve: the hub went away; HTTP is no longer served');
      resolve(1);
    });
  });
}
