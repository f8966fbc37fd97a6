// The hub's life (docs/architecture.md, "Parts"): one per user even when relays race, shared by every client, surviving the native host's
// death and respawn, and leaving when idle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, existsSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, call, ensureBuilt, launchRig, serveFixtures, stuckClickTarget, until, type Rig } from './harness.js';

/** Pids of processes whose environment has ORIEL_RUNTIME_DIR=`runtime` and whose command line contains `word`. */
function processes(runtime: string, word: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (!cmd.includes(word) || !cmd.some((a) => a.endsWith('oriel.mjs'))) continue;
      const env = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      if (env.includes(`ORIEL_RUNTIME_DIR=${runtime}`)) out.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return out;
}

describe('hub life', () => {
  let tmp: string;
  let env: Record<string, string>;

  beforeAll(() => {
    ensureBuilt();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-hub-'));
    env = { ...(process.env as Record<string, string>), ORIEL_RUNTIME_DIR: path.join(tmp, 'run'), ORIEL_DATA_DIR: path.join(tmp, 'data'), ORIEL_HUB_IDLE_MS: '1500' };
  });
  afterAll(() => {
    for (const pid of processes(env.ORIEL_RUNTIME_DIR!, 'hub')) process.kill(pid, 'SIGTERM');
    rmSync(tmp, { recursive: true, force: true });
  });

  it('rotates a hub log past 5 MB when it starts a hub, and keeps the log private', async () => {
    mkdirSync(env.ORIEL_DATA_DIR!, { recursive: true });
    const log = path.join(env.ORIEL_DATA_DIR!, 'hub.log');
    writeFileSync(log, 'x'.repeat(6 * 1024 * 1024));
    const relay = spawn(process.execPath, [CLI, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    await until(() => existsSync(`${log}.1`) && statSync(log).size < 1024 * 1024, 10_000, 'the log to rotate');
    expect(statSync(`${log}.1`).size).toBe(6 * 1024 * 1024);
    expect(statSync(log).mode & 0o777).toBe(0o600);
    relay.stdin.end();
    await until(() => processes(env.ORIEL_RUNTIME_DIR!, 'hub').length === 0, 15_000, 'the idle hub to exit');
  });

  it('starts exactly one hub when several relays start at once, and that hub exits when idle', async () => {
    const relays = Array.from({ length: 4 }, () => spawn(process.execPath, [CLI, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] }));
    const answers = relays.map(
      (r) =>
        new Promise<string>((resolve) => {
          let buf = '';
          r.stdout.on('data', (c: Buffer) => {
            buf += c.toString();
            if (buf.includes('\n')) resolve(buf);
          });
        }),
    );
    for (const r of relays) r.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) + '\n');
    for (const a of await Promise.all(answers)) expect(a).toContain('"serverInfo"');
    // docs/architecture.md, "Security boundaries": a private folder and socket, no TCP port.
    expect(statSync(env.ORIEL_RUNTIME_DIR!).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(env.ORIEL_RUNTIME_DIR!, 'hub.sock')).mode & 0o777).toBe(0o600);
    // Losers of the lock race exit at once; one hub remains.
    await until(() => processes(env.ORIEL_RUNTIME_DIR!, 'hub').length === 1, 10_000, 'a single hub');
    // A hub started by hand while one runs steps aside, saying so (exit status 3).
    const second = spawnSync(process.execPath, [CLI, 'hub'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect([second.status, second.stdout]).toStrictEqual([3, '']);
    expect(second.stderr).toContain(`a hub is already running (pid ${processes(env.ORIEL_RUNTIME_DIR!, 'hub')[0]}`);
    expect(processes(env.ORIEL_RUNTIME_DIR!, 'hub')).toHaveLength(1);

    for (const r of relays) r.stdin.end();
    await until(() => processes(env.ORIEL_RUNTIME_DIR!, 'hub').length === 0, 15_000, 'the idle hub to exit');
    expect(existsSync(path.join(env.ORIEL_RUNTIME_DIR!, 'hub.sock'))).toBe(false);
  });
});

describe('hub with a browser', () => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;

  beforeAll(async () => {
    site = await serveFixtures();
    rig = await launchRig('chromium');
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  it('two clients at once see the same sessions', async () => {
    await rig.open(`${site.url}/shop/index.html`);
    await rig.share('/shop/index.html');
    const a = await rig.client('legacy', 'agent-a');
    const b = await rig.client('modern', 'agent-b');
    const ids = async (c: typeof a) => ((await call(c, 'list_sessions')).structured.sessions as Array<{ id: string }>).map((s) => s.id);
    const seenByA = await until(async () => ((await ids(a)).length === 1 ? ids(a) : undefined), 10_000, 'session for a');
    expect(await ids(b)).toEqual(seenByA);
  });

  it('keeps the hub and the sessions when the native host is killed and the browser respawns it', async () => {
    const runtime = rig.env.ORIEL_RUNTIME_DIR!;
    const client = await rig.client('legacy', 'survivor');
    const before = (await call(client, 'list_sessions')).structured.sessions as Array<{ id: string }>;
    const hubPid = processes(runtime, 'hub');
    const [host] = processes(runtime, 'native-host');
    expect(host).toBeDefined();
    process.kill(host!, 'SIGKILL');
    // The extension reconnects with backoff; the browser spawns a new host.
    await until(() => {
      const now = processes(runtime, 'native-host');
      return now.length === 1 && now[0] !== host;
    }, 15_000, 'a new native host');
    await until(() => rig.connectedBrowsers() === 1, 15_000, 'browser reconnected');
    expect(processes(runtime, 'hub')).toEqual(hubPid);
    const after = (await call(client, 'list_sessions')).structured.sessions as Array<{ id: string }>;
    expect(after.map((s) => s.id)).toEqual(before.map((s) => s.id));
    const snap = await call(client, 'snapshot');
    expect(snap.isError).toBe(false);
  });

  it('fails a call in flight with browser_disconnected when the native host dies, and does not replay it', async () => {
    const runtime = rig.env.ORIEL_RUNTIME_DIR!;
    const client = await rig.client('modern', 'interrupted');
    await until(() => rig.connectedBrowsers() === 1, 15_000, 'browser connected');
    // This click waits for a covered target, so it is still running in the page when the host dies.
    const shop = (await rig.browser.pages()).find((p) => p.url().includes('/shop/index.html'))!;
    const target = await stuckClickTarget(shop);
    const pending = call(client, 'click', { selector: target.selector, timeout_ms: 30_000 });
    await target.underWay;
    const [host] = processes(runtime, 'native-host');
    process.kill(host!, 'SIGKILL');
    const result = await pending;
    expect(result.error?.code).toBe('browser_disconnected');
    expect((result.error as { refresh_required?: boolean } | undefined)?.refresh_required).toBe(true);
    await until(() => rig.connectedBrowsers() === 1, 15_000, 'browser reconnected');
    expect((await call(client, 'snapshot')).isError).toBe(false);
  });
});
