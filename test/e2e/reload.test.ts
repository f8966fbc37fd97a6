// An extension reload or update (docs/architecture.md, "Sessions"): the tabs shared before it stay shared under the
// same session ids and answer a snapshot and a click without the page being reloaded, and a tab that was open before
// the reload can be shared afterwards and works at once (Chromium does not put content scripts into open tabs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import type { Client } from '@modelcontextprotocol/client';
import { BROWSERS, FIXTURES, call, handleOf, launchRig, serveFixtures, until, type Rig } from './harness.js';

describe.each(BROWSERS)('extension reload in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let client: Client;
  let shared: Page;
  let later: Page;
  /** When the hub's current connection to the browser opened: the reloaded extension opens another. */
  const connectedSince = () => (JSON.parse(rig.cli(['status', '--json'])) as { browsers?: Array<{ since?: string; connected?: boolean }> }).browsers?.find((b) => b.connected)?.since;
  const sessions = async () => ((await call(client, 'list_sessions')).structured.sessions ?? []) as Array<{ id: string; connected: boolean; url: string }>;

  beforeAll(async () => {
    site = await serveFixtures(path.join(FIXTURES, 'leases'));
    rig = await launchRig(kind);
    client = await rig.client('legacy', 'reload-test');
    shared = await rig.open(`${site.url}/counter.html?tab=1`);
    later = await rig.open(`${site.url}/counter.html?tab=2`);
    await rig.share('counter.html?tab=1');
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  it('keeps a shared tab shared under its session id, answering a snapshot and a click, and lets an open tab be shared', async () => {
    const before = await until(async () => (await sessions())[0], 20_000, 'the shared tab to become a session');
    const since = connectedSince();
    await rig.reloadExtension();
    await until(() => (connectedSince() ?? since) !== since || undefined, 30_000, 'the reloaded extension to connect');
    const after = await until(async () => {
      const s = await sessions();
      return s.length > 0 && s.every((x) => x.connected) ? s : undefined;
    }, 30_000, 'the session to be connected again');
    expect(after.map((s) => s.id)).toEqual([before.id]);

    const snap = await call(client, 'snapshot', { session: before.id });
    expect(snap.error).toBeUndefined();
    const add = handleOf(snap.text, /button "Add one"/);
    const click = await call(client, 'click', { session: before.id, handle: add });
    expect(click.error).toBeUndefined();
    expect(await shared.$eval('#count', (e) => e.textContent)).toBe('1');

    // A tab that loaded before the reload, shared only now: it works without the page being reloaded.
    await rig.share('counter.html?tab=2');
    const second = await until(async () => (await sessions()).find((s) => s.url.includes('tab=2')), 20_000, 'the second tab to become a session');
    const read = await call(client, 'extract', { session: second.id, selector: '#who' });
    expect(read.error).toBeUndefined();
    expect(read.structured.value).toBe('Counter of tab 2');
    const snap2 = await call(client, 'snapshot', { session: second.id });
    await call(client, 'click', { session: second.id, handle: handleOf(snap2.text, /button "Add one"/) });
    expect(await later.$eval('#count', (e) => e.textContent)).toBe('1');
  });
});
