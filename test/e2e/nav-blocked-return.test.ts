// A navigation the guard stopped leaves the tab where it was: in Chromium the stop shows the browser's error page for
// the blocked address (chrome-error://), and Oriel takes the tab back to the page it came from — the same document
// where the browser kept it, else the same entry of its history — and says so; Firefox never leaves the page.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, FIXTURES, call, until } from './harness.js';
import { closeSharedTab, openSharedTab, redirectRoute, type SharedTab, type Site } from './shared-tab.js';

describe.each(BROWSERS)('after a blocked navigation in %s', (kind) => {
  let one: Site;
  let page: Page;
  let agent: Client;
  let session: string;
  const A = () => one.origin;
  /** The same server by another name: no grant there, so the guard stops navigations to it. */
  const B = () => one.origin.replace('127.0.0.1', 'localhost');
  const tool = (name: string, args: Record<string, unknown> = {}) => call(agent, name, { session, ...args });

  let tab: SharedTab | undefined;
  beforeAll(async () => {
    ({ site: one, client: agent, page, session } = tab = await openSharedTab(kind, {
      dir: path.join(FIXTURES, 'consent'),
      routes: { '/redirect': redirectRoute },
      era: 'legacy',
      name: 'nav-return',
      path: 'links.html?start',
    }));
    await page.bringToFront();
  });
  afterAll(() => closeSharedTab(tab));

  const sessionUrl = async () => ((await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>).find((x) => x.id === session)?.url;

  it("a script's navigation stopped by the guard: the tab shows the page it was on, and the result says where it is", async () => {
    const start = `${A()}/links.html?to=${encodeURIComponent(`${B()}/land.html`)}`;
    const shown = await tool('navigate', { url: start });
    expect(shown.isError, shown.text).toBe(false);
    for (const selector of ['#script', '#swap']) {
      const r = await tool('click', { selector });
      expect(r.error?.details, selector).toMatchObject({ reason: 'navigation_blocked', origin: B() });
      // Said in the result: where the tab is now.
      expect(r.error?.message, selector).toContain(start);
      expect(page.url(), selector).toBe(start);
      expect(await page.evaluate(() => document.title), selector).toBe('Links page');
      // The session list follows the tab's own reports, a moment later.
      await until(async () => (await sessionUrl()) === start || undefined, 10_000, `the session to show ${start}`);
    }
    // The tab is usable at once: the next call reads the page.
    const read = await tool('snapshot');
    expect(read.isError, read.text).toBe(false);
    expect(read.text).toContain('Links page');
  });

  it('a redirect stopped during navigate: the tab is back on the page it was on before', async () => {
    const start = `${A()}/links.html?before-redirect`;
    expect((await tool('navigate', { url: start })).isError).toBe(false);
    const r = await tool('navigate', { url: `${A()}/redirect?to=${encodeURIComponent(`${B()}/land.html`)}` });
    expect(r.error?.details).toMatchObject({ reason: 'navigation_blocked', origin: B() });
    expect(r.error?.message).toContain(start);
    expect(page.url()).toBe(start);
    await until(async () => (await sessionUrl()) === start || undefined, 10_000, `the session to show ${start}`);
  });
});
