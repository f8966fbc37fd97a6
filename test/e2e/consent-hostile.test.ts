// A hostile page against consent, in real Chromium and Firefox (test/fixtures/consent/hostile.html): it titles itself
// "Allow", shows a look-alike prompt, posts messages shaped like prompt answers, messages the extension by id, opens
// windows and tries to load the extension's popup — and agents flood calls at it that would prompt. It never gets a
// grant, its title is shown only as the page's, and the real prompt of another tab stays visible and answerable. A
// sandboxed frame's opaque origin gets one-time answers only.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, FIXTURES, call, launchRig, serveFixtures, until, type Rig, type ToolCall } from './harness.js';
import { answerPrompt, badgeText, noPrompts, promptCards, ruleRows, waitForPrompt } from './consent-helpers.js';

describe.each(BROWSERS)('a hostile page in %s', (kind) => {
  let rig: Rig;
  let one: Awaited<ReturnType<typeof serveFixtures>>;
  let two: Awaited<ReturnType<typeof serveFixtures>>;
  let floods: Client[];
  let agent: Client;
  let hostile: Page;
  let real: Page;
  let hostileSession: string;
  let realSession: string;
  const H = () => one.origin.replace('127.0.0.1', 'localhost');
  const R = () => two.origin;

  /** Shares a tab showing `url` (at the shared origin) and returns its session id. */
  async function shareTab(url: string, part: string): Promise<{ page: Page; session: string }> {
    const page = await rig.open(url);
    await rig.share(part);
    const session = await until(async () => ((await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>).find((s) => s.url.includes(part))?.id, 20_000, `${part} to be shared`);
    return { page, session };
  }

  beforeAll(async () => {
    one = await serveFixtures(path.join(FIXTURES, 'consent'));
    two = await serveFixtures(path.join(FIXTURES, 'consent'));
    rig = await launchRig(kind);
    agent = await rig.client('legacy', 'real-agent');
    floods = [await rig.client('legacy', 'flood-1'), await rig.client('modern', 'flood-2')];
    ({ page: hostile, session: hostileSession } = await shareTab(`${one.origin}/page.html?to-hostile`, 'page.html?to-hostile'));
    ({ page: real, session: realSession } = await shareTab(`${one.origin}/page.html?to-real`, 'page.html?to-real'));
    const ext = `${rig.extensionBase}/extension/ui/popup.html`;
    // The tabs move on by themselves (the person's navigation, not an agent's) to origins nobody allowed.
    await hostile.goto(`${H()}/hostile.html?ext=${encodeURIComponent(ext)}`, { waitUntil: 'load' });
    await real.goto(`${R()}/page.html?real`, { waitUntil: 'load' });
  });
  afterAll(async () => {
    await rig?.close();
    await one?.close();
    await two?.close();
  });

  it('never gets a grant, and never hides the real prompt of another tab', async () => {
    const flooded: Array<Promise<ToolCall>> = [];
    for (let i = 0; i < 10; i++) {
      for (const client of floods) {
        flooded.push(call(client, 'snapshot', { session: hostileSession }));
        flooded.push(call(client, 'evaluate', { session: hostileSession, expression: `document.cookie + ${i}` }));
        flooded.push(call(client, 'click', { session: hostileSession, selector: '#fake' }));
      }
    }
    const first = await waitForPrompt(rig, { origin: H() });
    // The page's title is shown as the page's, never as an answer; the answers are Oriel's own.
    expect(first.text).toMatch(/Tab: “?Allow”? \(title set by the page\)/);
    expect(first.answers.every((a) => /^(allow|deny)_[a-z_]+$/.test(a))).toBe(true);

    // The page spams answer-shaped messages, messages the extension by id, opens windows and clicks its look-alike.
    await hostile.bringToFront();
    await hostile.waitForFunction(() => Number(document.getElementById('posted')!.textContent) >= 200, { timeout: 20_000, polling: 100 });
    await hostile.click('#fake');
    expect(await hostile.$eval('#extension', (e) => e.textContent)).toBe('blocked');
    // None of it answered anything: the prompt still waits.
    expect((await waitForPrompt(rig, { origin: H() })).id).toBe(first.id);

    // Meanwhile a real prompt from another tab shows beside it, one card per question, and can be answered.
    const realCall = call(agent, 'snapshot', { session: realSession });
    const card = await waitForPrompt(rig, { capability: 'read', origin: R() });
    expect(card.text).toContain('real-agent wants to read pages on ' + R());
    const cards = await promptCards(rig);
    // The flood raises at most two prompts (one asking call steps aside per tab; the next that asks holds the tab).
    expect(cards.length).toBeLessThanOrEqual(3);
    expect(cards.filter((c) => c.origin === H()).length).toBeGreaterThanOrEqual(1);
    expect(cards.filter((c) => c.origin === H()).length).toBeLessThanOrEqual(2);
    expect(await badgeText(rig)).toBe(String(cards.length));
    await answerPrompt(rig, { capability: 'read', origin: R() }, 'allow_once', real);
    expect((await realCall).isError).toBe(false);

    // The person refuses the hostile origin for good, on each card it shows, until it asks no more: every flooded call
    // fails, none ran. (A denial of reading covers acting and code; one of code alone leaves the other questions.)
    const all = Promise.all(flooded);
    for (let i = 0; i < 6; i++) {
      const card = await Promise.race([waitForPrompt(rig, { origin: H() }), all.then(() => undefined)]);
      if (!card) break;
      await answerPrompt(rig, { origin: H() }, 'deny_origin');
    }
    const results = await all;
    for (const r of results) expect(['permission_denied', 'timeout']).toContain(r.error?.code);
    expect(results.some((r) => r.error?.code === 'permission_denied')).toBe(true);
    await noPrompts(rig);
    expect(await hostile.$eval('#fake', (b) => b.textContent)).toBe('Allow on every site');

    // What is remembered about the hostile origin is the denial only.
    const rows = await ruleRows(rig);
    const hostileRows = rows.filter((r) => r.site === H());
    expect(hostileRows.length).toBeGreaterThanOrEqual(1);
    expect(hostileRows.every((r) => r.effect === 'deny')).toBe(true);
    expect(rows.some((r) => r.effect === 'allow' && r.source !== 'share')).toBe(false);
    const hostileGrants = ((await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string; grants: Array<{ effect: string }> }>).find((s) => s.id === hostileSession)!.grants;
    expect(hostileGrants.every((g) => g.effect === 'deny')).toBe(true);
  });

  it("a sandboxed frame's opaque origin gets one-time answers only", async () => {
    // The agent takes the tab back to the origin it was shared at (no prompt: navigation is an act on the destination),
    // now embedding a sandboxed frame.
    const nav = await call(agent, 'navigate', { session: realSession, url: `${one.origin}/page.html?frame=${encodeURIComponent('page.html?inner')}&sandbox` });
    expect(nav.isError, nav.text).toBe(false);
    expect(await promptCards(rig)).toEqual([]);
    const inner = await until(async () => {
      const lines = (await call(agent, 'snapshot', { session: realSession })).text.split('\n').filter((l) => /button "Act"/.test(l));
      return lines.length === 2 ? /@([a-z0-9]+\.[0-9a-z]+)/.exec(lines[1]!)![1] : undefined;
    }, 10_000, 'the sandboxed frame');
    const click = call(agent, 'click', { session: realSession, handle: inner });
    const card = await answerPrompt(rig, { capability: 'act', origin: 'null' }, 'allow_once', real);
    expect(card.answers).toEqual(['allow_once', 'deny_once']);
    expect(card.text).toContain('cannot be remembered');
    expect(card.text).toContain(`inside ${one.origin}`);
    expect((await click).isError).toBe(false);
    const again = call(agent, 'click', { session: realSession, handle: inner });
    await answerPrompt(rig, { capability: 'act', origin: 'null' }, 'deny_once', real);
    expect((await again).error?.code).toBe('permission_denied');
  });

  it('a shared page retitling itself every few milliseconds keeps neither the prompts nor the tab list from the popup', async () => {
    const { page, session } = await shareTab(`${one.origin}/retitle.html`, 'retitle.html');
    await page.bringToFront();
    const asking = call(agent, 'evaluate', { session, expression: '1 + 1' });
    await answerPrompt(rig, { capability: 'exec', origin: one.origin }, 'deny_once', page);
    expect((await asking).error?.code).toBe('permission_denied');
    await page.close();
  });
});
