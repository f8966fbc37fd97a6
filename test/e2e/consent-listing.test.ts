// What agents see of a shared tab that shows a site nobody granted read, in real Chromium and Firefox over real HTTP on
// two origins (127.0.0.1 and localhost on one port): list_sessions, the errors that name sessions, navigate's result
// and a tab a shared tab opened give the session's id and origin only — never the page's title, path or query (here a
// token the page put in its URL with history.replaceState) — and the grants shown are the origin's shown, not those of
// the origin the tab was shared at. Granting read shows the title; an "always deny" withholds it again.
import http from 'node:http';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, FIXTURES, call, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt } from './consent-helpers.js';

/** One session as list_sessions gives it. */
interface Listed {
  id: string;
  title: string;
  url: string;
  origin: string;
  opener?: string;
  withheld?: boolean;
  grants: Array<{ capability: string; effect: string; scope: string }>;
}

/** What must never reach an agent from the inbox page: its title, path and the token its script put in the URL. */
const SECRET = /alice|secret\.example|Inbox|SESSION-abc123|token=/i;
const INBOX_TITLE = 'Inbox (3) - alice@secret.example';

describe.each(BROWSERS)('titles and URLs of ungranted origins in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let other: Awaited<ReturnType<typeof serveFixtures>>;
  let page: Page;
  let agent: Client;
  let session: string;
  /** A is where the tab was shared; B is localhost on A's port: nothing is granted there. */
  const A = () => site.origin;
  const B = () => site.origin.replace('127.0.0.1', 'localhost');
  /** C: 127.0.0.1 on another port, where the person will always deny reading. */
  const C = () => other.origin;
  const tool = (name: string, args: Record<string, unknown> = {}) => call(agent, name, { session, ...args });
  const listed = async () => {
    const r = await call(agent, 'list_sessions');
    return { text: r.text, sessions: r.structured.sessions as Listed[] };
  };
  const mine = async () => (await listed()).sessions.find((s) => s.id === session);
  /** Waits until the shared tab's page finished its script (the token is in its URL), by the page's own state. */
  const inboxReady = (p: Page) => p.waitForFunction(() => location.search.includes('token=') && document.title.startsWith('Inbox'), { timeout: 20_000 });

  beforeAll(async () => {
    const inbox = (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(`<!doctype html><title>${INBOX_TITLE}</title><p id="msg">3 messages</p><script>history.replaceState(null, '', '?token=SESSION-abc123')</script>`);
    };
    const opener = (req: http.IncomingMessage, res: http.ServerResponse) => {
      const to = `http://${(req.headers.host ?? '').replace('127.0.0.1', 'localhost')}/inbox.html`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(`<!doctype html><title>Opener</title><a id="out" target="_blank" href="${to}">Open the inbox</a>`);
    };
    site = await serveFixtures(path.join(FIXTURES, 'consent'), { '/inbox.html': inbox, '/opener.html': opener });
    other = await serveFixtures(path.join(FIXTURES, 'consent'), { '/inbox.html': inbox });
    rig = await launchRig(kind);
    agent = await rig.client('legacy', 'list-agent');
    page = await rig.open(`${A()}/opener.html?start`);
    await rig.share('opener.html?start');
    session = await until(async () => (await listed()).sessions[0]?.id, 20_000, 'the shared tab to become a session');
    await page.bringToFront();
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
    await other?.close();
  });

  it('the person takes the tab to an ungranted site: list_sessions and session errors give its origin only, with that origin\'s grants', async () => {
    expect((await mine())?.grants.filter((g) => g.scope === 'share').map((g) => g.capability).sort()).toEqual(['act', 'read']);
    await page.goto(`${B()}/inbox.html`, { waitUntil: 'load' });
    await inboxReady(page);
    await page.bringToFront();
    // Every list seen on the way: none names the page, and none shows A's grants beside B.
    const seen: Array<{ text: string; s: Listed }> = [];
    await until(async () => {
      const l = await listed();
      const s = l.sessions.find((x) => x.id === session)!;
      seen.push({ text: l.text, s });
      return s.origin === B() || undefined;
    }, 20_000, 'the session to show the new origin');
    for (const { text, s } of seen) {
      expect(text).not.toMatch(SECRET);
      expect(JSON.stringify(s)).not.toMatch(SECRET);
      // URL, origin and grants always describe the same page: never B's address beside A's grants or title.
      expect(new URL(s.url).origin).toBe(s.origin);
      if (s.origin === B()) expect(s.grants.filter((g) => g.scope === 'share')).toEqual([]);
      if (s.origin === B()) expect(s.title).toBe('');
    }
    const now = (await mine())!;
    expect(now).toMatchObject({ url: B(), title: '', origin: B(), withheld: true });
    expect((await listed()).text).toContain('no read grant here');
    // An error that lists the sessions names this one by id and origin only.
    const wrong = await call(agent, 'snapshot', { session: 'no-such-session' });
    expect(wrong.error?.code).toBe('no_session');
    expect(wrong.error?.message).toContain(session);
    expect(wrong.error?.message).toContain(B());
    expect(JSON.stringify(wrong)).not.toMatch(SECRET);
    // Home again (the origin it was shared at: no prompt), and the page is named again.
    expect((await tool('navigate', { url: `${A()}/opener.html?home` })).isError).toBe(false);
    await until(async () => {
      const s = await mine();
      return (s?.title === 'Opener' && s.url === `${A()}/opener.html?home` && !s.withheld) || undefined;
    }, 20_000, 'the shared origin\'s page to be named again');
  });

  it("navigate's result gives an ungranted destination's origin only", async () => {
    const go = tool('navigate', { url: `${B()}/inbox.html` });
    await answerPrompt(rig, { capability: 'act', origin: B() }, 'allow_once', page);
    const went = await go;
    expect(went.isError, went.text).toBe(false);
    expect(went.structured).toMatchObject({ url: B(), title: '', withheld: true });
    expect(went.text).not.toMatch(SECRET);
    await inboxReady(page);
    expect(JSON.stringify(await listed())).not.toMatch(SECRET);
    expect((await tool('navigate', { url: `${A()}/opener.html?back` })).isError).toBe(false);
  });

  it('a tab the shared tab opens on an ungranted site is listed by origin only, there and in ambiguous_session', async () => {
    const before = new Set(await rig.browser.pages());
    await page.click('#out');
    const opened = await until(async () => (await rig.browser.pages()).find((p) => !before.has(p) && p.url().includes('inbox.html')), 20_000, 'the new tab');
    await inboxReady(opened);
    const lists: string[] = [];
    const child = await until(async () => {
      const l = await listed();
      lists.push(JSON.stringify(l));
      return l.sessions.find((s) => s.opener === session && s.origin === B());
    }, 20_000, 'the opened tab to become a session');
    // Its page has loaded and run its script: what the list says now is what it keeps saying.
    lists.push(JSON.stringify(await listed()));
    for (const l of lists) expect(l).not.toMatch(SECRET);
    expect(child).toMatchObject({ url: B(), title: '', withheld: true });
    const ambiguous = await call(agent, 'snapshot');
    expect(ambiguous.error?.code).toBe('ambiguous_session');
    expect(ambiguous.error?.message).toContain(child.id);
    expect(JSON.stringify(ambiguous)).not.toMatch(SECRET);
    await opened.close();
    await until(async () => (await listed()).sessions.length === 1 || undefined, 20_000, 'the opened tab to end');
    await page.bringToFront();
  });

  it('granting read shows the title; an origin the person always denies reading stays withheld, the denial listed', async () => {
    await page.goto(`${B()}/inbox.html`, { waitUntil: 'load' });
    await inboxReady(page);
    await page.bringToFront();
    await until(async () => (await mine())?.origin === B() || undefined, 20_000, 'the session to show the new origin');
    const read = tool('snapshot');
    await answerPrompt(rig, { capability: 'read', origin: B() }, 'allow_origin', page);
    const r = await read;
    expect(r.isError, r.text).toBe(false);
    const shown = await until(async () => {
      const s = await mine();
      return s?.title === INBOX_TITLE ? s : undefined;
    }, 20_000, 'the title to be shown once read is granted');
    expect(shown.url).toBe(`${B()}/inbox.html?token=SESSION-abc123`);
    expect(shown.withheld).toBeUndefined();
    // On another site the person picks "Always deny" for reading: its title stays withheld, and the list says so.
    await page.goto(`${C()}/inbox.html`, { waitUntil: 'load' });
    await inboxReady(page);
    await page.bringToFront();
    await until(async () => (await mine())?.origin === C() || undefined, 20_000, 'the session to show the third origin');
    const refused = tool('snapshot');
    await answerPrompt(rig, { capability: 'read', origin: C() }, 'deny_origin', page);
    expect((await refused).error?.code).toBe('permission_denied');
    const denied = await until(async () => {
      const s = await mine();
      return s?.grants.some((g) => g.effect === 'deny') ? s : undefined;
    }, 20_000, 'the denial to be listed');
    expect(denied).toMatchObject({ url: C(), title: '', withheld: true });
    expect((await listed()).text).toContain('denied: read');
    expect(JSON.stringify(await listed())).not.toMatch(SECRET);
  });
});
