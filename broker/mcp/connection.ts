// One MCP client connection inside the hub: newline-delimited JSON-RPC over the relay's socket, served in whichever
// protocol era the client opens with (SDK serveStdio over a custom stream transport). Counterpart: broker/mcp/relay.ts.
import { randomBytes } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Hub } from '../hub/hub.js';
import { logger } from '../common/log.js';
import { createMcpServer } from './server.js';
import { makeToolContext } from './context.js';

const log = logger('mcp');

/** Serves one client; each connection is its own client identity (leases, message cursors). */
export function serveClient(hub: Hub, input: Readable, output: Writable, name?: string): void {
  const clientId = `c${randomBytes(4).toString('hex')}`;
  log.info('client connected', { clientId, name });
  const transport = new StdioServerTransport(input, output);
  serveStdio(
    () =>
      createMcpServer({
        clientId,
        context: (signal, target) => makeToolContext(hub, clientId, signal, target),
        disabled: () => new Set<string>(),
      }),
    { transport, onerror: (err) => log.warn('mcp connection error', { clientId, message: err.message }) },
  );
}
