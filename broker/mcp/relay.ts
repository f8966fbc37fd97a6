// `oriel mcp`: the stdio relay an MCP client spawns. Pipes newline-delimited JSON-RPC between the client and the hub,
// starting the hub if needed. stdout carries protocol only. Counterpart: broker/mcp/connection.ts (in the hub).
import { connectHub } from '../hub/spawn.js';
import { logger } from '../common/log.js';

const log = logger('mcp-relay');

export async function runMcpRelay(): Promise<void> {
  const socket = await connectHub({ t: 'hello', role: 'client', name: process.env.ORIEL_CLIENT_NAME ?? 'stdio' });
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
  process.stdin.on('end', () => socket.end());
  socket.on('close', () => {
    log.info('hub connection closed');
    process.exit(0);
  });
  socket.on('error', (err) => {
    log.error('hub connection error', { message: err.message });
    process.exit(1);
  });
}
