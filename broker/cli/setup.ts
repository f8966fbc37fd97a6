// The setup half of the `oriel` CLI (docs/install.md): setup, install, uninstall, doctor, status, config.
// broker/cli/main.ts calls registerSetupCommands; the logic lives in the neighbouring modules.
import path from 'node:path';
import { Argument, Option, type Command } from 'commander';
import { runtimeDirIssue, type OrielDirs } from '../common/paths.js';
import { BROWSER_NAMES, type BrowserName } from './browsers.js';
import { ASK_IN_APP_NOTE, clientConfig, clientHttpConfig, hubLocationEnv, MCP_CLIENTS, type McpClient } from './client-config.js';
import { httpToken, httpTokenPath } from '../common/http-token.js';
import { DEFAULT_HTTP_PORT, MCP_PATH } from '../mcp/http-port.js';
import { TOOLS } from '../mcp/tools/index.js';
import { resolveToolSet, setNames, TOOL_SETS } from '../mcp/tools/sets.js';
import { currentContext, SetupError, type SetupContext } from './context.js';
import { findHub } from './control.js';
import { formatDoctor, runDoctor } from './doctor.js';
import { applyInstall, planInstall, type InstallPlan } from './install.js';
import { chromiumOrigin } from './manifests.js';
import { extensionBuilds, loadSteps, type ExtensionBuilds, type LoadStep } from './extension-builds.js';
import { formatNotRunning, formatStatus, statusJson } from './status.js';
import { escapeJson } from '../../shared/snapshot/escape.js';
import { SERVER_VERSION } from '../common/version.js';
import { uninstall, type UninstallResult } from './uninstall.js';

/** Where the commands write and which machine they act on; tests replace all three. */
export interface SetupIo {
  out(text: string): void;
  err(text: string): void;
  /** Sets the exit code (default: `process.exitCode`). */
  exit(code: number): void;
  context(): SetupContext;
}

const defaultIo: SetupIo = {
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
  exit: (code) => {
    process.exitCode = code;
  },
  context: () => currentContext(),
};

interface SelectionFlags {
  browser?: BrowserName[];
  all?: boolean;
  chromiumProfile?: string;
  extensionId: string[];
  json?: boolean;
  dryRun?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** Runs a command body; a {@link SetupError} becomes a one-line message on stderr and exit code 1. */
function guarded<A extends unknown[]>(io: SetupIo, body: (...args: A) => Promise<number>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      const code = await body(...args);
      if (code !== 0) io.exit(code);
    } catch (err) {
      if (!(err instanceof SetupError)) throw err;
      io.err(`oriel: ${err.message}\n`);
      io.exit(1);
    }
  };
}

function indent(text: string): string {
  return text.replace(/\n$/, '').split('\n').map((l) => `    ${l}`).join('\n');
}

const INSTALL_NEXT = 'Next: load the extension in the browser (`oriel setup` prints where it is), then run `oriel doctor`.';

function installText(plan: InstallPlan, ctx: SetupContext, dryRun: boolean, next = INSTALL_NEXT): string {
  const lines: string[] = [];
  if (dryRun) {
    lines.push('Dry run: nothing was written. `oriel install` would:');
    for (const dir of plan.dirs) lines.push(`  create folder ${dir}`);
    for (const f of plan.files) {
      const what = f.role === 'launcher' ? `launcher, mode ${f.mode.toString(8)}` : `host manifest for ${f.targets.join(', ')}`;
      lines.push(`  write ${f.path} (${what}):`, indent(f.content));
    }
    for (const r of plan.registry) lines.push(`  run reg ${r.args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}`);
    lines.push(`  record all of it in ${plan.recordPath}`);
    return lines.join('\n') + '\n';
  }
  lines.push(`Registered native host for: ${plan.targets.map((t) => t.label).join(', ')}`);
  const width = Math.max('launcher'.length, ...plan.targets.map((t) => t.id.length));
  lines.push(`  ${'launcher'.padEnd(width)}  ${plan.launcher}`, `  ${''.padEnd(width)}  runs ${ctx.nodePath} ${ctx.cliPath}`);
  for (const t of plan.targets) lines.push(`  ${t.id.padEnd(width)}  ${t.manifestPath}${t.registryKey ? `  (registry: ${t.registryKey})` : ''}`);
  lines.push(`Allowed extensions: ${[...plan.ids.chromium.map(chromiumOrigin), ...plan.ids.firefox].join(', ')}`);
  lines.push(`Recorded in ${plan.recordPath}; \`oriel uninstall\` removes exactly these.`);
  if (next) lines.push(next);
  return lines.join('\n') + '\n';
}

