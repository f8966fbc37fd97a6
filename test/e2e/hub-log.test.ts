// The hub's log stays bounded while the hub runs (broker/common/log.ts, limitLogFile): a client sending malformed
// lines fills it by hundreds of bytes each, and a hub that runs for weeks must not fill the disk. Each malformed line
// is also answered, by its id, with the JSON-RPC error a client expects (broker/mcp/lines.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, ensureBuilt, until } from './harness.js';

const MB = 1024 * 1024;
let tmp: string;
let env: Record<string, string>;

beforeAll(() => {
  ensureBuilt();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-log-'));
  env = { ...(process.env as Record<string, string>), ORIEL_RUNTIME_DIR: path.join(tmp, 'run'), ORIEL_DATA_DIR: path.join(tmp, 'data'), ORIEL_HUB_IDLE_MS: '2000' };
});

afterAll(() => {
  try {
    process.kill(Number(readFileSync(path.join(tmp, 'run/hub.pid'), 'utf8')), 'SIGTERM');
  } catch {
    /* gone already */
  }
  rmSync(tmp, { recursive: true, force: true });
});

describe('the hub log', () => {
  it('is moved aside past 5 MB while the hub runs: 10,000 malformed lines, each answered by its id', async () => {
    const log = path.join(env.ORIEL_DATA_DIR!, 'hub.log');
    mkdirSync(env.ORIEL_DATA_DIR!, { recursive: true });
    // Just under the bound, so the hub starts on this file (a start past the bound would move it aside at once).
    writeFileSync(log, 'p'.repeat(5 * MB - 64 * 1024) + '\n', { mode: 0o600 });
    const relay = spawn(process.execPath, [CLI, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const answered = new Map<number, { code: number; message: string }>();
    let buffer = '';
    relay.stdout.on('data', (c: Buffer) => {
      buffer += c.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buffer.slice(0, nl)) as { id: number; error?: { code: number; message: string } };
        if (msg.error) answered.set(msg.id, msg.error);
        buffer = buffer.slice(nl + 1);
      }
    });
    // A method that is not a string: the shape whose SDK error dump once logged 2.4 KB a line.
    const lines = Array.from({ length: 10_000 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 123 })).join('\n') + '\n';
    relay.stdin.write(lines);
    await until(() => answered.size === 10_000, 60_000, 'every malformed line to be answered');
    expect(answered.get(10_000)).toEqual({ code: -32600, message: 'Invalid request: "method" must be a string' });
    relay.stdin.end();
    await until(() => existsSync(`${log}.1`), 20_000, 'the log to be moved aside');
    const kept = statSync(log).size + statSync(`${log}.1`).size;
    expect(statSync(`${log}.1`).size).toBeLessThanOrEqual(5 * MB + 128 * 1024);
    expect(kept).toBeLessThan(8 * MB);
    expect(readFileSync(`${log}.1`, 'utf8').startsWith('pppp')).toBe(true);
    // The hub logs on into the same file, from its start.
    await until(() => readFileSync(log, 'utf8').includes('answered a malformed line'), 20_000, 'the hub to log on');
    expect(statSync(log).mode & 0o777).toBe(0o600);
  });
});
