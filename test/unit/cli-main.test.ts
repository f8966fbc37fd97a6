// The `oriel` program itself (broker/cli/main.ts), run as a process: where help, the version and usage errors go.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVER_VERSION } from '../../broker/common/version.js';

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'broker', 'cli', 'main.ts');

/** What one run of `oriel <args>` (from source, through tsx) printed, and its exit code. */
function oriel(args: string[]): Promise<{ out: string; err: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