/** The second half of `oriel setup`'s report: where the extension is and how to load it into each browser. */
function loadText(builds: ExtensionBuilds, steps: LoadStep[]): string {
  const lines = [`Load the extension (it ships with this CLI, in ${path.dirname(builds.chromium)}):`];
  for (const s of steps) {
    lines.push(`  ${s.label}: open ${s.page} (type it in the address bar)`);
    s.steps.forEach((step, i) => lines.push(`    ${i + 1}. ${step}`));
  }
  if (builds.chromium.split(path.sep).includes('_npx')) {
    lines.push('Note: this copy lives in npm\'s npx cache, which npm may clear or replace; the browser runs it as the native', 'host. For a lasting install: `npm install -g oriel`, then `oriel setup` again.');
  }
  lines.push(
    'Then share a tab from the Oriel toolbar button, check the chain with `oriel doctor`, and print your MCP',
    `client's entry with \`oriel config <client>\` (${MCP_CLIENTS.join(', ')}).`,
  );
  return lines.join('\n') + '\n';
}

function uninstallText(result: UninstallResult, dryRun: boolean): string {
  const label: Record<UninstallResult['steps'][number]['outcome'], string> = {
    removed: 'removed',
    would_remove: 'would remove',
    absent: 'already gone',
    kept_not_empty: 'kept (not empty)',
    refused: 'left alone',
    failed: 'FAILED',
  };
  const lines = [dryRun ? 'Dry run: nothing was removed.' : result.recordFound ? 'Uninstalled Oriel\'s native host.' : 'Nothing recorded by `oriel install`; nothing to remove.'];
  for (const s of result.steps) {
    if (s.outcome === 'absent' && !result.recordFound) continue;
    lines.push(`  ${label[s.outcome].padEnd(16)}  ${s.path}${s.detail ? `  (${s.detail})` : ''}`);
  }
  return lines.join('\n') + '\n';
}

/** What `oriel config` says about tool sets under a stdio snippet: which tools it serves and how to pick others. */
export function toolSetHint(tools: string | undefined): string[] {
  return [
    '',
    `Tools: ${tools === undefined || tools === 'all' ? `every tool (${TOOLS.length}).` : `only ${tools}.`} A smaller set sends your model a shorter tool list on every turn:`,
    `  --tools core          reading and basic acting (${TOOL_SETS.core.length} tools: ${TOOL_SETS.core.join(', ')})`,
    `  --tools core,evaluate a set plus tools or other sets (${Object.keys(TOOL_SETS).filter((s) => s !== 'core').join(', ')})`,
    '  --tools all           every tool (the default)',
    `Print the entry with one, e.g. \`oriel config <client> --tools core\` (docs/tools.md, "Tool sets").`,
  ];
}

/**
 * The URL a running `oriel serve --http` serves (asked of the hub this environment's relays reach, which is never
 * started for it), or undefined when no hub runs or it serves no HTTP. Waits at most 1,500 ms.
 */
async function servedHttpUrl(dirs: OrielDirs, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const found = await findHub(dirs, env, 1_500);
  return found.state === 'running' ? found.status.http?.url : undefined;
}

