// The `oriel` program itself (broker/cli/main.ts), run as a process: where help, the version and usage errors go.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_VERSION } from '../../broker/common/version.js';
import { queryHubStatus } from '../../broker/cli/control.js';

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'broker', 'cli', 'main.ts');

/** Starts `oriel <args>` from source, through tsx. */
function start(args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess & { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream } {
  return spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env }) as ChildProcess & { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream };
}

/** What one run of `oriel <args>` (from source, through tsx) printed, and its exit code. */
function oriel(args: string[], env?: NodeJS.ProcessEnv): Promise<{ out: string; err: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = start(args, env);
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ out, err, code }));
  });
}

describe('oriel: help, version and usage errors', () => {
  it('prints --version and -V on stdout and exits 0', async () => {
    const [long, short] = await Promise.all([oriel(['--version']), oriel(['-V'])]);
    for (const run of [long, short]) expect(run).toStrictEqual({ out: `${SERVER_VERSION}\n`, err: '', code: 0 });
  });

  it('prints asked-for help (top level, a command\'s, `help <command>`) on stdout and exits 0', async () => {
    const [top, mcp, status, helpMcp] = await Promise.all([oriel(['--help']), oriel(['mcp', '--help']), oriel(['status', '--help']), oriel(['help', 'mcp'])]);
    expect(top.out).toMatch(/^Usage: oriel \[options\] \[command\]/);
    expect(mcp.out).toMatch(/^Usage: oriel mcp \[options\]/);
    expect(status.out).toMatch(/^Usage: oriel status \[options\]/);
    expect(helpMcp.out).toBe(mcp.out);
    for (const run of [top, mcp, status, helpMcp]) expect([run.err, run.code]).toStrictEqual(['', 0]);
  });

  it('writes usage errors to stderr only, with a non-zero exit', async () => {
    const runs = await Promise.all([oriel(['bogus']), oriel(['mcp', '--bogus']), oriel([])]);
    for (const run of runs) {
      expect(run.out).toBe('');
      expect(run.err).not.toBe('');
      expect(run.code).not.toBe(0);
    }
  });

  it('does not take --version after `mcp` as the program\'s: the relay prints nothing on stdout', async () => {
    const run = await oriel(['mcp', '--version']);
    expect(run.out).toBe('');
    expect(run.err).toContain("unknown option '--version'");
    expect(run.code).not.toBe(0);
  });
});

describe('oriel hub while a hub runs', () => {
  let tmp: string | undefined;
  let first: ChildProcess | undefined;
  afterEach(async () => {
    if (first && first.exitCode === null) {
      const gone = new Promise((r) => first!.once('exit', r));
      first.kill('SIGTERM');
      await gone;
    }
    first = undefined;
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('says on stderr which hub runs (pid, socket, version, program) and exits 3, printing nothing on stdout', async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-hub-twice-'));
    const env = { ...process.env, ORIEL_RUNTIME_DIR: path.join(tmp, 'run'), ORIEL_DATA_DIR: path.join(tmp, 'data'), ORIEL_CONFIG_DIR: path.join(tmp, 'config'), ORIEL_HUB_IDLE_MS: '60000' };
    first = start(['hub'], env);
    const socket = path.join(env.ORIEL_RUNTIME_DIR, 'hub.sock');
    // Wait for the first hub to answer on its socket (its own signal that it serves).
    await expect.poll(async () => (await queryHubStatus(socket, 1000)).state, { timeout: 30_000, interval: 100 }).toBe('running');
    // It reports the version it runs and the CLI file it was started from (symlinks resolved).
    const status = await queryHubStatus(socket, 1000);
    expect(status.state === 'running' && [status.status.version, status.status.program]).toStrictEqual([SERVER_VERSION, realpathSync(MAIN)]);
    const second = await oriel(['hub'], env);
    expect(second.out).toBe('');
    expect(second.err).toContain(`a hub is already running (pid ${first.pid}, socket ${socket}, oriel ${SERVER_VERSION} from ${realpathSync(MAIN)})`);
    expect(second.code).toBe(3);
    expect(first.exitCode).toBeNull();
    // The exit status is documented in the command's help.
    expect((await oriel(['hub', '--help'])).out).toContain('3 when a hub is already running');
  });
});
