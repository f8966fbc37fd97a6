// Several MCP clients on one shared tab (docs/architecture.md, "Ordering and leases"): a leased click-then-read is
// never interleaved by other clients' calls, which run after release; a silent holder's lease lapses; killing the
// holder's `oriel mcp` releases it at once; a foreign lease is refused. Real browser, real native messaging, official
// MCP clients in both eras.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BROWSERS, CLI, FIXTURES, call, launchRig, serveFixtures, until, type Rig, type ToolCall } from './harness.js';

interface SessionStatus {
  id: string;
  queued?: number;
  lease?: { client: string; expires_at: string };
}

describe.each(BROWSERS)('leases in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let a: Client;
  let b: Client;
  let c: Client;
  let session: string;

  /** The hub's view of the shared session (`oriel status --json`): calls queued, lease holder. */
  const status = (): SessionStatus => {
    const out = JSON.parse(rig.cli(['status', '--json'])) as { sessions?: SessionStatus[] };
    return out.sessions?.find((s) => s.id === session) ?? { id: session };
  };
  const count = async (client: Client, lease?: string) => {
    const r = await call(client, 'extract', { selector: '#count', ...(lease ? { lease } : { session }) });
    if (r.isError) throw new Error(`extract: ${r.error?.code} ${r.error?.message}`);
    return Number(r.structured.value);
  };

  beforeAll(async () => {
    site = await serveFixtures(path.join(FIXTURES, 'leases'));
    rig = await launchRig(kind);
    a = await rig.client('legacy', 'agent-a');
    b = await rig.client('modern', 'agent-b');
    c = await rig.client('legacy', 'agent-c');
    await rig.open(`${site.url}/counter.html?tab=1`);
    await rig.share('counter.html?tab=1');
    session = await until(async () => {
      const r = await call(a, 'list_sessions');
      return (r.structured.sessions as Array<{ id: string }> | undefined)?.[0]?.id;
    }, 20_000, 'the shared tab to become a session');
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  it('a leased click-then-read is not interleaved by other clients, whose calls wait and then all run', async () => {
    const lease = await call(a, 'acquire_lease', { session });
    expect(lease.isError).toBe(false);
    const id = lease.structured.lease as string;
    const before = await count(a, id);

    // Two other clients (both eras) click while A holds the tab; their calls queue in the hub.
    const settled: string[] = [];
    const others = [b, c, b].map((client, i) =>
      call(client, 'click', { session, selector: '#add' }).then((r) => {
        settled.push(`other ${i}`);
        return r;
      }),
    );
    await until(() => (status().queued ?? 0) >= 3 || undefined, 20_000, 'the other clients\' clicks to queue');
    expect(status().lease?.client).toBe('agent-a');
    const seen = await call(b, 'list_sessions');
    expect((seen.structured.sessions as Array<{ lease?: { holder: string; yours: boolean } }>)[0]!.lease).toMatchObject({ holder: 'agent-a', yours: false });

    const click = await call(a, 'click', { lease: id, selector: '#add' });
    expect(click.isError).toBe(false);
    // A reads exactly its own click's effect: none of the queued clicks ran in between.
    expect(await count(a, id)).toBe(before + 1);
    expect(settled).toEqual([]);

    const released = await call(a, 'release_lease', { lease: id });
    expect(released.structured).toMatchObject({ released: true, session });
    const results: ToolCall[] = await Promise.all(others);
    expect(results.map((r) => r.error?.code)).toEqual([undefined, undefined, undefined]);
    expect(await count(c)).toBe(before + 4);
    expect(status().lease).toBeUndefined();
  });

  it('refuses a foreign lease id with lease_invalid and a next step; a made-up one too', async () => {
    const lease = await call(a, 'acquire_lease', { session });
    const id = lease.structured.lease as string;
    const foreign = await call(b, 'click', { lease: id, selector: '#add' });
    expect(foreign.error).toMatchObject({ code: 'lease_invalid', retryable: false });
    expect(foreign.error?.next).toMatch(/acquire_lease/);
    expect((await call(b, 'release_lease', { lease: id })).error?.code).toBe('lease_invalid');
    expect((await call(b, 'extract', { lease: 'lease_made_up', selector: '#count' })).error?.code).toBe('lease_invalid');
    // Reading the bridge checks a quoted lease the same way (it once ignored it).
    expect((await call(b, 'await_message', { lease: id, timeout_ms: 0 })).error?.code).toBe('lease_invalid');
    expect((await call(b, 'await_message', { lease: 'lease_made_up', timeout_ms: 0 })).error?.code).toBe('lease_invalid');
    expect((await call(a, 'await_message', { lease: id, timeout_ms: 0 })).isError).toBe(false);
    // A still holds it.
    expect(status().lease?.client).toBe('agent-a');
    expect((await call(a, 'release_lease', { lease: id })).isError).toBe(false);
  });

  it('lets a silent holder\'s lease lapse after its TTL: the waiting call runs, the lease then answers lease_expired', async () => {
    const lease = await call(a, 'acquire_lease', { session, ttl_ms: 1_000 });
    const id = lease.structured.lease as string;
    // B's read waits for the lease to lapse (A never calls again), then runs.
    const read = await call(b, 'wait_for', { session, selector: '#count', timeout_ms: 30_000 });
    expect(read.isError).toBe(false);
    const late = await call(a, 'click', { lease: id, selector: '#add' });
    expect(late.error).toMatchObject({ code: 'lease_expired', refresh_required: true });
    expect(late.error?.message).toMatch(/TTL/);
  });

  it('releases at once the lease of a holder whose `oriel mcp` is killed (kill -9)', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env: { ...rig.env, ORIEL_CLIENT_NAME: 'doomed' }, stderr: 'pipe' });
    const doomed = new Client({ name: 'doomed', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    await doomed.connect(transport);
    // The longest TTL: only the disconnect can end this lease within the waiting call's budget.
    const lease = await call(doomed, 'acquire_lease', { session, ttl_ms: 600_000 });
    expect(lease.isError).toBe(false);
    const waiting = call(b, 'wait_for', { session, selector: '#count', timeout_ms: 30_000 });
    await until(() => (status().queued ?? 0) >= 1 || undefined, 20_000, 'the read to queue behind the lease');
    expect(status().lease?.client).toBe('doomed');
    process.kill(transport.pid!, 'SIGKILL');
    const r = await waiting;
    expect(r.isError).toBe(false);
    expect(status().lease).toBeUndefined();
    await doomed.close().catch(() => undefined);
  });
});