/** Adds `install`, `uninstall`, `doctor`, `status` and `config <client>` to the `oriel` program. */
export function registerSetupCommands(program: Command, io: SetupIo = defaultIo): void {
  const browserOption = () => new Option('--browser <name...>', 'only these browsers').choices(BROWSER_NAMES);

  program
    .command('setup')
    .description('register the native host with the browsers found and say where to load the extension')
    .addOption(browserOption())
    .option('--all', 'register with every supported browser, installed or not')
    .option('--chromium-profile <dir>', 'register in <dir>/NativeMessagingHosts (a Chromium --user-data-dir)')
    .option('--extension-id <id>', 'also allow this extension id (repeatable)', collect, [])
    .option('--json', 'machine-readable output')
    .action(
      guarded(io, async (flags: SelectionFlags) => {
        const ctx = io.context();
        const builds = extensionBuilds(ctx.cliPath);
        const plan = planInstall({ browsers: flags.browser, all: flags.all, chromiumProfile: flags.chromiumProfile, extensionIds: flags.extensionId }, ctx);
        await applyInstall(plan, ctx);
        const steps = loadSteps(plan.targets, builds);
        if (flags.json) {
          io.out(
            JSON.stringify({
              targets: plan.targets.map((t) => ({ id: t.id, family: t.family, manifest: t.manifestPath, registry_key: t.registryKey ?? null })),
              launcher: plan.launcher,
              extension_ids: plan.ids,
              record: plan.recordPath,
              extension: { found: builds.found, chromium: builds.chromium, firefox: builds.firefox, firefox_zip: builds.firefoxZip },
              load: steps,
            }) + '\n',
          );
        } else io.out(installText(plan, ctx, false, '') + (builds.found ? loadText(builds, steps) : ''));
        if (builds.found) return 0;
        io.err(`oriel: the native host is registered, but no built extension lies beside this CLI (${path.dirname(builds.chromium)}): in a clone, run \`npm run build\` and then \`node dist/broker/oriel.mjs setup\`\n`);
        return 1;
      }),
    );

  program
    .command('install')
    .description('register the native messaging host with installed browsers')
    .addOption(browserOption())
    .option('--all', 'register with every supported browser, installed or not')
    .option('--chromium-profile <dir>', 'register in <dir>/NativeMessagingHosts (a Chromium --user-data-dir)')
    .option('--extension-id <id>', 'also allow this extension id (repeatable)', collect, [])
    .option('--dry-run', 'print what would be written, write nothing')
    .option('--json', 'machine-readable output')
    .action(
      guarded(io, async (flags: SelectionFlags) => {
        const ctx = io.context();
        const plan = planInstall({ browsers: flags.browser, all: flags.all, chromiumProfile: flags.chromiumProfile, extensionIds: flags.extensionId }, ctx);
        if (!flags.dryRun) await applyInstall(plan, ctx);
        if (flags.json) {
          io.out(
            JSON.stringify({
              dry_run: !!flags.dryRun,
              targets: plan.targets.map((t) => ({ id: t.id, family: t.family, manifest: t.manifestPath, registry_key: t.registryKey ?? null })),
              launcher: plan.launcher,
              files: plan.files.map((f) => ({ path: f.path, role: f.role, mode: f.mode, ...(flags.dryRun ? { content: f.content } : {}) })),
              registry: plan.registry.map((r) => ({ key: r.key, value: r.value, command: ['reg', ...r.args] })),
              dirs_created: plan.dirs,
              extension_ids: plan.ids,
              record: plan.recordPath,
            }) + '\n',
          );
        } else io.out(installText(plan, ctx, !!flags.dryRun));
        return 0;
      }),
    );

  program
    .command('uninstall')
    .description('remove exactly what `oriel install` wrote')
    .option('--dry-run', 'print what would be removed, remove nothing')
    .option('--json', 'machine-readable output')
    .action(
      guarded(io, async (flags: { dryRun?: boolean; json?: boolean }) => {
        const result = await uninstall({ dryRun: flags.dryRun }, io.context());
        if (flags.json) io.out(JSON.stringify({ dry_run: !!flags.dryRun, record_found: result.recordFound, steps: result.steps }) + '\n');
        else io.out(uninstallText(result, !!flags.dryRun));
        return result.steps.some((s) => s.outcome === 'failed') ? 1 : 0;
      }),
    );

  program
    .command('doctor')
    .description('check every link from browser to hub, and say how to fix what is broken')
    .addOption(browserOption())
    .option('--all', 'check every supported browser')
    .option('--chromium-profile <dir>', 'check the manifest in <dir>/NativeMessagingHosts')
    .option('--extension-id <id>', 'the extension id that must be allowed (repeatable)', collect, [])
    .option('--json', 'machine-readable output: a list of {check, ok, detail, fix}')
    .action(
      guarded(io, async (flags: SelectionFlags) => {
        const checks = await runDoctor({ browsers: flags.browser, all: flags.all, chromiumProfile: flags.chromiumProfile, extensionIds: flags.extensionId }, io.context());
        io.out(flags.json ? JSON.stringify(checks) + '\n' : formatDoctor(checks));
        return checks.every((c) => c.ok) ? 0 : 1;
      }),
    );

  program
    .command('status')
    .description('show the running hub: browsers, sessions, clients (does not start it)')
    .option('--json', 'machine-readable output')
    .action(
      guarded(io, async (flags: { json?: boolean }) => {
        const { dirs, env, cliPath } = io.context();
        const query = await findHub(dirs, env);
        const self = { version: SERVER_VERSION, program: cliPath };
        if (flags.json) io.out(escapeJson(JSON.stringify(statusJson(query, new Date(), self))) + '\n');
        else io.out(query.state === 'running' ? formatStatus(query.status, new Date(), self) : formatNotRunning(query, runtimeDirIssue(dirs)));
        return query.state === 'running' ? 0 : 1;
      }),
    );

  program
    .command('config')
    .description('print the MCP server configuration for a client')
    .addArgument(new Argument('<client>', 'the MCP client').choices(MCP_CLIENTS))
    .option('--json', 'machine-readable output: {client, format, snippet, where}')
    .option('--http', 'the Streamable HTTP form, for `oriel serve --http` (includes the bearer token)')
    .option('--port <port>', `the port \`oriel serve --http\` uses (default: where a running one serves, else ${DEFAULT_HTTP_PORT})`)
    .option('--tools <list>', `the tools \`oriel mcp\` serves: sets (${setNames().join(', ')}) and tool names, comma-separated`)
    .action(
      guarded(io, async (client: McpClient, flags: { json?: boolean; http?: boolean; port?: string; tools?: string }) => {
        const ctx = io.context();
        if (flags.tools !== undefined) {
          if (flags.http) {
            io.err('--tools chooses what `oriel mcp` serves over stdio; `oriel serve --http` serves every tool.\n');
            return 2;
          }
          try {
            resolveToolSet(flags.tools, TOOLS.map((t) => t.name));
          } catch (err) {
            io.err(`${err instanceof Error ? err.message : String(err)}\n`);
            return 2;
          }
        }
        let config = clientConfig(client, { nodePath: ctx.nodePath, cliPath: ctx.cliPath, os: ctx.os, env: hubLocationEnv(ctx.env), ...(flags.tools !== undefined && { tools: flags.tools }) });
        if (!flags.http) config = { ...config, where: [...config.where, ...toolSetHint(flags.tools)] };
        if (flags.http) {
          let url: string;
          if (flags.port !== undefined) {
            const port = Number(flags.port);
            if (!Number.isInteger(port) || port < 1 || port > 65_535) {
              io.err(`--port must be a port number (1-65535), not ${JSON.stringify(flags.port)}\n`);
              return 2;
            }
            url = `http://127.0.0.1:${port}${MCP_PATH}`;
          } else url = (await servedHttpUrl(ctx.dirs, ctx.env)) ?? `http://127.0.0.1:${DEFAULT_HTTP_PORT}${MCP_PATH}`;
          const http = clientHttpConfig(client, { url, token: httpToken(ctx.dirs), tokenPath: httpTokenPath(ctx.dirs), os: ctx.os });
          if (!http) {
            io.err(`${client} takes MCP servers it starts itself (stdio) in its configuration file: use \`oriel config ${client}\` without --http.\n`);
            return 2;
          }
          config = http;
        }
        config = { ...config, where: [...config.where, ...ASK_IN_APP_NOTE] };
        if (!/\.(?:mjs|cjs|js)$/.test(ctx.cliPath)) io.err(`warning: ${ctx.cliPath} is not the built CLI; run this from dist/broker/oriel.mjs\n`);
        if (flags.json) io.out(JSON.stringify(config) + '\n');
        else {
          // The snippet alone on stdout (so it can be redirected); where it goes on stderr.
          io.err(config.where.join('\n') + '\n\n');
          io.out(config.snippet);
        }
        return 0;
      }),
    );
}
