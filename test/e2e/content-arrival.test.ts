// Calls that reach a document of a shared tab before Oriel's content script is there wait for it, in real Chromium and
// Firefox over real HTTP on two hosts (127.0.0.1 and localhost): the content script is registered by host only for the
// hosts shared tabs show, and injected by tab into every other document of a shared tab as it commits
// (docs/architecture.md, "What a page can see"), so a navigation to a host no shared tab showed, its iframes of
// another such host, and a page restored from the back/forward cache all come without it at first. Each case makes
// its call at once and must get the page, not "no page Oriel can work in" nor a frame "not-loaded".
import type http from 'node:http';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, call, handleOf, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt } from './consent-helpers.js';

/** How many frames of the other host a page shows: each needs its own injection, so one snapshot meets several. */
const FRAMES = 3;

/** The other of the two hosts this test serves on (same port). */
function otherHost(host: string): string {
  return host.startsWith('localhost') ? host.replace('localhost', '127.0.0.1') : host.replace('127.0.0.1', 'localhost');
}

/** Answers with `body` as HTML; `cache`: without `no-store`, which would keep the page out of the back/forward cache. */
const html = (res: http.ServerResponse, body: string, cache = false) =>
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(!cache && { 'cache-control': 'no-store' }) }).end(body);

describe.each(BROWSERS)('calls wait for the content script of a document of a shared tab in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let agent: Client;
  let page: Page;
  let session: string;
  const A = () => site.origin;
  const B = () => site.origin.replace('127.0.0.1', 'localhost');
  const tool = (name: string, args: Record<string, unknown> = {}) => call(agent, name, { session, ...args });

  beforeAll(async () => {
    site = await serveFixtures(undefined, {
      // A page with a button and FRAMES iframes of the other host.
      '/race.html': (req, res) => {
        const frames = Array.from({ length: FRAMES }, (_, i) => `<iframe src="http://${otherHost(req.headers.host ?? '')}/inner.html?${i}"></iframe>`).join('');
        html(res, `<!doctype html><title>Race</title><button id="go" onclick="this.textContent = 'went'">Go top</button>${frames}`);
      },
      '/inner.html': (_req, res) => html(res, `<!doctype html><button onclick="this.textContent = 'pressed'">Inner button</button>`),
      // Two pages of one host, for the back/forward cache: the first says whether it came back from it.
      '/first.html': (_req, res) =>
        html(res, `<!doctype html><title>First</title><script>addEventListener('pageshow', (e) => { if (e.persisted) document.documentElement.dataset.restored = 'yes'; });</script><p>First page</p>`, true),
      '/second.html': (_req, res) => html(res, `<!doctype html><title>Second</title><p>Second page</p>`, true),
    });
    rig = await launchRig(kind);
    agent = await rig.client('legacy', 'arrival-agent');
    page = await rig.open(`${A()}/race.html?start`);
    await rig.share('race.html?start');
    session = await until(async () => ((await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string }>)[0]?.id, 20_000, 'the shared tab to become a session');
    await page.bringToFront();
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  it('navigating the tab to a host no shared tab shows, then reading and acting at once, back and forth', async () => {
    // Act on B is asked once and remembered; A is the shared origin.
    let first = true;
    for (const [round, origin] of [B(), A(), B(), A()].entries()) {
      const going = tool('navigate', { url: `${origin}/race.html?${round}` });
      if (first && origin === B()) await answerPrompt(rig, { capability: 'act', origin: B() }, 'allow_origin', page);
      first = false;
      const went = await going;
      expect(went.isError, `round ${round}: ${went.text}`).toBe(false);
      expect(went.structured.document, went.text).toEqual(expect.any(String));
      const snap = await tool('snapshot');
      expect(snap.isError, `round ${round}: ${snap.text}`).toBe(false);
      expect(snap.text, `round ${round}`).not.toContain('not-loaded');
      expect(snap.text.match(/button "Inner button"/g)?.length, `round ${round}: ${snap.text}`).toBe(FRAMES);
      const click = await tool('click', { handle: handleOf(snap.text, /button "Go top"/) });
      expect(click.isError, `round ${round}: ${click.text}`).toBe(false);
      // A frame of the host just left: the other origin, where act is granted too (the share, or the answer above).
      const inner = await tool('click', { handle: handleOf(snap.text, /button "Inner button"/) });
      expect(inner.isError, `round ${round}: ${inner.text}`).toBe(false);
      expect(await page.$eval('#go', (b) => b.textContent)).toBe('went');
    }
  });

  it('a page restored from the back/forward cache, loaded before the tab was shared, is read at once', async () => {
    // Pages of a host no shared tab showed when they loaded: they never had Oriel's content script.
    const first = (await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string; origin: string }>;
    const elsewhere = first[0]?.origin === A() ? B() : A();
    const other = await rig.open(`${elsewhere}/first.html`);
    await other.goto(`${elsewhere}/second.html`, { waitUntil: 'load' });
    await rig.share('second.html');
    const second = await until(
      async () => ((await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>).find((s) => s.url.includes('second.html'))?.id,
      20_000,
      'the second tab to become a session',
    );
    await other.bringToFront();
    await other.evaluate(() => history.back());
    // The page's own word that it came back from the cache rather than loading again.
    await until(() => other.evaluate(() => document.documentElement.dataset.restored === 'yes').catch(() => false), 20_000, 'the first page back from the cache');
    const snap = await call(agent, 'snapshot', { session: second });
    expect(snap.isError, snap.text).toBe(false);
    expect(snap.text).toContain('First page');
  });
});
