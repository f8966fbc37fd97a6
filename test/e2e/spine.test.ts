// The spine, end to end in each real browser: popup sharing → native messaging → hub → `oriel mcp` → official MCP
// client in both protocol eras. The unpacked build under its pinned id (allowed beside the store id), list_sessions,
// snapshot, click (the page changes), navigate (old handles die), and the session rules of docs/architecture.md, "Sessions".
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { CHROME_WEB_STORE_ID, CHROMIUM_EXTENSION_ID, describeExtensionId, GECKO_ID } from '../../shared/extension-ids.js';
import { BROWSERS, call, handleOf, launchRig, serveFixtures, stuckClickTarget, until, type Rig } from './harness.js';

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

  it('runs the unpacked build under its pinned id, which the host manifest allows beside the store id', async () => {
    await until(() => rig.connectedBrowsers() > 0, 20_000, 'browser connected');
    const pinned = kind === 'chromium' ? CHROMIUM_EXTENSION_ID : GECKO_ID;
    const status = JSON.parse(rig.cli(['status', '--json'])) as { browsers: Array<{ extension_id: string; connected: boolean; popup_url?: string }> };
    expect(status.browsers.filter((b) => b.connected).map((b) => b.extension_id)).toStrictEqual([pinned]);
    // The popup's address, which in Firefox only the browser knows (its host is random per profile).
    expect(status.browsers.map((b) => b.popup_url)).toStrictEqual([`${rig.extensionBase}/extension/ui/popup.html`]);
    expect(rig.cli(['status'])).toContain(`popup: ${rig.extensionBase}/extension/ui/popup.html`);
    // The host manifest the harness's `oriel install` wrote, found through the install record.
    const record = JSON.parse(readFileSync(path.join(rig.env.ORIEL_DATA_DIR!, 'install.json'), 'utf8')) as { targets: Array<{ id: string; manifest: string }> };
    const target = record.targets.find((t) => t.id === (kind === 'chromium' ? 'chromium-profile' : 'firefox'));
    const manifest = JSON.parse(readFileSync(target!.manifest, 'utf8')) as { allowed_origins?: string[]; allowed_extensions?: string[] };
    if (kind === 'chromium') {
      expect(manifest.allowed_origins).toStrictEqual([`chrome-extension://${CHROMIUM_EXTENSION_ID}/`, `chrome-extension://${CHROME_WEB_STORE_ID}/`]);
    } else {
      // addons.mozilla.org lists the same gecko id as the unpacked build.
      expect(manifest.allowed_extensions).toStrictEqual([GECKO_ID]);
    }
    // doctor exits 1 while no tab is shared; its report still names the connected extension's id and build.
    let report: string;
    try {
      report = rig.cli(['doctor', '--json']);
    } catch (err) {
      report = String((err as { stdout?: unknown }).stdout);
    }
    const checks = JSON.parse(report) as Array<{ check: string; ok: boolean; detail: string }>;
    expect(checks.find((c) => c.check === 'browsers')).toMatchObject({ ok: true, detail: expect.stringContaining(`extension ${describeExtensionId(pinned)}`) });
    const idChecks = checks.filter((c) => c.check.startsWith('extension-id:'));
    expect(idChecks.length).toBeGreaterThan(0);
    expect(idChecks.filter((c) => !c.ok)).toStrictEqual([]);
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
      const outline = snap.text;
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
      expect(again.text).toMatch(/button "Check out"(?![^\n]*disabled)/);
      // Same element, same handle across snapshots.
      expect(handleOf(again.text, /button "Add Mechanical keyboard to cart"/)).toBe(add);
    });
  }

  it('navigate returns a new document and old handles answer unknown_handle', async () => {
    const before = await call(legacy, 'snapshot');
    const oldHandle = handleOf(before.text, /button "Add Wireless keyboard to cart"/);
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
    expect(after.text).toMatch(/heading "About this shop"/);
    await call(legacy, 'navigate', { action: 'back' });
  });

  it('two shared tabs: a call without session is ambiguous and names both, page titles escaped', async () => {
    const second = await rig.open(`${site.url}/shop/about.html?second`);
    // A title with bidi controls: raw, a terminal or chat view would show "Pay exe.pdf now" with the name reversed.
    const title = 'Pay \u202Efdp.exe\u202C now \u2066x\u2069';
    await second.evaluate((t) => (document.title = t), title);
    await rig.share('about.html?second');
    const sessions = await until(async () => {
      const s = (await call(legacy, 'list_sessions')).structured.sessions as Array<{ id: string; title: string }>;
      return s.length === 2 && s.some((x) => x.title === title) ? s : undefined;
    }, 10_000, 'two sessions');
    const escaped = '"Pay \\u{202e}fdp.exe\\u{202c} now \\u{2066}x\\u{2069}"';
    const listed = await call(modern, 'list_sessions');
    expect(listed.text).toContain(escaped);
    expect(listed.text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    const amb = await call(modern, 'snapshot');
    expect(amb.error?.code).toBe('ambiguous_session');
    for (const s of sessions) expect(amb.error?.message).toContain(s.id);
    expect(amb.error?.message).toContain(escaped);
    expect(amb.text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    const chosen = await call(modern, 'snapshot', { session: sessions[1]!.id });
    expect(chosen.isError).toBe(false);
  });

  it('unsharing ends the session: its pending and later calls get session_gone', async () => {
    const sessions = (await call(legacy, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>;
    const second = sessions.find((s) => s.url.includes('?second'))!;
    const pendingPage = await rig.open(`${site.url}/shop/index.html?pending`);
    await rig.share('index.html?pending');
    const pendingId = await until(async () => {
      const s = (await call(legacy, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>;
      return s.find((x) => x.url.includes('?pending'))?.id;
    }, 10_000, 'pending session');
    // This click waits for a covered target until its timeout — or until the session ends (session_gone, where
    // running to the timeout would answer not_actionable).
    const target = await stuckClickTarget(pendingPage);
    const pending = call(legacy, 'click', { session: pendingId, selector: target.selector, timeout_ms: 30_000 });
    await target.underWay;
    await rig.share('index.html?pending', false);
    const result = await pending;
    expect(result.error?.code).toBe('session_gone');
    const later = await call(modern, 'snapshot', { session: pendingId });
    expect(later.error?.code).toBe('session_gone');
    await rig.share('about.html?second', false);
    const gone = await call(modern, 'snapshot', { session: second.id });
    expect(gone.error?.code).toBe('session_gone');
  });
});
