// The spine, end to end in each real browser: popup sharing → native messaging → hub → `oriel mcp` → official MCP
// client in both protocol eras. list_sessions, snapshot, click (the page changes), navigate (old handles die), and
// the session rules of SPEC §2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { BROWSERS, call, handleOf, launchRig, serveFixtures, until, type Rig } from './harness.js';

describe.each(BROWSERS)('spine in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let legacy: Client;
  let modern: Client;
  let shop: Page;

  beforeAll(async () => {
    site = await serveFixtures();
    rig = await launchRig(kind);
    legacy = await rig.client('legacy', 'legacy-agent');
    modern = await rig.client('modern', 'modern-agent');
  });

  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  it('lists nothing and answers no_session before any tab is shared', async () => {
    shop = await rig.open(`${site.url}/shop/index.html`);
    // Give the extension time to connect; an unshared tab must still be invisible.
    await until(() => rig.connectedBrowsers() > 0, 20_000, 'browser connected');
    const list = await call(legacy, 'list_sessions');
    expect(list.structured.sessions).toEqual([]);
    const snap = await call(modern, 'snapshot');
    expect(snap.isError).toBe(true);
    expect(snap.error?.code).toBe('no_session');
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`${era} era: lists the shared tab, snapshots it and clicks in it`, async () => {
      const client = era === 'legacy' ? legacy : modern;
      await rig.share('/shop/index.html');
      const list = await until(async () => {
        const r = await call(client, 'list_sessions');
        const sessions = r.structured.sessions as Array<{ id: string; url: string; origin: string; browser: string }>;
        return sessions.length === 1 ? sessions : undefined;
      }, 10_000, 'one session');
      expect(list[0]!.url).toBe(`${site.url}/shop/index.html`);
      expect(list[0]!.origin).toBe(site.origin);
      expect(list[0]!.browser).toBe(kind);

      const snap = await call(client, 'snapshot');
      expect(snap.isError).toBe(false);
      const outline = snap.structured.text as string;
      expect(outline).toMatch(/heading "Keyboards"/);
      expect(snap.structured.document).toMatch(/^[a-z0-9]{4,16}$/);
      const add = handleOf(outline, /button "Add Mechanical keyboard to cart"/);

      const clicked = await call(client, 'click', { handle: add });
      expect(clicked.isError).toBe(false);
      expect(clicked.structured).toMatchObject({ dispatched: true, trusted: false, dom_changed: true });
      // The page's own state changed: the cart holds the item.
      const cart = await shop.$eval('#cart tbody', (el) => el.textContent);
      expect(cart).toContain('Mechanical keyboard');
      const again = await call(client, 'snapshot');
      expect(again.structured.text).toMatch(/button "Check out"(?![^\n]*disabled)/);
      // Same element, same handle across snapshots.
      expect(handleOf(again.structured.text as string, /button "Add Mechanical keyboard to cart"/)).toBe(add);
    });
  }

  it('navigate returns a new document and old handles answer unknown_handle', async () => {
    const before = await call(legacy, 'snapshot');
    const oldHandle = handleOf(before.structured.text as string, /button "Add Wireless keyboard to cart"/);
    const nav = await call(legacy, 'navigate', { url: `${site.url}/shop/about.html` });
    expect(nav.isError).toBe(false);
    expect(nav.structured.url).toBe(`${site.url}/shop/about.html`);
    expect(nav.structured.document).not.toBe(before.structured.document);
    const stale = await call(legacy, 'click', { handle: oldHandle });
    expect(stale.isError).toBe(true);
    expect(stale.error?.code).toBe('unknown_handle');
    const guarded = await call(legacy, 'snapshot', { document: before.structured.document });
    expect(guarded.error?.code).toBe('stale_document');
    const after = await call(modern, 'snapshot');
    expect(after.structured.text).toMatch(/heading "About this shop"/);
    await call(legacy, 'navigate', { action: 'back' });
  });

  it('two shared tabs: a call without session is ambiguous and names both', async () => {
    await rig.open(`${site.url}/shop/about.html?second`);
    await rig.share('about.html?second');
    const sessions = await until(async () => {
      const s = (await call(legacy, 'list_sessions')).structured.sessions as Array<{ id: string }>;
      return s.length === 2 ? s : undefined;
    }, 10_000, 'two sessions');
    const amb = await call(modern, 'snapshot');
    expect(amb.error?.code).toBe('ambiguous_session');
    for (const s of sessions) expect(amb.error?.message).toContain(s.id);
    const chosen = await call(modern, 'snapshot', { session: sessions[1]!.id });
    expect(chosen.isError).toBe(false);
  });

  it('unsharing ends the session: its pending and later calls get session_gone', async () => {
    const sessions = (await call(legacy, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>;
    const second = sessions.find((s) => s.url.includes('?second'))!;
    await rig.open(`${site.url}/shop/index.html?pending`);
    await rig.share('index.html?pending');
    const pendingId = await until(async () => {
      const s = (await call(legacy, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>;
      return s.find((x) => x.url.includes('?pending'))?.id;
    }, 10_000, 'pending session');
    // The checkout button stays disabled, so this click waits until its timeout — or until the session ends.
    const pending = call(legacy, 'click', { session: pendingId, selector: '#checkout', timeout_ms: 20_000 });
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    await rig.share('index.html?pending', false);
    const result = await pending;
    expect(result.error?.code).toBe('session_gone');
    expect(Date.now() - started).toBeLessThan(10_000);
    const later = await call(modern, 'snapshot', { session: pendingId });
    expect(later.error?.code).toBe('session_gone');
    await rig.share('about.html?second', false);
    const gone = await call(modern, 'snapshot', { session: second.id });
    expect(gone.error?.code).toBe('session_gone');
  });
});
