// The optional Streamable HTTP transport (`oriel serve --http`, broker/mcp/http.ts): official MCP clients connect with
// the bearer token in both protocol eras and share the hub's sessions and leases with stdio clients; a wrong or missing
// token, a foreign Host (DNS rebinding), a browser's request and a non-loopback bind are refused; the token file is
// private and never logged; a hub that dies is started again and serves on the same address. HTTP does not depend on the browser, so this file runs with the first browser only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BROWSERS, CLI, FIXTURES, call, launchRig, serveFixtures, until, type Rig } from './harness.js';

/** One raw HTTP request to the transport, with the headers given as they are (Host included). */
function rawRequest(url: string, headers: Record<string, string>, body = '{}'): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One request written byte for byte on a socket (for what Node's client will not send); resolves with the status. */
function rawWire(url: string, head: string, body = '{}'): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname, () => socket.write(`${head}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`));
    let text = '';
    socket.on('data', (c: Buffer) => {
      text += c.toString();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      if (status) {
        socket.destroy();
        resolve(Number(status));
      }
    });
    socket.on('end', () => resolve(0));
    socket.on('error', reject);
  });
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

describe.each(BROWSERS.slice(0, 1))('MCP over HTTP (hub with %s)', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let serve: ChildProcess;
  /** What `oriel serve --http` said on stderr so far. */
  let said = '';
  let url: string;
  let token: string;
  let tokenFile: string;
  let session: string;
  const clients: Client[] = [];

  const httpClient = async (era: 'legacy' | 'modern', name: string, bearer = token) => {
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } });
    const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: { pin: '2026-07-28' } } });
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    site = await serveFixtures(path.join(FIXTURES, 'leases'));
    rig = await launchRig(kind);
    await rig.open(`${site.url}/counter.html?tab=1`);
    await rig.share('counter.html?tab=1');
    await until(() => rig.connectedBrowsers() === 1 || undefined, 20_000, 'the browser to connect');
    serve = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0'], { env: rig.env, stdio: ['ignore', 'ignore', 'pipe'] });
    serve.stderr!.on('data', (c: Buffer) => (said += c.toString()));
    url = await until(() => /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(said)?.[1], 20_000, '`oriel serve --http` to say where it serves');
    tokenFile = path.join(rig.env.ORIEL_CONFIG_DIR!, 'http-token');
    token = readFileSync(tokenFile, 'utf8').trim();
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    serve?.kill('SIGTERM');
    await rig?.close();
    await site?.close();
  });

  it('serves both eras with the token, on the same hub as stdio clients: same sessions, same leases', async () => {
    const legacy = await httpClient('legacy', 'http-legacy');
    const modern = await httpClient('modern', 'http-modern');
    const stdio = await rig.client('legacy', 'stdio-agent');
    for (const client of [legacy, modern]) {
      const r = await call(client, 'list_sessions');
      expect(r.isError).toBe(false);
      session = (r.structured.sessions as Array<{ id: string }>)[0]!.id;
      const who = await call(client, 'extract', { session, selector: '#who' });
      expect(who.structured.value).toBe('Counter of tab 1');
    }
    // A lease taken over stdio is seen, and honoured, by the HTTP clients.
    const lease = await call(stdio, 'acquire_lease', { session });
    const seen = await call(modern, 'list_sessions');
    expect((seen.structured.sessions as Array<{ lease?: { holder: string } }>)[0]!.lease?.holder).toBe('stdio-agent');
    expect((await call(legacy, 'click', { lease: lease.structured.lease, selector: '#add' })).error?.code).toBe('lease_invalid');
    expect((await call(stdio, 'release_lease', { lease: lease.structured.lease })).isError).toBe(false);
    // A lease over HTTP (2025 era: one session, one client) is refused to the other HTTP client.
    const mine = await call(legacy, 'acquire_lease', { session });
    expect(mine.isError).toBe(false);
    expect((await call(modern, 'release_lease', { lease: mine.structured.lease })).error?.code).toBe('lease_invalid');
    expect((await call(legacy, 'release_lease', { lease: mine.structured.lease })).isError).toBe(false);
  });

  it('refuses a wrong or missing token (401) and never logs the token', async () => {
    const wrong = await rawRequest(url, { Authorization: 'Bearer ' + 'x'.repeat(43) }, initialize);
    expect(wrong.status).toBe(401);
    const none = await rawRequest(url, {}, initialize);
    expect(none.status).toBe(401);
    await expect(httpClient('legacy', 'intruder', 'y'.repeat(43))).rejects.toThrow();
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const log = readFileSync(path.join(rig.env.ORIEL_DATA_DIR!, 'hub.log'), 'utf8');
    expect(log).toContain('serving MCP over HTTP');
    expect(log).not.toContain(token);
  });

  it('refuses a foreign Host (DNS rebinding) and browsers\' requests (Origin, Fetch Metadata), token or not', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const port = new URL(url).port;
    expect((await rawRequest(url, { ...auth, Host: `rebound.example:${port}` }, initialize)).status).toBe(403);
    expect((await rawRequest(url, { ...auth, Origin: 'http://evil.example' }, initialize)).status).toBe(403);
    expect((await rawRequest(url, { ...auth, Origin: `http://localhost:${port}` }, initialize)).status).toBe(403);
    expect((await rawRequest(url, { ...auth, 'Sec-Fetch-Site': 'cross-site' }, initialize)).status).toBe(403);
    // The same request without those headers is served.
    const ok = await rawRequest(url, auth, initialize);
    expect(ok.status).toBe(200);
    // And a real page in the browser cannot reach it either: the server refuses the request it sends.
    const page = await rig.open(`${site.url}/counter.html?tab=2`);
    const fromPage = await page.evaluate(
      (target, bearer, body) => fetch(target, { method: 'POST', headers: { Authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body }).then((r) => r.status, (e: unknown) => String(e)),
      url,
      token,
      initialize,
    );
    // CORS hides the answer from the page (a network error), or the server's 403 shows: never a 200.
    expect(fromPage).not.toBe(200);
    await page.close();
  });

  it('refuses a malformed Host or request target with 400: a number for an address, user info, a doubled Host, an absolute-form URI', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const port = new URL(url).port;
    // 2130706433 is 127.0.0.1 as one number, and a URL parser reads x@evil.com as the host evil.com.
    for (const host of [`2130706433:${port}`, `x@evil.com:${port}`, `127.1:${port}`, `0x7f000001:${port}`, `127.0.0.1:${port}/mcp`]) {
      expect((await rawRequest(url, { ...auth, Host: host }, initialize)).status, host).toBe(400);
    }
    const bearer = `Authorization: Bearer ${token}`;
    expect(await rawWire(url, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\n${bearer}\r\nAccept: application/json, text/event-stream`, initialize)).toBe(400);
    expect(await rawWire(url, `POST http://evil.example/mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${bearer}\r\nAccept: application/json, text/event-stream`, initialize)).toBe(400);
    // The same request, well-formed, is served.
    expect(await rawWire(url, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${bearer}\r\nAccept: application/json, text/event-stream`, initialize)).toBe(200);
  });

  it.each(['modern', 'legacy'] as const)('two clients with the same default name are two callers (%s era): neither holds or uses the other\'s lease', async (era) => {
    // "mcp" is the Python SDK's default client name.
    const a = await httpClient(era, 'mcp');
    const b = await httpClient(era, 'mcp');
    const lease = await call(a, 'acquire_lease', { session, ttl_ms: 60_000 });
    expect(lease.isError).toBe(false);
    const id = lease.structured.lease as string;
    const seen = (await call(b, 'list_sessions')).structured.sessions as Array<{ id: string; lease?: { holder: string; yours: boolean } }>;
    expect(seen.find((s) => s.id === session)?.lease).toMatchObject({ holder: 'mcp', yours: false });
    // B's calls wait behind A's lease (and give up at their deadline), its own lease request too.
    expect((await call(b, 'click', { session, selector: '#add', timeout_ms: 300 })).error?.code).toBe('timeout');
    expect((await call(b, 'acquire_lease', { session, timeout_ms: 300 })).error?.code).toBe('timeout');
    if (era === 'legacy') expect((await call(b, 'click', { lease: id, selector: '#add' })).error?.code).toBe('lease_invalid');
    // A's calls quoting its lease run, in a later request too (2026-07-28: the lease is what carries the hold).
    expect((await call(a, 'click', { lease: id, selector: '#add' })).isError).toBe(false);
    const mine = (await call(a, 'list_sessions', { lease: id })).structured.sessions as Array<{ id: string; lease?: { yours: boolean } }>;
    expect(mine.find((s) => s.id === session)?.lease?.yours).toBe(true);
    expect((await call(a, 'release_lease', { lease: id })).isError).toBe(false);
    // Now B holds it, and A is told a label that tells B apart from A.
    const other = await call(b, 'acquire_lease', { session, ttl_ms: 60_000 });
    expect(other.isError).toBe(false);
    const holder = ((await call(a, 'list_sessions')).structured.sessions as Array<{ id: string; lease?: { holder: string; yours: boolean } }>).find((s) => s.id === session)?.lease;
    expect(holder?.yours).toBe(false);
    if (era === 'legacy') expect(holder?.holder).toBe('mcp #2');
    expect((await call(b, 'release_lease', { lease: other.structured.lease })).isError).toBe(false);
  });

  it('ends a 2025-era session when its client closes: 500 clients connect and close in a row, and the next one is served', async () => {
    const clientsNow = () => Number(/MCP clients: (\d+)/.exec(rig.cli(['status']))?.[1]);
    const before = clientsNow();
    for (let i = 0; i < 500; i++) {
      const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
      const client = new Client({ name: `churn-${i}`, version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
      await client.connect(transport);
      await client.close();
    }
    const next = await httpClient('legacy', 'after-churn');
    expect((await call(next, 'list_sessions')).isError).toBe(false);
    // The closed clients' sessions ended (their SSE streams closed); only the one still open is left of them.
    await until(() => clientsNow() <= before + 1, 20_000, 'the closed clients to leave the hub');
    await next.close();
  });

  it('ends the lease of a 2025-era HTTP holder killed with -9 within seconds, not at its TTL', async () => {
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
         const t = new StreamableHTTPClientTransport(new URL(${JSON.stringify(url)}), { requestInit: { headers: { Authorization: 'Bearer ${token}' } } });
         const c = new Client({ name: 'doomed', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
         await c.connect(t);
         const r = await c.callTool({ name: 'acquire_lease', arguments: { session: ${JSON.stringify(session)}, ttl_ms: 600000 } });
         process.stdout.write(JSON.stringify(r.structuredContent) + '\\n');
         setInterval(() => {}, 1000);`,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    holder.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    const held = await until(() => (out.includes('\n') ? (JSON.parse(out) as { lease?: string }) : undefined), 20_000, 'the holder to take its lease');
    expect(held.lease).toMatch(/^lease_/);
    const observer = await httpClient('legacy', 'observer');
    const leaseOf = async () => ((await call(observer, 'list_sessions')).structured.sessions as Array<{ id: string; lease?: { holder: string } }>).find((s) => s.id === session)?.lease;
    expect((await leaseOf())?.holder).toBe('doomed');
    const killed = Date.now();
    holder.kill('SIGKILL');
    await until(async () => (await leaseOf()) === undefined, 20_000, 'the killed holder\'s lease to end');
    // Its TTL was 10 minutes: it ended because its client went away (the session's grace is 3 s).
    expect(Date.now() - killed).toBeLessThan(15_000);
  });

  it('refuses to bind anything but a loopback address, and to serve without --http', () => {
    for (const host of ['0.0.0.0', '192.168.1.20', '::', 'example.com']) {
      const run = spawnSync(process.execPath, [CLI, 'serve', '--http', '--host', host, '--port', '0'], { env: rig.env, encoding: 'utf8', timeout: 20_000 });
      expect(run.status, host).toBe(2);
      expect(run.stderr).toMatch(/loopback address only/);
    }
    const bare = spawnSync(process.execPath, [CLI, 'serve'], { env: rig.env, encoding: 'utf8', timeout: 20_000 });
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/--http/);
  });

  it('`oriel config <client> --http` prints the HTTP form with the URL and the token', () => {
    const port = new URL(url).port;
    const out = JSON.parse(rig.cli(['config', 'cursor', '--http', '--port', port])) as { mcpServers: { oriel: { url: string; headers: Record<string, string> } } };
    expect(out.mcpServers.oriel).toEqual({ url, headers: { Authorization: `Bearer ${token}` } });
    // Without --port, the URL is where the running `oriel serve --http --port 0` serves (a port the system chose),
    // not the default port; `oriel status` says the same.
    expect(port).not.toBe('47823');
    const found = JSON.parse(rig.cli(['config', 'cursor', '--http'])) as { mcpServers: { oriel: { url: string } } };
    expect(found.mcpServers.oriel.url).toBe(url);
    expect((JSON.parse(rig.cli(['status', '--json'])) as { http?: { url: string } }).http).toEqual({ url });
    const codex = rig.cli(['config', 'codex', '--http', '--port', port]);
    expect(codex).toContain(`url = "${url}"`);
    expect(codex).not.toContain(token);
  });

  it('starts the hub again when it dies, and serves on the same address: clients connect again and see the browser', async () => {
    const pidFile = path.join(rig.env.ORIEL_RUNTIME_DIR!, 'hub.pid');
    const oldPid = Number(readFileSync(pidFile, 'utf8'));
    process.kill(oldPid, 'SIGKILL');
    await until(() => said.includes(`serving MCP over HTTP at ${url} again`) || undefined, 30_000, '`oriel serve` to serve again');
    expect(serve.exitCode).toBeNull();
    expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(oldPid);
    const again = await httpClient('modern', 'after-restart');
    const sessions = await until(async () => {
      const r = await call(again, 'list_sessions');
      return (r.structured.sessions as unknown[] | undefined)?.length ? r.structured.sessions : undefined;
    }, 30_000, 'the browser to reach the new hub');
    expect(sessions).toHaveLength(1);
  });
});
