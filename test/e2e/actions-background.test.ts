// navigate, evaluate and screenshot through MCP in real browsers (docs/tools.md): the operations the extension's
// background runs with browser APIs, each with the errors it can return.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, until } from './harness.js';
import { answerPrompt } from './consent-helpers.js';
import { actionsRig, inPage, textOf, type ActionsRig } from './actions-setup.js';

describe.each(BROWSERS)('background operations in %s', (kind) => {
  let t: ActionsRig;

  beforeAll(async () => {
    t = await actionsRig(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('navigate: load waits for load, domcontentloaded does not, none returns at once without a document', async () => {
    const first = await t.load('nav.html');
    // The page's image is held by the server until released, so `load` cannot fire before the test says so.
    const held = t.site.hold('dcl');
    const dcl = await t.tool('navigate', { url: `${t.site.url}nav.html?image-hold=dcl`, wait_until: 'domcontentloaded', timeout_ms: 20_000 });
    expect(dcl.isError, dcl.text).toBe(false);
    expect(dcl.structured.document).toMatch(/^[a-z0-9]{4,16}$/);
    expect(dcl.structured.document).not.toBe(first);
    expect(dcl.structured).toMatchObject({ url: `${t.site.url}nav.html?image-hold=dcl`, title: 'Nav fixture' });
    held.release();
    const gate = t.site.hold('load');
    let released = false;
    const loading = t.tool('navigate', { url: `${t.site.url}nav.html?image-hold=load`, wait_until: 'load' }, t.modern).then((r) => ({ r, released }));
    await gate.requested;
    released = true;
    gate.release();
    const { r: load, released: releasedFirst } = await loading;
    expect(load.isError, load.text).toBe(false);
    expect(releasedFirst).toBe(true); // it answered only after the image, hence `load`
    expect(load.structured.document).not.toBe(dcl.structured.document);
    const none = await t.tool('navigate', { url: './target.html', wait_until: 'none' });
    expect(none.isError).toBe(false);
    expect(none.structured.document).toBeUndefined();
    await t.page.waitForFunction(() => document.title === 'Target page');
  });

  it('navigate: back, forward and reload each give a new document; relative URLs resolve', async () => {
    const a = await t.load('nav.html?a');
    const b = await t.tool('navigate', { url: './nav.html?b' });
    expect(b.structured.url).toBe(`${t.site.url}nav.html?b`);
    const back = await t.tool('navigate', { action: 'back' });
    expect(back.structured.url).toBe(`${t.site.url}nav.html?a`);
    expect(back.structured.document).toMatch(/^[a-z0-9]{4,16}$/);
    const forward = await t.tool('navigate', { action: 'forward' });
    expect(forward.structured.url).toBe(`${t.site.url}nav.html?b`);
    const stamp = await textOf(t.page, '#stamp');
    const reload = await t.tool('navigate', { action: 'reload' });
    expect(reload.structured.document).not.toBe(forward.structured.document);
    expect(await textOf(t.page, '#stamp')).not.toBe(stamp);
    expect(reload.structured.document).not.toBe(a);
  });

  it('navigate: back and forward go along the pages the tab went through, past a user navigation and a worker restart', async () => {
    // Chromium's own back skips entries added without user activation, which is how it treats these loads.
    const url = (q: string) => `${t.site.url}nav.html?${q}`;
    const go = async (action: 'back' | 'forward') => {
      const r = await t.tool('navigate', { action });
      if (r.isError) throw new Error(`${action}: ${r.error?.code} ${r.error?.message}`);
      return r.structured.url;
    };
    await t.load('nav.html?a');
    await t.load('nav.html?b');
    await t.load('nav.html?c');
    expect(await go('back')).toBe(url('b'));
    expect(await go('back')).toBe(url('a'));
    expect(await go('forward')).toBe(url('b'));
    await t.load('nav.html?d'); // a new page drops what was forward of b
    const none = await t.tool('navigate', { action: 'forward' });
    expect(none.error?.code).toBe('navigation_failed');
    expect(none.error?.message).toMatch(/no next page/);
    // The user (not an agent) moves the tab on: that page is on the trail too, and back returns to the one before.
    await t.page.goto(url('e'), { waitUntil: 'load' });
    expect(await go('back')).toBe(url('d'));
    expect(await go('back')).toBe(url('b'));
    if (kind === 'chromium') {
      // The service worker stops (as Chromium does with idle workers); the trail is in storage.session.
      const cdp = await t.rig.browser.target().createCDPSession();
      const { targetInfos } = await cdp.send('Target.getTargets');
      const worker = targetInfos.find((i) => i.type === 'service_worker' && i.url.startsWith('chrome-extension://'))!;
      await cdp.send('Target.closeTarget', { targetId: worker.targetId });
      await until(() => t.rig.connectedBrowsers() === 0 || undefined, 10_000, 'the worker to stop');
      await t.page.reload({ waitUntil: 'load' }); // a tab event wakes the worker, which reconnects
      await until(async () => {
        const r = await t.tool('list_sessions');
        return (r.structured.sessions as Array<{ connected: boolean }> | undefined)?.[0]?.connected || undefined;
      }, 20_000, 'the session to come back');
      await cdp.detach();
    }
    expect(await go('forward')).toBe(url('d'));
    expect(await go('back')).toBe(url('b'));
  });

  it('navigate: back returns to the page the tab was shared on after a click, or after the page\'s own script moved it', async () => {
    const url = (path: string) => t.site.url + path;
    const go = async (action: 'back' | 'forward') => {
      const r = await t.tool('navigate', { action });
      if (r.isError) throw new Error(`${action}: ${r.error?.code} ${r.error?.message}`);
      return r.structured.url;
    };
    const shows = (href: string) => until(async () => (await inPage(t.page, () => location.href)) === href || undefined, 15_000, `the tab to show ${href}`);
    /** Unshares the tab, opens `path` in it as the person would, and shares it again there: its trail starts afresh. */
    const shareAt = async (path: string) => {
      await t.rig.share(await inPage(t.page, () => location.href), false);
      await t.page.goto(url(path), { waitUntil: 'load' });
      await t.rig.share(path);
      await until(async () => ((await t.tool('list_sessions')).structured.sessions as Array<{ url: string }> | undefined)?.some((s) => s.url === url(path)) || undefined, 20_000, 'the tab to be shared again');
    };

    await shareAt('click.html?start');
    expect((await t.tool('click', { selector: '#link' })).structured.navigation_started).toBe(true);
    await shows(url('target.html'));
    expect(await go('back')).toBe(url('click.html?start'));
    expect(await go('forward')).toBe(url('target.html'));
    expect(await go('back')).toBe(url('click.html?start'));

    // The page's own script (location.assign in its click handler) takes the tab on: back still finds the page before.
    await shareAt('nav.html?start');
    await t.tool('click', { selector: '#assign' });
    await shows(url('target.html?assigned'));
    expect(await go('back')).toBe(url('nav.html?start'));
    expect(await go('forward')).toBe(url('target.html?assigned'));
    const none = await t.tool('navigate', { action: 'forward' });
    expect(none.error?.message).toMatch(/no next page/);
  });

  it('navigate errors: javascript: and browser-internal URLs, unreachable host, timeout, bad arguments', async () => {
    await t.load('nav.html');
    for (const url of ['javascript:alert(1)', 'chrome://settings', 'about:config', 'file:///etc/passwd']) {
      const r = await t.tool('navigate', { url });
      expect(r.error?.code, url).toBe('invalid_argument');
    }
    expect((await t.tool('navigate', { url: 'javascript:1' })).error?.message).toContain('evaluate');
    // A bare host or plain words name no address here: refused, instead of loading http://<this host>/example.com.
    const here = t.page.url();
    for (const [url, instead] of [['example.com', 'https://example.com'], ['not a url', 'https://example.com/']]) {
      const r = await t.tool('navigate', { url });
      expect(r.error?.code, url).toBe('invalid_argument');
      expect(r.error?.message, url).toContain(`give an absolute http(s) URL such as ${instead},`);
    }
    expect(t.page.url()).toBe(here);
    // A path, a query on this page: relative to it, as before.
    expect((await t.tool('navigate', { url: '?from=query' })).structured.url).toBe(new URL('?from=query', here).href);
    // Another origin: the person is asked first (navigation is an act on the destination), and allows it once.
    const failing = t.tool('navigate', { url: 'http://127.0.0.1:9/' });
    await answerPrompt(t.rig, { capability: 'act', origin: 'http://127.0.0.1:9' }, 'allow_once', t.page);
    const failed = await failing;
    expect(failed.error?.code).toBe('navigation_failed');
    expect(failed.error?.message).toMatch(/did not load: \S+|error page/);
    const slow = await t.tool('navigate', { url: `${t.site.url}nav.html?delay=3000`, timeout_ms: 500 });
    expect(slow.error?.code).toBe('timeout');
    expect((await t.tool('navigate', {})).error?.code).toBe('invalid_argument');
    expect((await t.tool('navigate', { url: 'nav.html', action: 'reload' })).error?.code).toBe('invalid_argument');
    await t.load('nav.html');
  });

  it('evaluate: an expression in the main world, promises awaited, page exceptions as page_error, bounded', async () => {
    await t.load('nav.html');
    // The tab navigated through the extension: puppeteer may still be swapping in the new document's context.
    await until(() => t.page.evaluate(() => ((window as unknown as { pageOnly: number }).pageOnly = 41)).then(() => true, () => false), 5_000, 'the page to take a value');
    // Agents' code needs the person's exec grant: the first call asks, and the person allows any code in this tab.
    const asking = t.tool('evaluate', { expression: 'window.pageOnly + 1' });
    await answerPrompt(t.rig, { capability: 'exec' }, 'allow_session', t.page);
    const v = await asking;
    expect(v.structured).toMatchObject({ value: 42, type: 'number', truncated: false });
    const p = await t.tool('evaluate', { expression: 'new Promise((r) => setTimeout(() => r({ ok: [1, 2] }), 50))' });
    expect(p.structured).toMatchObject({ value: { ok: [1, 2] }, type: 'object' });
    const thrown = await t.tool('evaluate', { expression: '(() => { throw new TypeError("nope") })()' });
    expect(thrown.error?.code).toBe('page_error');
    expect(thrown.error?.message).toContain('TypeError: nope');
    const rejected = await t.tool('evaluate', { expression: 'Promise.reject(new RangeError("later"))' });
    expect(rejected.error?.message).toContain('RangeError: later');
    // Code that does not parse is refused by the broker before it reaches the page (broker/mcp/tools/evaluate.ts).
    const syntax = await t.tool('evaluate', { expression: 'const x = 1; x' });
    expect(syntax.error?.code).toBe('invalid_argument');
    const big = await t.tool('evaluate', { expression: '"x".repeat(5000)', max_chars: 100 });
    expect(big.structured).toMatchObject({ truncated: true });
    expect((big.structured.value as string).length).toBe(100);
    const cyclic = await t.tool('evaluate', { expression: '(() => { const o = {}; o.o = o; return o })()' });
    expect(cyclic.error?.code).toBe('page_error');
    const hang = await t.tool('evaluate', { expression: 'new Promise(() => {})', timeout_ms: 300 });
    expect(hang.error?.code).toBe('timeout');
  });

  it('evaluate on a strict-CSP page without user scripts: evaluate_unavailable says what to switch on', async () => {
    await t.load('strict.csp.html');
    const r = await t.tool('evaluate', { expression: 'window.appState.user' });
    expect(r.error?.code).toBe('evaluate_unavailable');
    expect(r.error?.message).toMatch(kind === 'chromium' ? /Allow User Scripts/ : /userScripts|user scripts/i);
  });

  it('screenshot: the visible tab and one element, JPEG by default, downscaled, size-capped', async () => {
    await t.load('shot.html');
    await t.page.bringToFront();
    const full = await t.tool('screenshot', { max_width: 400 });
    expect(full.isError, full.text).toBe(false);
    expect(full.structured).toMatchObject({ mime_type: 'image/jpeg', width: 400 });
    expect(full.structured.bytes as number).toBeLessThan(900_000);
    const box = await t.tool('screenshot', { selector: '#box', format: 'png' });
    expect(box.structured).toMatchObject({ mime_type: 'image/png' });
    expect(box.structured.width as number).toBeGreaterThanOrEqual(200);
    expect(box.structured.handle).toMatch(/\./);
    // The crop holds the red box: decode it in the page and sample the centre.
    const raw = await t.legacy.callTool({ name: 'screenshot', arguments: { selector: '#box', format: 'png' } });
    const image = (raw.content as Array<{ type: string; data?: string }>).find((c) => c.type === 'image')!;
    const rgb = await t.page.evaluate(async (data) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
      const c = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
      c.drawImage(bitmap, 0, 0);
      return Array.from(c.getImageData(bitmap.width >> 1, bitmap.height >> 1, 1, 1).data.slice(0, 3));
    }, image.data!);
    expect(rgb[0]).toBeGreaterThan(200);
    expect(rgb[1]).toBeLessThan(50);
    const hidden = await t.tool('screenshot', { selector: '#gone' });
    expect(hidden.error?.code).toBe('not_actionable');
  });

  it(`screenshot of a tab that is not the visible one ${kind === 'firefox' ? 'captures that tab (tabs.captureTab)' : 'is refused with what to do'}`, async () => {
    await t.load('shot.html');
    const other = await t.rig.open(`${t.site.url}target.html?front`);
    await other.bringToFront();
    if (kind === 'firefox') {
      // The crop of the background tab's red box is red: the shared tab was captured, not the one in front.
      const raw = await t.legacy.callTool({ name: 'screenshot', arguments: { selector: '#box', format: 'png' } });
      const image = (raw.content as Array<{ type: string; data?: string }>).find((c) => c.type === 'image');
      expect(image?.data, JSON.stringify(raw.structuredContent)).toBeTruthy();
      const rgb = await other.evaluate(async (data) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
        const c = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
        c.drawImage(bitmap, 0, 0);
        return Array.from(c.getImageData(bitmap.width >> 1, bitmap.height >> 1, 1, 1).data.slice(0, 3));
      }, image!.data!);
      expect(rgb[0]).toBeGreaterThan(200);
      expect(rgb[1]).toBeLessThan(50);
    } else {
      const r = await t.tool('screenshot', {});
      expect(r.error?.code).toBe('not_actionable');
      expect(r.error?.message).toMatch(/not the visible tab/);
      expect(r.error?.message).toMatch(/bring the tab to the front, or use snapshot/);
    }
    await other.close();
    await t.page.bringToFront();
  });
});
