// Shared fixtures for the cli-*.test.ts files: temp machines, a fake Oriel CLI, a fake hub, and a CLI runner.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { encodeFrame, FrameDecoder } from '../../shared/framing.js';
import type { ControlStatus } from '../../shared/protocol.js';
import type { HostOs, SetupContext } from '../../broker/cli/context.js';
import type { RegistryRunner } from '../../broker/cli/registry.js';
import { registerSetupCommands } from '../../broker/cli/setup.js';
import { SERVER_VERSION } from '../../broker/common/version.js';

/** A throwaway "machine": home, Oriel folders and a CLI bundle path, all under one temp folder. */
export interface TempMachine {
  root: string;
  ctx: SetupContext;
  /** Every reg.exe call made, in order. */
  regCalls: string[][];
  cleanup(): void;
}

/** What the fake CLI does when run as `native-host` with ORIEL_NATIVE_HOST_CHECK=1. */
export type FakeCliBehaviour = 'check-ok' | 'exit-3' | 'prints-text' | 'check-not-ok';

/**
 * Writes a stand-in for dist/broker/oriel.mjs. It records its argv (JSON) into `$ORIEL_TEST_ARGV_FILE` when set,
 * and answers the native-host check as `behaviour` says.
 */
export function writeFakeCli(file: string, behaviour: FakeCliBehaviour): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const lines = [
    "import { writeFileSync } from 'node:fs';",
    "import os from 'node:os';",
    'const argv = process.argv.slice(2);',
    "if (process.env.ORIEL_TEST_ARGV_FILE) writeFileSync(process.env.ORIEL_TEST_ARGV_FILE, JSON.stringify(argv));",
    "const frame = (v) => { const body = Buffer.from(JSON.stringify(v)); const h = Buffer.alloc(4); os.endianness() === 'LE' ? h.writeUInt32LE(body.length) : h.writeUInt32BE(body.length); process.stdout.write(Buffer.concat([h, body])); };",
    "if (argv[0] !== 'native-host' || process.env.ORIEL_NATIVE_HOST_CHECK !== '1') { process.stderr.write('fake cli: unexpected call\\n'); process.exit(9); }",
  ];
  if (behaviour === 'check-ok') lines.push("frame({ t: 'check', ok: true, version: '9.9.9-test' });");
  if (behaviour === 'check-not-ok') lines.push("frame({ t: 'check', ok: false, error: 'hub folder is not private' });");
  if (behaviour === 'prints-text') lines.push("process.stdout.write('hello from a console.log\\n');");
  if (behaviour === 'exit-3') lines.push("process.stderr.write('Error: Cannot find module oriel-broken\\n'); process.exit(3);");
  writeFileSync(file, lines.join('\n') + '\n');
}

/**
 * Creates a temp machine. Paths contain a space and a quote so that quoting bugs show. PATH holds only an empty
 * `bin` folder, so the real browsers on this computer are never detected.
 */
