// The extension's background stopping mid-session (docs/architecture.md, "Disconnects"): Chromium stops its service
// worker (here through the test's CDP connection, as the browser does when idle, on a crash or an update); Firefox
// loses its event page when the extension process dies (here killed, as a crash does: Firefox does not suspend an
// event page holding a native port). Sessions come back under the same ids without anyone touching the browser; a
// pending ordinary call fails with browser_disconnected; a pending navigate completes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type http from 'node:http';
import type { Client } from '@modelcontextprotocol/client';
import { BROWSERS, FIXTURES, call, launchRig, serveFixtures, until, type Rig } from './harness.js';

describe.each(BROWSERS)('background restarts in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let client: Client;
  let session: string;
  /** The held response of /slow.html: `arrived` resolves when the request came in; `release` answers it. */
  let slow: { arrived: Promise<void>; signal(): void; release(): void } | undefined;
  /** When the hub's current connection to the browser opened (`oriel status`): a restarted background opens another. */
  const connectedSince = () => (JSON.parse(rig.cli(['status', '--json'])) as { browsers?: Array<{ since?: string }> }).browsers?.[0]?.since;

  const connected = async () => {
    const r = await call(client, 'list_sessions');
    const s = (r.structured.sessions as Array<{ id: string; connected: boolean }> | undefined)?.find((x) => x.id === session);
    return s?.connected === true;
  };

  beforeAll(async () => {
    site = await serveFixtures(path.join(FIXTURES, 'leases'), {
      '/slow.html': (_req: http.IncomingMessage, res: http.ServerResponse) => {
        let answered = false;
        slow!.release = () => {
          if (answered) return;
          answered = true;
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Slow</title><p id="done">Loaded late</p>');
        };
        slow!.signal();
      },
    });
    rig = await launchRig(kind);
    client = await rig.client('legacy', 'restart-test');
    await rig.open(`${site.url}/counter.html?tab=1`);
    await rig.share('counter.html?tab=1');
    session = await until(async () => {
      const r = await call(client, 'list_sessions');
      return (r.structured.sessions as Array<{ id: string }> | undefined)?.[0]?.id;
    }, 20_000, 'the shared tab to become a session');
  });
  afterAll(async () => {
    slow?.release();
    await rig?.close();
    await site?.close();
  });

  it('fails a pending call with browser_disconnected, then answers again under the same session id by itself', async () => {
    const pending = call(client, 'wait_for', { session, text: 'never on this page', timeout_ms: 50_000 });
    // The call reached the page before the background goes.
    await until(() => {
      const out = JSON.parse(rig.cli(['status', '--json'])) as { sessions?: Array<{ id: string; queued?: number }> };
      return (out.sessions?.find((s) => s.id === session)?.queued ?? 0) >= 1 || undefined;
    }, 20_000, 'the wait_for to be running');
    const stoppedAt = Date.now();
    await rig.stopBackground();
    const failed = await pending;
    const failedAfter = Date.now() - stoppedAt;
    expect(failed.error).toMatchObject({ code: 'browser_disconnected', retryable: true });
    // Nobody touches the browser: the tab's own lifeline brings the background back, which reconnects.
    await until(connected, 30_000, 'the session to be connected again');
    const r = await call(client, 'extract', { session, selector: '#who' });
    expect(r.isError).toBe(false);
    expect(r.structured.value).toBe('Counter of tab 1');
    const ids = ((await call(client, 'list_sessions')).structured.sessions as Array<{ id: string }>).map((s) => s.id);
    expect(ids).toEqual([session]);
    process.stderr.write(`[restart ${kind}] pending call failed ${failedAfter} ms after the stop; usable again after ${Date.now() - stoppedAt} ms\n`);
  });

  it('completes a navigate that was pending when the background stopped, with the new document', async () => {
    const before = await call(client, 'extract', { session, selector: '#who' });
    expect(before.isError).toBe(false);
    let signal!: () => void;
    const arrived = new Promise<void>((r) => (signal = r));
    slow = { arrived, signal, release: () => {} };
    const since = connectedSince();
    const nav = call(client, 'navigate', { session, url: `${site.url}/slow.html`, timeout_ms: 50_000 });
    await arrived;
    await rig.stopBackground();
    // The page answers only once the background that started the navigation is gone and a new one is connected.
    await until(() => connectedSince() !== since || undefined, 30_000, 'the restarted background to connect');
    slow.release();
    const r = await nav;
    expect(r.error).toBeUndefined();
    expect(r.structured).toMatchObject({ url: `${site.url}/slow.html` });
    expect(typeof r.structured.document).toBe('string');
    await until(connected, 30_000, 'the session to be connected again');
    const read = await call(client, 'extract', { session, selector: '#done' });
    expect(read.structured.value).toBe('Loaded late');
  });
});
