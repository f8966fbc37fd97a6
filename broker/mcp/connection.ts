// One MCP client connection inside the hub: newline-delimited JSON-RPC over the relay's socket, served in whichever
// protocol era the client opens with (SDK serveStdio over a stream transport). Lines are bounded and checked first:
// a line that is not a JSON-RPC message gets a JSON-RPC error and the connection goes on. Counterpart: relay.ts.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Hub } from '../hub/hub.js';
import { logger } from '../common/log.js';
import type { createMcpServer } from './server.js';
import { serverForClient } from './context.js';
import { LineSplitter, MAX_LINE_BYTES, oversizedError } from './lines.js';
import { checkLine } from './line-check.js';

const log = logger('mcp');

/**
 * Serves one client until its socket closes; each connection is its own caller (leases, cursors). `name` is what the
 * relay's hello said; the client's own `clientInfo.name` replaces it once a request carries it. `tools` are the tool
 * names the relay asked for (`oriel mcp --tools`), every tool when absent.
 */
export function serveClient(hub: Hub, socket: Socket, initial: Uint8Array, name?: string, tools?: readonly string[]): void {
  const clientId = `c${randomBytes(4).toString('hex')}`;
  const caller = hub.clients.add(clientId, name ?? 'MCP client');
  hub.events.emit('client_connected', caller);
  log.info('client connected', { clientId, name });
  const input = new PassThrough();
  const splitter = new LineSplitter(MAX_LINE_BYTES);
  const reply = (error: { code: number; message: string }, id?: string | number) => {
    if (!socket.destroyed) socket.write(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error }) + '\n');
  };
  const onBytes = (chunk: Buffer) => {
    for (const item of splitter.push(chunk)) {
      if ('oversized' in item) {
        log.warn('dropped an oversized line from a client', { clientId, limit: MAX_LINE_BYTES });
        reply(oversizedError(), item.id);
        continue;
      }
      const verdict = checkLine(item.line);
      if (!verdict) continue;
      if (verdict.kind === 'reply') {
        log.warn('answered a malformed line from a client', { clientId, code: verdict.error.code });
        reply(verdict.error, verdict.id);
      } else input.write(verdict.line + '\n');
    }
  };
  if (initial.byteLength) onBytes(Buffer.from(initial));
  socket.on('data', onBytes);
  socket.on('error', (err) => log.debug('client socket error', { clientId, message: err.message }));
  // The person's tool policy changed: every server of this connection tells its client (the SDK routes the notification
  // onto the client's `subscriptions/listen` stream in the 2026-07-28 era, and sends it unsolicited in the 2025 eras).
  const servers = new Set<ReturnType<typeof createMcpServer>>();
  const onToolsChanged = () => {
    for (const server of servers) server.sendToolListChanged();
  };
  hub.events.on('tools_changed', onToolsChanged);
  let closed = false;
  socket.on('close', () => {
    if (closed) return;
    closed = true;
    hub.events.off('tools_changed', onToolsChanged);
    servers.clear();
    const gone = hub.clients.remove(clientId);
    if (gone) hub.events.emit('client_gone', gone);
    log.info('client disconnected', { clientId });
    input.end();
  });

  const transport = new StdioServerTransport(input, socket);
  serveStdio(
    () => {
      const server = serverForClient(hub, clientId, caller, tools);
      if (!closed) servers.add(server);
      return server;
    },
    {
      transport,
      onerror: (err) => log.warn('mcp connection error', { clientId, message: err.message }),
    },
  );
}
