// `oriel status` against no hub, a fake hub, and a hub that misbehaves (broker/cli/control.ts, status.ts).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hubSocketPath } from '../../broker/common/paths.js';
import { queryHubStatus } from '../../broker/cli/control.js';
import { formatUptime } from '../../broker/cli/status.js';
import { encodeFrame } from '../../shared/framing.js';
import { SERVER_VERSION } from '../../broker/common/version.js';
import { HUB_PROGRAM, hubStatus, runCli, startFakeHub, tempMachine, type FakeHub, type TempMachine } from './cli-fixtures.js';

let machine: TempMachine;
let hub: FakeHub | undefined;
const servers: net.Server[] = [];
afterEach(async () => {
  await hub?.close();
  hub = undefined;
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  machine?.cleanup();
});

/** A socket server that answers each connection with `onConnection`, and drains what the client sends. */
async function listen(socketPath: string, onConnection: (s: net.Socket) => void): Promise<void> {
  const server = net.createServer((s) => {
    s.resume();
    onConnection(s);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(socketPath, r));
}

describe('oriel status', () => {
  it('says the hub is not running, exits 1, and does not start it', async () => {
    machine = tempMachine();
    mkdirSync(machine.ctx.dirs.runtime, { mode: 0o700 });
    const run = await runCli(machine.ctx, ['status']);
    expect(run.code).toBe(1);
    expect(run.out).toBe('Oriel hub: not running (it starts when the browser extension connects or an MCP client runs `oriel mcp`).\n');
    expect(readdirSync(machine.ctx.dirs.runtime)).toStrictEqual([]);

    const json = await runCli(machine.ctx, ['status', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ running: false, state: 'not_running' });
    expect(readdirSync(machine.ctx.dirs.runtime)).toStrictEqual([]);
  });

  it('treats a stale socket file (nobody listening) as not running', async () => {
    machine = tempMachine();
    const socketPath = hubSocketPath(machine.ctx.dirs);
    mkdirSync(path.dirname(socketPath), { recursive: true });
    writeFileSync(socketPath, ''); // a leftover path that nothing listens on
    const result = await queryHubStatus(socketPath, 1000);
    expect(result.state).toBe('not_running');
  });

  it('prints pid, uptime, browsers and sessions from the hub, after hello(control) then status', async () => {
    machine = tempMachine();
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), hubStatus(1, 2));
    const run = await runCli(machine.ctx, ['status']);
    expect(run.code).toBe(0);
    expect(hub.received).toStrictEqual([{ t: 'hello', role: 'control' }, { t: 'status' }]);
    expect(run.out).toMatch(/^Oriel hub: running \(pid 4242, up 2m \d+s\)$/m);
    expect(run.out).toContain('Browsers: 1 connected');
    expect(run.out).toContain('chromium 156.0.1  instance abc0  extension laboapblkabiilmjlpcbikpgdblpioce');
    expect(run.out).toContain('Sessions: 2');
    expect(run.out).toContain('abc0.2  "Tab 2"  https://shop.example/1  (abc0)');
    expect(run.out).toContain('MCP clients: 1');
    expect(run.out).toContain('MCP over HTTP: off');
    expect(run.out).toContain('Permission prompts: none waiting');
  });

  it('prints the address of each browser\'s popup, for a headless browser that has no toolbar', async () => {
    machine = tempMachine();
    const status = hubStatus(1, 0);
    const popup = 'moz-extension://0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/extension/ui/popup.html';
    status.browsers[0] = { ...status.browsers[0]!, name: 'firefox', popup_url: popup };
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), status);
    const run = await runCli(machine.ctx, ['status']);
    expect(run.out).toContain(`firefox 156.0.1  instance abc0  extension laboapblkabiilmjlpcbikpgdblpioce\n    popup: ${popup}\n`);
  });

  it('lists the permission prompts waiting for the person', async () => {
    machine = tempMachine();
    const since = Date.now() - 12_000;
    const prompt = { id: 'p1', capability: 'act' as const, origin: 'http://localhost:8080', clients: ['claude-code', 'cursor'], calls: 3, since, browser: 'chromium' };
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), hubStatus(1, 1, [prompt]));
    const run = await runCli(machine.ctx, ['status']);
    expect(run.out).toContain('Permission prompts: 1 waiting (answer them in the Oriel toolbar popup)');
    expect(run.out).toMatch(/ {2}act on http:\/\/localhost:8080 for "claude-code", "cursor" \(3 calls waiting, 1[2-9]s, chromium\)/);
    const json = JSON.parse((await runCli(machine.ctx, ['status', '--json'])).out) as { prompts: unknown[] };
    expect(json.prompts).toEqual([prompt]);
  });

  it('escapes page titles: bidi controls and line breaks never reach the terminal raw, text or JSON', async () => {
    machine = tempMachine();
    const status = hubStatus(1, 1);
    const title = 'Pay \u202Efdp.exe\u202C\nSessions: 0';
    status.sessions[0]!.title = title;
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), status);
    const run = await runCli(machine.ctx, ['status']);
    expect(run.out).toContain('abc0.1  "Pay \\u{202e}fdp.exe\\u{202c}\\nSessions: 0"  https://shop.example/0  (abc0)');
    expect(run.out).not.toMatch(/[\u202a-\u202e]/);
    expect(run.out.match(/^Sessions:/gm)).toHaveLength(1);
    const json = await runCli(machine.ctx, ['status', '--json']);
    expect(json.out).not.toMatch(/[\u202a-\u202e]/);
    expect(json.out).toContain('\\u202e');
    expect((JSON.parse(json.out) as { sessions: Array<{ title: string }> }).sessions[0]!.title).toBe(title);
  });

  it('escapes what clients and browsers say of themselves: client names in prompts and the browser line', async () => {
    machine = tempMachine();
    const prompt = { id: 'p1', capability: 'act' as const, origin: 'http://localhost:8080', clients: ['agent \u202Egnp.exe\u202C\nMCP clients: 9'], calls: 1, since: Date.now(), browser: 'chromium\u2066' };
    const status = hubStatus(1, 1, [prompt]);
    status.browsers[0]!.version = '156\u202E.0';
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), status);
    const run = await runCli(machine.ctx, ['status']);
    expect(run.out).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(run.out.match(/^MCP clients:/gm)).toHaveLength(1);
    expect(run.out).toContain('for "agent \\u{202e}gnp.exe\\u{202c}\\nMCP clients: 9" (1 call waiting');
    expect(run.out).toContain('chromium 156\\u{202e}.0  instance abc0');
  });

  it('says who holds a session under a lease and until when', async () => {
    machine = tempMachine();
    const status = hubStatus(1, 2);
    status.sessions[0]!.lease = { client: 'Claude Code', expires_at: '2026-12-01T10:00:30.000Z', max_until: '2026-12-01T10:10:00.000Z' };
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), status);
    const run = await runCli(machine.ctx, ['status']);
    expect(run.out).toContain('abc0.1  "Tab 1"  https://shop.example/0  (abc0)  held by "Claude Code" until 2026-12-01T10:00:30.000Z');
    expect(run.out).toMatch(/abc0\.2 .*\(abc0\)$/m);
    const json = JSON.parse((await runCli(machine.ctx, ['status', '--json'])).out) as { sessions: Array<{ lease?: unknown }> };
    expect(json.sessions[0]!.lease).toEqual(status.sessions[0]!.lease);
  });

  it('caps long titles as list_sessions does, and marks the sessions of a browser that is reconnecting', async () => {
    machine = tempMachine();
    const status = hubStatus(1, 2);
    status.sessions[0]!.title = 'T'.repeat(2_000);
    status.sessions[1]!.connected = false;
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), status);
    const run = await runCli(machine.ctx, ['status']);
    expect(run.out).toContain(`abc0.1  "${'T'.repeat(120)}…(+1880)"  https://shop.example/0  (abc0)`);
    expect(run.out).toMatch(/abc0\.2 .*\(abc0, reconnecting\)$/m);
    expect(run.out).not.toMatch(/abc0\.1 .*reconnecting/);
  });

  it('says a session\'s title and address were withheld (no read grant) instead of printing an empty title', async () => {
    machine = tempMachine();
    const status = hubStatus(1, 1);
    Object.assign(status.sessions[0]!, { title: '', url: 'https://mail.example', withheld: true });
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), status);
    const run = await runCli(machine.ctx, ['status']);
    expect(run.out).toContain('abc0.1  https://mail.example (no read grant: title and address not sent)  (abc0)');
  });

  it('--json carries the hub status and the uptime', async () => {
    machine = tempMachine();
    const status = hubStatus(1, 1);
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), status);
    const run = await runCli(machine.ctx, ['status', '--json']);
    const out = JSON.parse(run.out) as Record<string, unknown>;
    expect(out).toMatchObject({ running: true, pid: 4242, browsers: status.browsers, sessions: status.sessions, clients: 1 });
    expect(out.uptime_ms).toBeGreaterThanOrEqual(125_000);
    expect(out).not.toHaveProperty('t');
  });

  it('shows the version and program the hub runs, and says when that is not this oriel (text and --json)', async () => {
    machine = tempMachine();
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), hubStatus(1, 1, [], machine.ctx.cliPath));
    const same = await runCli(machine.ctx, ['status']);
    expect(same.out).toContain(`\nProgram: oriel ${SERVER_VERSION}, ${machine.ctx.cliPath}\n`);
    expect(JSON.parse((await runCli(machine.ctx, ['status', '--json'])).out)).toMatchObject({ version: SERVER_VERSION, program: machine.ctx.cliPath, runs_this_oriel: true });
    await hub.close();

    // A hub that outlived an upgrade: another version (here also another file).
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), { ...hubStatus(1, 1), version: '0.0.9' });
    const other = await runCli(machine.ctx, ['status']);
    expect(other.out).toContain(`\nProgram: oriel 0.0.9, ${HUB_PROGRAM}  (not this oriel: ${SERVER_VERSION}, ${machine.ctx.cliPath}; \`oriel doctor\` says how to restart the hub)\n`);
    expect(JSON.parse((await runCli(machine.ctx, ['status', '--json'])).out)).toMatchObject({ version: '0.0.9', program: HUB_PROGRAM, runs_this_oriel: false });
    await hub.close();

    // A hub from before hubs reported them.
    const { version: _v, program: _p, ...unreported } = hubStatus(1, 1);
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), unreported);
    expect((await runCli(machine.ctx, ['status'])).out).toContain('\nProgram: not reported (an Oriel older than the one that added them)  (not this oriel:');
    expect(JSON.parse((await runCli(machine.ctx, ['status', '--json'])).out)).toMatchObject({ version: null, program: null, runs_this_oriel: false });
  });

  it('reports a hub that accepts the connection but never answers', async () => {
    machine = tempMachine();
    const socketPath = path.join(machine.root, 'mute.sock');
    await listen(socketPath, () => {});
    const result = await queryHubStatus(socketPath, 200);
    expect(result).toStrictEqual({ state: 'error', detail: 'the hub did not answer within 200 ms' });
  });

  it('reports a hub that answers with an error', async () => {
    machine = tempMachine();
    const socketPath = path.join(machine.root, 'err.sock');
    await listen(socketPath, (s) => s.write(encodeFrame({ error: { code: 'internal', message: 'control is disabled' } })));
    expect(await queryHubStatus(socketPath, 1000)).toStrictEqual({ state: 'error', detail: 'the hub refused the status request: control is disabled' });
  });

  it('reports a hub that answers with something that is not a status', async () => {
    machine = tempMachine();
    const socketPath = path.join(machine.root, 'odd.sock');
    await listen(socketPath, (s) => s.end(encodeFrame({ t: 'rejected', reason: 'nope' })));
    const result = await queryHubStatus(socketPath, 1000);
    expect(result).toStrictEqual({ state: 'error', detail: 'the hub closed the connection without answering the status request' });
    expect(existsSync(socketPath)).toBe(true);
  });
});

describe('formatUptime', () => {
  it('shows the two largest units', () => {
    expect(formatUptime(0)).toBe('0s');
    expect(formatUptime(8_000)).toBe('8s');
    expect(formatUptime(312_000)).toBe('5m 12s');
    expect(formatUptime(2 * 3600_000 + 5 * 60_000 + 9_000)).toBe('2h 5m');
    expect(formatUptime(3 * 86400_000 + 4 * 3600_000)).toBe('3d 4h');
    expect(formatUptime(86400_000 + 30_000)).toBe('1d');
  });
});
