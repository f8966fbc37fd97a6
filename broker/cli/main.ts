#!/usr/bin/env node
// The `oriel` command line: relays (mcp, native-host), the hub, `serve --http`, and the setup commands from setup.ts.
import { Command } from 'commander';
import { DEFAULT_TOOL_SET, setNames } from '../mcp/tools/sets.js';
import { SERVER_VERSION } from '../common/version.js';
import { DEFAULT_HTTP_PORT } from '../mcp/http-port.js';

// The browser starts `oriel native-host` and every MCP client starts `oriel mcp`, often: those relays load only what
// they use (each command's module is imported when it runs), so they answer in a fraction of the time the whole CLI
// (the hub's MCP server, the setup commands) takes to load.

/** How long after its start the hub loads the code it keeps for later (pdf.js), ms. */
const HUB_PRELOAD_DELAY_MS = 3_000;

/** Exit status of `oriel hub` when another hub already runs (docs/install.md, "Check the chain"). */
const HUB_ALREADY_RUNNING = 3;

/** The commands other programs start (the browser, MCP clients, a relay starting the hub): no setup command needed. */
const RELAYS = new Set(['mcp', 'native-host', 'hub']);

// Asked-for help and the version go to stdout (so they can be piped); usage errors go to stderr with a non-zero exit.
// `--version` is the top-level program's only (positional options): after `mcp` or `native-host` it is no longer read
// as the program's, so those commands never print anything but their protocol unless asked for their own `--help`.
const program = new Command('oriel')
  .description('Let MCP agents work in the browser tabs you share.')
  .version(SERVER_VERSION)
  .enablePositionalOptions()
  .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });

program
  .command('mcp')
  .description('stdio MCP endpoint for an agent (what MCP clients run); starts the hub if needed')
  .option('--tools <list>', `tools to serve: sets (${setNames().join(', ')}) and tool names, comma-separated`, DEFAULT_TOOL_SET)
  .action(async (opts: { tools: string }) => {
    let tools: string[] | undefined;
    if (opts.tools !== DEFAULT_TOOL_SET) {
      const [{ TOOLS }, { resolveToolSet }] = await Promise.all([import('../mcp/tools/index.js'), import('../mcp/tools/sets.js')]);
      try {
        tools = resolveToolSet(opts.tools, TOOLS.map((t) => t.name));
      } catch (err) {
        process.stderr.write(`oriel mcp: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(2);
      }
      if (tools.length === TOOLS.length) tools = undefined;
    }
    const { runMcpRelay } = await import('../mcp/relay.js');
    await runMcpRelay(tools ? { tools } : {});
  });

program
  .command('native-host')
  .description('native messaging host (the browser runs this)')
  .option('--allowed-ids <ids>', 'comma-separated extension ids this host accepts', '')
  .argument('[browserArgs...]')
  .allowUnknownOption(true)
  .action(async (browserArgs: string[], opts: { allowedIds: string }) => {
    const ids = opts.allowedIds.split(',').filter(Boolean);
    const { runNativeHost } = await import('../native-host/relay.js');
    await runNativeHost(ids, browserArgs);
  });

program
  .command('hub')
  .description('run the per-user hub in the foreground (normally started on demand)')
  .option('--idle-ms <ms>', 'exit after this long with no browser and no client')
  .addHelpText('after', `\nExit status: 0 when the hub stops (idle, SIGTERM or SIGINT); ${HUB_ALREADY_RUNNING} when a hub is already running (it is named on stderr).`)
  .action(async (opts: { idleMs?: string }) => {
    const [{ runHub }, { serveClient }, { startHttpServer }] = await Promise.all([import('../hub/server.js'), import('../mcp/connection.js'), import('../mcp/http.js')]);
    // What the hub may need days later is loaded once it serves (a moment after it starts, not in its way).
    setTimeout(() => void import('../mcp/pdf-text.js').then((m) => m.preloadPdfjs()).catch(() => undefined), HUB_PRELOAD_DELAY_MS).unref();
    if (await runHub({ serveClient, startHttp: startHttpServer, ...(opts.idleMs && { idleMs: Number(opts.idleMs) }) })) process.exit(0);
    // Another hub holds the lock (a relay that lost the race to start one lands here too; its stderr is hub.log).
    const [{ hubAlreadyRunningText }, { orielDirs }] = await Promise.all([import('./control.js'), import('../common/paths.js')]);
    process.stderr.write(await hubAlreadyRunningText(orielDirs(), process.env));
    process.exit(HUB_ALREADY_RUNNING);
  });

program
  .command('serve')
  .description('serve MCP over Streamable HTTP on a loopback address while this runs (off unless --http)')
  .option('--http', 'serve MCP over Streamable HTTP (bearer token, loopback only)')
  .option('--port <port>', 'TCP port (0 picks a free one)', String(DEFAULT_HTTP_PORT))
  .option('--host <host>', 'loopback address to bind: 127.0.0.1, ::1 or localhost', '127.0.0.1')
  .action(async (opts: { http?: boolean; port: string; host: string }) => {
    const { runServe, ServeRefused } = await import('./serve.js');
    try {
      process.exit(await runServe(opts));
    } catch (err) {
      if (!(err instanceof ServeRefused)) throw err;
      process.stderr.write(`oriel serve: ${err.message}\n`);
      process.exit(err.code);
    }
  });

// The setup commands (install, status, doctor, config, …) and their help, for every other command line.
if (!RELAYS.has(process.argv[2] ?? '')) (await import('./setup.js')).registerSetupCommands(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`oriel: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
