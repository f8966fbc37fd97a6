// The built `oriel` with its runtime folder falling back to a shared temporary folder where someone planted
// `oriel-<uid>` first: the hub goes to the private fallback and serves as usual, or, when no safe folder is left, the
// relay fails with the message `oriel doctor` repeats word for word (broker/common/paths.ts).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, call, ensureBuilt } from './harness.js';

let tmp: string;
let env: Record<string, string>;
let planted: string;

beforeAll(() => ensureBuilt());
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-rt-'));
  mkdirSync(path.join(tmp, 'tmp'), { mode: 0o1777 });
  const { XDG_RUNTIME_DIR: _xdg, ORIEL_RUNTIME_DIR: _rt, ...rest } = process.env as Record<string, string>;
  env = { ...rest, TMPDIR: path.join(tmp, 'tmp'), ORIEL_DATA_DIR: path.join(tmp, 'data'), ORIEL_CONFIG_DIR: path.join(tmp, 'config'), ORIEL_HUB_IDLE_MS: '20000' };
  planted = path.join(tmp, 'tmp', `oriel-${process.getuid!()}`);
});
afterEach(() => {
  try {
    process.kill(Number(readFileSync(path.join(tmp, 'data', 'run', 'hub.pid'), 'utf8')), 'SIGTERM');
  } catch {
    /* no hub */
  }
  rmSync(tmp, { recursive: true, force: true });
});

describe('runtime folder in a shared temporary folder', () => {
  it('a planted symlink is not followed: the hub uses the private fallback and serves', async () => {
    const target = path.join(tmp, 'attacker');
    mkdirSync(target, { mode: 0o777 });
    symlinkSync(target, planted);
    const client = new Client({ name: 'rt', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env, stderr: 'pipe' }));
    expect((await call(client, 'list_sessions')).structured).toEqual({ sessions: [], session_optional: false });
    await client.close();
    const run = path.join(tmp, 'data', 'run');
    expect(lstatSync(path.join(run, 'hub.sock')).isSocket()).toBe(true);
    expect(lstatSync(run).mode & 0o777).toBe(0o700);
    expect(readdirSync(target)).toEqual([]);
  });

  it('with no safe folder left, `oriel mcp` fails with the message `oriel doctor` repeats', async () => {
    if (process.getuid!() === 0) {
      mkdirSync(planted, { mode: 0o700 });
      chownSync(planted, 65534, 65534); // another user's folder
    } else symlinkSync(tmp, planted);
    mkdirSync(path.join(tmp, 'data'));
    symlinkSync(path.join(tmp, 'elsewhere'), path.join(tmp, 'data', 'run'));
    const relay = spawn(process.execPath, [CLI, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    relay.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((r) => relay.on('exit', r));
    expect(code).toBe(1);
    const doctor = await promisify(execFile)(process.execPath, [CLI, 'doctor', '--json'], { env }).catch((e: { stdout: string }) => e);
    const runtime = (JSON.parse(doctor.stdout) as Array<{ check: string; detail: string }>).find((c) => c.check === 'runtime')!;
    expect(runtime.detail).toMatch(/^The Oriel runtime folder .*run is a symbolic link/);
    expect(stderr).toContain(runtime.detail);
    expect(existsSync(path.join(tmp, 'elsewhere'))).toBe(false);
  });
});
