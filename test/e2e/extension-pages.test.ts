// What the extension's own pages show of page and agent words (docs/architecture.md, "Consent"): the popup's tab list
// escapes a title's bidi controls as prompts do; the audit log says in words what the person answered and what
// happened to the code, and "not run" for code a refused call never ran; a grant stays labelled with the title the
// person saw when asked, not whatever the tab shows later.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, FIXTURES, call, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt, freshOptions } from './consent-helpers.js';

/** A title that reads "Invoice exe.pdf" on screen when its right-to-left override acts. */
const SPOOF = 'Invoice \u202Efdp.exe\u202C';

describe.each(BROWSERS)('extension pages in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let page: Page;
  let agent: Client;
  let session: string;

  /** The cells' text of every row of `table` in a freshly loaded options page. */
  const tableText = async (table: string) => {
    const options = await freshOptions(rig);
    await options.waitForSelector(`${table} tbody tr`, { timeout: 20_000 });
    return options.$$eval(`${table} tbody tr`, (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  };

  beforeAll(async () => {
    site = await serveFixtures(path.join(FIXTURES, 'consent'), {
      '/spoof.html': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${SPOOF}</title><p>Other page</p>`),
    });
    rig = await launchRig(kind);
    agent = await rig.client('legacy', 'pages-test');
    page = await rig.open(`${site.url}/page.html?shared`);
    await rig.open(`${site.url}/spoof.html`);
    await rig.share('page.html?shared');
    session = await until(async () => ((await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string }> | undefined)?.[0]?.id, 20_000, 'the session');
    await page.bringToFront();
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  it("escapes a tab title's bidi controls in the popup's tab list", async () => {
    const popup = await rig.extensionPage('popup');
    const row = 'label.tab[data-url*="spoof.html"]';
    await popup.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('Invoice'), { timeout: 20_000, polling: 50 }, row);
    const text = await popup.$eval(row, (el) => el.textContent ?? '');
    expect(text).toContain('Invoice \\u{202e}fdp.exe\\u{202c}');
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(await popup.$eval(`${row} input`, (el) => el.getAttribute('aria-label') ?? '')).not.toMatch(/[\u202a-\u202e]/);
  });

  it('logs refused code as not run, answers and errors in words, and labels a grant with the title asked under', async () => {
    const refused = call(agent, 'evaluate', { session, expression: '1 + 1' });
    await answerPrompt(rig, { capability: 'exec', origin: site.origin }, 'deny_once', page);
    expect((await refused).error?.code).toBe('permission_denied');
    const allowed = call(agent, 'evaluate', { session, expression: '2 + 2' });
    await answerPrompt(rig, { capability: 'exec', origin: site.origin }, 'allow_code_session', page);
    expect((await allowed).structured.value).toBe(4);

    // Newest first: the use that ran, the grant, the refused use.
    const audit = await tableText('#audit-log');
    const [ran, grant, notRun] = audit;
    expect(notRun?.[1]).toBe('not run');
    expect(notRun?.[6]).toContain('the user (or redaction) refused this read or action');
    expect(grant?.[1]).toBe('allowed');
    expect(grant?.[6]).toBe('Allow this exact code in this tab (in the popup)');
    expect(ran?.[1]).toBe('ran');
    expect(ran?.[6]).toBe('finished');
    expect(audit.flat().join(' ')).not.toMatch(/allow_code_session|\bok\b/);

    // The tab moves on to a page of another site with another title; the grant still names the page it was given on.
    await page.goto(`${site.url.replace('127.0.0.1', 'localhost')}/spoof.html`, { waitUntil: 'load' });
    const rules = await tableText('#rules');
    const codeGrant = rules.find((cells) => cells[3]?.startsWith('this exact code'));
    expect(codeGrant?.[3]).toContain('Consent page');
    expect(rules.flat().join(' ')).not.toContain('Invoice');
  });
});
