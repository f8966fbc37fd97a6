#!/usr/bin/env node
// The `oriel` command line: relays (mcp, native-host), the hub, and the setup commands from setup.ts.
import { Command } from 'commander';
import { runHub } from '../hub/server.js';
import { runMcpRelay } from '../mcp/relay.js';
import { runNativeHost } from '../native-host/relay.js';
import { SERVER_VERSION } from '../common/version.js';
import { serveClient } from '../mcp/connection.js';
import { registerSetupCommands } from './setup.js';

const program = new Command('oriel')
  .description('Let MCP agents work in the browser tabs you share.')
  .version(SERVER_VERSION)
  .configureOutput({ writeOut: (s) => process.stderr.write(s), writeErr: (s) => process.stderr.write(s) });

program
  .command('mcp')
  .description('stdio MCP endpoint for an agent (what MCP clients run); starts the hub if needed')
  .action(async () => runMcpRelay());

program
  .command('native-host')
  .description('native messaging host (the browser runs this)')
  .option('--allowed-ids <ids>', 'comma-separated extension ids this host accepts', '')
  .argument('[browserArgs...]')
  .allowUnknownOption(true)
  .action(async (browserArgs: string[], opts: { allowedIds: string }) => {
    const ids = opts.allowedIds.split(',').filter(Boolean);
    await runNativeHost(ids, browserArgs);
  });

program
  .command('hub')
  .description('run the per-user hub in the foreground (normally started on demand)')
  .option('--idle-ms <ms>', 'exit after this long with no browser and no client')
  .action(async (opts: { idleMs?: string }) => {
    await runHub({ serveClient, ...(opts.idleMs && { idleMs: Number(opts.idleMs) }) });
    process.exit(0);
  });

registerSetupCommands(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`oriel: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
