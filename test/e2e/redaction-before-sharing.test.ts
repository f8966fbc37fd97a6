// What a page did before its tab was shared, which only the early watcher (extension/content/early.iife.ts) saw, in
// real Chromium and Firefox through MCP (docs/redaction.md, "Before sharing"): a GET form that put a password into
// the URL, a password field the page turned into a text field, and password fields it replaced by text fields (a
// "show password" button, a form re-rendered whole). Nothing is shared on a page's host when it acts,
// so no content script is there to see it.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, FIXTURES, call, launchRig, serveFixtures, until, type Rig } from './harness.js';

describe.each(BROWSERS)('secrets a page exposed before it was shared, in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let client: Client;

  beforeAll(async () => {
    site = await serveFixtures(path.join(FIXTURES, 'actions'));
    rig = await launchRig(kind);
    client = await rig.client('legacy', 'before-sharing');
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  /** Shares the tab whose URL contains `urlPart` and waits until it is the one session. */
  async function shareOnly(urlPart: string): Promise<void> {
    await rig.share(urlPart);
    await until(async () => {
      const sessions = (await call(client, 'list_sessions')).structured.sessions as Array<{ url?: string }> | undefined;
      return (sessions?.length === 1 && sessions[0]!.url?.includes(urlPart.split('?')[0]!)) || undefined;
    }, 20_000, 'the shared tab to be the one session');
  }

  /** Closes `page` and waits until no session is left. */
  async function closeShared(page: Page): Promise<void> {
    await page.close();
    await until(async () => ((await call(client, 'list_sessions')).structured.sessions as unknown[] | undefined)?.length === 0 || undefined, 20_000, 'no session');
  }

  it('a GET form submitted before sharing: the password it put in the URL never shows', async () => {
    // 127.0.0.1: no tab on this host is shared yet, so only the early watcher runs in the page.
    const page = await rig.open(`${site.url}/get-form.html`);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('#go')]);
    expect(page.url()).toContain('pw=hunter2'); // the browser did put it there
    try {
      await shareOnly('get-form.html?user=');
      await checkGetForm();
    } finally {
      await closeShared(page);
    }
  });

  /** The submitted page's URL, as every tool shows it: without the password. */
  async function checkGetForm(): Promise<void> {
    const list = await call(client, 'list_sessions');
    expect(list.text).not.toContain('hunter2');
    expect(list.text).toContain('pw=[redacted]');
    expect(list.text).toContain('user=ann');
    const snap = await call(client, 'snapshot');
    expect(snap.isError, snap.text).toBe(false);
    expect(snap.text).not.toContain('hunter2');
    expect(snap.text).toContain('pw=[redacted]');
    const base = await call(client, 'extract', { selector: 'h1', what: 'property', name: 'baseURI' });
    expect(base.isError, base.text).toBe(false);
    expect(base.text).not.toContain('hunter2');
  }

  it('a password field the page turned into text, or replaced by a text field, before sharing stays redacted after', async () => {
    // localhost: another host than the first test shared, so again only the early watcher runs in both pages (both
    // act before anything on this host is shared).
    const local = site.url.replace('127.0.0.1', 'localhost');
    const page = await rig.open(`${local}/reveal.html?early`);
    await page.click('#eye');
    expect(await page.$eval('#pw', (el) => (el as HTMLInputElement).type)).toBe('text');
    const swapped = await rig.open(`${local}/swap.html?early`);
    await swapped.click('section button');
    await swapped.click('#app button');
    expect(await swapped.$eval('[aria-label="Pass shown"]', (el) => (el as HTMLInputElement).value)).toBe('hunter22');
    expect(await swapped.$eval('[aria-label="Secret shown"]', (el) => (el as HTMLInputElement).value)).toBe('tiger77');
    try {
      await shareOnly('reveal.html?early');
      await checkRevealed();
    } finally {
      await closeShared(page);
    }
    try {
      await shareOnly('swap.html?early');
      await checkSwapped();
    } finally {
      await closeShared(swapped);
    }
  });

  /** The fields that took the passwords' places, as the agent finds them: redacted. */
  async function checkSwapped(): Promise<void> {
    const snap = await call(client, 'snapshot');
    expect(snap.isError, snap.text).toBe(false);
    expect(snap.text).not.toMatch(/hunter22|tiger77/);
    expect(snap.text).toMatch(/textbox "Pass shown" \[[^\]]*redacted/);
    expect(snap.text).toMatch(/textbox "Secret shown" \[[^\]]*redacted/);
    for (const selector of ['[aria-label="Pass shown"]', '[aria-label="Secret shown"]']) {
      const r = await call(client, 'extract', { selector, what: 'value' });
      expect(r.error?.code, `${selector}: ${r.text}`).toBe('permission_denied');
    }
  }

  /** The revealed fields, as the agent finds them: redacted. */
  async function checkRevealed(): Promise<void> {
    const snap = await call(client, 'snapshot');
    expect(snap.isError, snap.text).toBe(false);
    expect(snap.text).not.toMatch(/hunter2|trustno1/);
    expect(snap.text).toMatch(/textbox "Password" \[[^\]]*redacted/);
    // Revealed by the page's own script as it loaded: seen from document_start.
    expect(snap.text).toMatch(/textbox "PIN" \[[^\]]*redacted/);
    for (const selector of ['#pw', '#pin']) {
      const r = await call(client, 'extract', { selector, what: 'value' });
      expect(r.error?.code, `${selector}: ${r.text}`).toBe('permission_denied');
    }
  }
});
