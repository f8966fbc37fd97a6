// Navigation is an act on the destination, in real Chromium and Firefox over real HTTP on two origins (127.0.0.1 and
// localhost ports): navigate to an origin with no act grant asks first (allow goes, deny stays and sends nothing); an
// always-denied origin is refused without asking and its server never hears a request; the tab can always go back to
// the origin it was shared at; back and forward are judged on where they lead; a link, a form or the page's script
// run by an agent's click cannot take the tab to a denied origin either — nothing is sent there.
import http from 'node:http';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, FIXTURES, call, serveFixtures, until, type Rig } from './harness.js';
import { closeSharedTab, openSharedTab, redirectRoute, type SharedTab, type Site } from './shared-tab.js';
import { answerPrompt, promptCards, waitForPrompt } from './consent-helpers.js';

/** One request a server heard: the Host it was sent to, its method and path. */
interface Heard {
  host: string;
  method: string;
  url: string;
}

describe.each(BROWSERS)('navigation consent in %s', (kind) => {
  let rig: Rig;
  let one: Site;
  let two: Site;
  let page: Page;
  let agent: Client;
  let session: string;
  /** Every request for /land.html either server answered. */
  const heard: Heard[] = [];
  /** A is shared; B is localhost on A's port (no grant); D is 127.0.0.1 on another port (the person will deny it). */
  const A = () => one.origin;
  const B = () => one.origin.replace('127.0.0.1', 'localhost');
  const D = () => two.origin;
  const landed = (origin: string) => heard.filter((h) => `http://${h.host}` === origin);
  const tool = (name: string, args: Record<string, unknown> = {}) => call(agent, name, { session, ...args });
  const land = (req: http.IncomingMessage, res: http.ServerResponse) => {
    heard.push({ host: req.headers.host ?? '', method: req.method ?? '', url: req.url ?? '' });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end('<!doctype html><title>Landed</title><p>Landed</p>');
  };
  /** Puts the shared tab on `url`, a page of the origin it was shared at (the agent's navigate: no prompt there). */
  const show = async (url: string) => {
    const r = await tool('navigate', { url });
    expect(r.isError, r.text).toBe(false);
  };
  const sessionUrl = async () => ((await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>).find((s) => s.id === session)?.url;

  let tab: SharedTab | undefined;
  beforeAll(async () => {
    two = await serveFixtures(path.join(FIXTURES, 'consent'), { '/land.html': land });
    ({ rig, site: one, client: agent, page, session } = tab = await openSharedTab(kind, {
      dir: path.join(FIXTURES, 'consent'),
      routes: { '/land.html': land, '/redirect': redirectRoute },
      era: 'legacy',
      name: 'nav-agent',
      path: 'links.html?start',
    }));
    await page.bringToFront();
  });
  afterAll(async () => {
    await closeSharedTab(tab);
    await two?.close();
  });

  it('navigate to an origin with no grant asks; a denial leaves the tab where it was and sends nothing; always-deny refuses without asking', async () => {
    const first = tool('navigate', { url: `${D()}/land.html?first` });
    const card = await waitForPrompt(rig, { capability: 'act', origin: D() });
    expect(card.text).toContain(`nav-agent wants to click, type and navigate on ${D()}`);
    await answerPrompt(rig, { capability: 'act', origin: D() }, 'deny_once', page);
    expect((await first).error?.code).toBe('permission_denied');

    const second = tool('navigate', { url: `${D()}/land.html?second` });
    await answerPrompt(rig, { capability: 'act', origin: D() }, 'deny_origin', page);
    expect((await second).error?.code).toBe('permission_denied');

    const third = await tool('navigate', { url: `${D()}/land.html?third` });
    expect(third.error?.code).toBe('permission_denied');
    expect(third.error?.message).toContain(`always denies act on ${D()}`);
    expect(await promptCards(rig)).toEqual([]);
    expect(landed(D())).toEqual([]);
    expect(await sessionUrl()).toBe(`${A()}/links.html?start`);

    // The person takes the tab to the denied site themselves: the agent can still bring it home, without a prompt.
    await page.goto(`${D()}/land.html?by-the-person`, { waitUntil: 'load' });
    await page.bringToFront();
    // Nothing grants read there: agents are shown the denied site's origin alone.
    await until(async () => (await sessionUrl()) === D(), 10_000, 'the session to show the denied site');
    const home = await tool('navigate', { url: `${A()}/links.html?start` });
    expect(home.isError, home.text).toBe(false);
    expect(await promptCards(rig)).toEqual([]);
  });

  it('an allowed destination is loaded; the tab can always return to the origin it was shared at; back and forward are judged on where they lead', async () => {
    const go = tool('navigate', { url: `${B()}/land.html?b` });
    await answerPrompt(rig, { capability: 'act', origin: B() }, 'allow_once', page);
    const went = await go;
    expect(went.isError, went.text).toBe(false);
    expect(landed(B()).map((h) => h.url)).toEqual(['/land.html?b']);

    // From B (allowed once: nothing holds there now) back to the shared origin, without a prompt.
    const home = await tool('navigate', { url: `${A()}/links.html?home` });
    expect(home.isError, home.text).toBe(false);
    expect(await promptCards(rig)).toEqual([]);

    // Back leads to B again: asked like any navigation there; denied, nothing is sent and the tab stays.
    const back = tool('navigate', { action: 'back' });
    await answerPrompt(rig, { capability: 'act', origin: B() }, 'deny_once', page);
    expect((await back).error?.code).toBe('permission_denied');
    expect(landed(B())).toHaveLength(1);
    expect(await sessionUrl()).toBe(`${A()}/links.html?home`);
    const backAgain = tool('navigate', { action: 'back' });
    await answerPrompt(rig, { capability: 'act', origin: B() }, 'allow_once', page);
    expect((await backAgain).isError).toBe(false);
    expect(landed(B())).toHaveLength(2);
    // Forward leads to the shared origin: no prompt.
    const forward = await tool('navigate', { action: 'forward' });
    expect(forward.isError, forward.text).toBe(false);
    expect(forward.structured.url).toBe(`${A()}/links.html?home`);
    expect(await promptCards(rig)).toEqual([]);
  });

  it("a link, a form or the page's script clicked by an agent cannot take the tab to a denied origin: nothing is sent there", async () => {
    const to = `${D()}/land.html?by-page`;
    const start = `${A()}/links.html?to=${encodeURIComponent(to)}`;
    // A link and a form are read before the click: refused, nothing done.
    for (const selector of ['#link', '#send']) {
      await show(start);
      const r = await tool('click', { selector });
      expect(r.error?.code, selector).toBe('permission_denied');
      expect(r.error?.message).toContain(`always denies act on ${D()}`);
      expect(await sessionUrl()).toBe(start);
    }
    // The page's own script, or a link it rewrites as it is clicked: the browser never sends the request.
    for (const selector of ['#script', '#swap']) {
      await show(start);
      const r = await tool('click', { selector });
      expect(r.error?.code, selector).toBe('permission_denied');
      expect(r.error?.details).toMatchObject({ reason: 'navigation_blocked', origin: D() });
    }
    // The page going there by itself a moment after the click was answered: still stopped before any request leaves
    // (the browser reports the blocked request to the page's driver).
    // (Its own address, so that a late report of the blocks above cannot stand in for it.)
    const laterUrl = `${to}&later`;
    await show(start);
    const blocked = new Promise<string>((resolve) => {
      const seen = (r: { url(): string }) => {
        if (r.url() !== laterUrl) return;
        page.off('requestfailed', seen);
        resolve(r.url());
      };
      page.on('requestfailed', seen);
    });
    const later = await tool('click', { selector: '#later' });
    // Usually the click has been answered by then; on a slow machine the page may go while it still runs, and the
    // click reports the stop itself. Either way the browser never sent the request.
    if (later.isError) expect(later.error?.details, later.text).toMatchObject({ reason: 'navigation_blocked', origin: D() });
    expect(await blocked).toBe(laterUrl);
    // No call is left to report it, and the tab is not left on the browser's error page (Chromium shows one for a
    // blocked load): it is back on the page it showed (Firefox never left it).
    const title = () => page.evaluate(() => document.title).catch(() => undefined);
    await until(async () => (page.url() === start && (await title()) === 'Links page') || undefined, 10_000, `the tab to show ${start} again`);
    // Enter in the form's field submits it: read before, refused.
    await show(start);
    const typed = await tool('type', { selector: 'input[name=q]', text: 'x', submit: true });
    expect(typed.error?.code).toBe('permission_denied');
    // Code the person allowed to run is no way around it either.
    await show(start);
    const code = tool('evaluate', { expression: `location.href = ${JSON.stringify(to)}` });
    await answerPrompt(rig, { capability: 'exec', origin: A() }, 'allow_once', page);
    const ran = await code;
    expect(ran.error?.details).toMatchObject({ reason: 'navigation_blocked', origin: D() });
    // A redirect from an allowed page to the denied origin is stopped the same way.
    const redirected = await tool('navigate', { url: `${A()}/redirect?to=${encodeURIComponent(to)}` });
    expect(redirected.error?.code).toBe('permission_denied');
    expect(redirected.error?.details).toMatchObject({ reason: 'navigation_blocked', origin: D() });
    // (The person's own visit in the first test is the only request D ever heard.)
    expect(landed(D()).map((h) => h.url)).toEqual(['/land.html?by-the-person']);
    expect(await promptCards(rig)).toEqual([]);
    // And the tab goes back to the shared origin without asking.
    expect((await tool('navigate', { url: `${A()}/links.html?back-home` })).isError).toBe(false);
  });

  it('a link to an origin with no grant asks before the click: denied, nothing is sent; allowed, the tab goes there', async () => {
    const start = `${A()}/links.html?to=${encodeURIComponent(`${B()}/land.html?linked`)}`;
    await show(start);
    const denied = tool('click', { selector: '#link' });
    await answerPrompt(rig, { capability: 'act', origin: B() }, 'deny_once', page);
    expect((await denied).error?.code).toBe('permission_denied');
    expect(await sessionUrl()).toBe(start);
    const allowed = tool('click', { selector: '#link' });
    await answerPrompt(rig, { capability: 'act', origin: B() }, 'allow_once', page);
    const r = await allowed;
    expect(r.isError, r.text).toBe(false);
    await until(() => landed(B()).some((h) => h.url === '/land.html?linked'), 10_000, 'the link to load');
    expect(landed(B()).filter((h) => h.url === '/land.html?linked')).toHaveLength(1);
  });
});