export function tempMachine(options: { os?: HostOs; cli?: FakeCliBehaviour; regAnswer?: RegistryRunner } = {}): TempMachine {
  const root = mkdtempSync(path.join(os.tmpdir(), 'oriel-cli-'));
  const home = path.join(root, 'home');
  mkdirSync(home);
  mkdirSync(path.join(root, 'bin'));
  const cliPath = path.join(root, "oriel's build", 'oriel.mjs');
  writeFakeCli(cliPath, options.cli ?? 'check-ok');
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    PATH: path.join(root, 'bin'),
    ORIEL_DATA_DIR: path.join(root, 'data dir'),
    ORIEL_RUNTIME_DIR: path.join(root, 'run'),
    ORIEL_CONFIG_DIR: path.join(root, 'config'),
  };
  const regCalls: string[][] = [];
  const answer: RegistryRunner = options.regAnswer ?? (async () => ({ code: 0, stdout: '', stderr: '' }));
  const ctx: SetupContext = {
    os: options.os ?? 'linux',
    home,
    env,
    dirs: { data: env.ORIEL_DATA_DIR!, runtime: env.ORIEL_RUNTIME_DIR!, config: env.ORIEL_CONFIG_DIR! },
    nodePath: process.execPath,
    cliPath,
    // Never the machine's own /run/user or /tmp: a real hub there would be found as a second hub.
    systemFolders: { runUser: path.join(root, 'run-user'), tmp: path.join(root, 'tmp') },
    registry: async (args) => {
      regCalls.push(args);
      return answer(args);
    },
  };
  return { root, ctx, regCalls, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every file and folder under `dir` (relative paths, sorted), with file sizes and modes: a fingerprint of a tree. */
export function treeOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      const st = statSync(p);
      out.push(`${path.relative(dir, p)} ${st.isDirectory() ? 'dir' : `${st.size}b`} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** What one CLI run printed and its exit code. */
export interface CliRun {
  out: string;
  err: string;
  code: number;
}

/** Runs `oriel <argv>` with the setup commands against `ctx`, capturing output and the exit code. */
export async function runCli(ctx: SetupContext, argv: string[]): Promise<CliRun> {
  const run: CliRun = { out: '', err: '', code: 0 };
  const program = new Command('oriel').exitOverride().configureOutput({ writeOut: (s) => (run.out += s), writeErr: (s) => (run.err += s) });
  registerSetupCommands(program, {
    out: (t) => (run.out += t),
    err: (t) => (run.err += t),
    exit: (c) => (run.code = c),
    context: () => ctx,
  });
  try {
    await program.parseAsync(['node', 'oriel', ...argv]);
  } catch (err) {
    const code = (err as { exitCode?: number }).exitCode;
    if (typeof code !== 'number') throw err;
    run.code = code;
  }
  return run;
}

/** A hub stand-in on a Unix socket: answers `hello`(control) + `status` with `status`, and records what it got. */
export interface FakeHub {
  received: unknown[];
  close(): Promise<void>;
}

/** Starts a {@link FakeHub} at `socketPath` (its folder is created). */
export async function startFakeHub(socketPath: string, status: ControlStatus): Promise<FakeHub> {
  mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  const received: unknown[] = [];
  const server = net.createServer((socket) => {
    const decoder = new FrameDecoder();
    socket.on('data', (chunk) => {
      for (const frame of decoder.push(chunk)) {
        if (frame.kind !== 'frame') continue;
        received.push(frame.value);
        const first = received[0] as { t?: string; role?: string };
        const isControl = first?.t === 'hello' && first.role === 'control';
        if ((frame.value as { t?: string }).t === 'status' && isControl) socket.write(encodeFrame(status));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Where the hub of {@link hubStatus} says it runs from, unless told otherwise. */
export const HUB_PROGRAM = '/usr/lib/node_modules/oriel/dist/broker/oriel.mjs';

/**
 * A status as the hub reports it, with `browsers`, `sessions` and waiting permission `prompts` as given, running this
 * Oriel's version from `program` (the temp machine's `ctx.cliPath` for a hub that runs the oriel being tested).
 */
export function hubStatus(browsers: number, sessions: number, prompts: ControlStatus['prompts'] = [], program: string = HUB_PROGRAM): ControlStatus {
  return {
    t: 'status',
    pid: 4242,
    started_at: new Date(Date.now() - 125_000).toISOString(),
    version: SERVER_VERSION,
    program,
    browsers: Array.from({ length: browsers }, (_, i) => ({
      name: 'chromium',
      version: '156.0.1',
      instance: `abc${i}`,
      extension_id: 'laboapblkabiilmjlpcbikpgdblpioce',
      connected: true,
    })),
    sessions: Array.from({ length: sessions }, (_, i) => ({ id: `abc0.${i + 1}`, title: `Tab ${i + 1}`, url: `https://shop.example/${i}`, browser: 'abc0' })),
    clients: 1,
    prompts,
  };
}

/** Makes an executable file (e.g. a fake `firefox-esr` on PATH). */
export function writeExecutable(file: string, content = '#!/bin/sh\nexit 0\n'): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  chmodSync(file, 0o755);
}
