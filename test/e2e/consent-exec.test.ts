// Agents' code (exec) end to end in real Chromium and Firefox: every evaluate needs an exec grant, asked for in the
// popup with the code shown as text, bounded; the answers once, this exact code in this session, any code in this
// session and any code in every session each let through what they say and nothing more; the audit log in the options
// page shows every grant and every use with its code and outcome, and its export downloads the same as JSON.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, FIXTURES, call, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt, auditRows, exportAudit, promptCards, revoke, waitForPrompt } from './consent-helpers.js';

describe.each(BROWSERS)("agents' code (exec) in %s", (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let page: Page;
  let agent: Client;
  let first: string;
  let second: string;
  const evaluate = (expression: string, session = first, client = agent) => call(client, 'evaluate', { session, expression });

  beforeAll(async () => {
    site = await serveFixtures(path.join(FIXTURES, 'consent'));
    rig = await launchRig(kind);
    agent = await rig.client('legacy', 'coder');
    page = await rig.open(`${site.url}/page.html?first`);
    await rig.share('page.html?first');
    await rig.open(`${site.url}/page.html?second`);
    await rig.share('page.html?second');
    const sessions = await until(async () => {
      const all = (await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>;
      return all.length === 2 ? all : undefined;
    }, 20_000, 'two sessions');
    first = sessions.find((s) => s.url.includes('first'))!.id;
    second = sessions.find((s) => s.url.includes('second'))!.id;
    await page.bringToFront();
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  it('asks with the code shown as text and bounded; once is once, a denial refuses', async () => {
    const code = 'document.title + "<img src=x onerror=alert(1)>\u202e"';
    const asking = evaluate(code);
    const card = await answerPrompt(rig, { capability: 'exec', origin: site.origin }, 'allow_once', page);
    expect(card.text).toContain(`coder wants to run its own code on ${site.origin}`);
    // The code is shown as text: markup stays characters, a direction override is made visible.
    expect(card.code).toBe('document.title + "<img src=x onerror=alert(1)>\\u{202e}"');
    expect(await (await rig.extensionPage('popup')).$$eval('article.prompt img', (imgs) => imgs.length)).toBe(0);
    expect(card.answers).toEqual(['allow_once', 'allow_code_session', 'allow_session', 'allow_origin', 'allow_host', 'allow_any', 'deny_once', 'deny_origin']);
    expect((await asking).structured.value).toBe('Consent page<img src=x onerror=alert(1)>\u202e');

    const again = evaluate(code);
    await answerPrompt(rig, { capability: 'exec' }, 'deny_once', page);
    expect((await again).error?.code).toBe('permission_denied');

    const long = `"${'a'.repeat(6000)}".length`;
    const big = evaluate(long);
    const shown = await answerPrompt(rig, { capability: 'exec' }, 'deny_once', page);
    expect(shown.code!.length).toBeLessThanOrEqual(4001);
    expect(shown.text).toContain(`(${long.length - 4000} more characters not shown)`);
    expect((await big).error?.code).toBe('permission_denied');
  });

  it('this exact code in this session lets that code run there again, and nothing else', async () => {
    const asking = evaluate('1 + 1');
    await answerPrompt(rig, { capability: 'exec' }, 'allow_code_session', page);
    expect((await asking).structured.value).toBe(2);
    expect((await evaluate('1 + 1')).structured.value).toBe(2);
    // Other code asks; the same code in another session asks.
    const other = evaluate('2 + 2');
    await answerPrompt(rig, { capability: 'exec' }, 'deny_once', page);
    expect((await other).error?.code).toBe('permission_denied');
    const elsewhere = evaluate('1 + 1', second);
    await answerPrompt(rig, { capability: 'exec' }, 'deny_once', page);
    expect((await elsewhere).error?.code).toBe('permission_denied');
  });

  it('any code in this session, then any code in every session', async () => {
    const asking = evaluate('3 + 3');
    await answerPrompt(rig, { capability: 'exec' }, 'allow_session', page);
    expect((await asking).structured.value).toBe(6);
    expect((await evaluate('4 + 4')).structured.value).toBe(8);
    const elsewhere = evaluate('5 + 5', second);
    await answerPrompt(rig, { capability: 'exec' }, 'allow_origin', page);
    expect((await elsewhere).structured.value).toBe(10);
    expect((await evaluate('6 + 6', second)).structured.value).toBe(12);
    expect(await promptCards(rig)).toEqual([]);
    const s = ((await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string; grants: unknown[] }>).find((x) => x.id === second)!;
    expect(s.grants).toContainEqual({ capability: 'exec', effect: 'allow', scope: 'origin' });
    // Revoked in the options page: the next call in that session asks again.
    expect(await revoke(rig, { site: site.origin, capability: 'exec', scope: 'origin' })).toBe(1);
    await page.bringToFront();
    const asksAgain = evaluate('7 + 7', second);
    await waitForPrompt(rig, { capability: 'exec' });
    await answerPrompt(rig, { capability: 'exec' }, 'deny_once', page);
    expect((await asksAgain).error?.code).toBe('permission_denied');
  });

  it('the audit log shows every exec grant and use with its code, and the export downloads it', async () => {
    const rows = await auditRows(rig);
    const uses = rows.filter((r) => r.kind === 'use');
    const grants = rows.filter((r) => r.kind === 'grant');
    // Newest first: the last use was the refused 7 + 7.
    expect(uses[0]).toMatchObject({ tool: 'evaluate', outcome: 'permission_denied', code: '7 + 7' });
    for (const expression of ['1 + 1', '3 + 3', '4 + 4', '5 + 5', '6 + 6']) expect(uses.some((u) => u.code === expression && u.outcome === 'ok'), expression).toBe(true);
    expect(uses.filter((u) => u.code === '1 + 1')).toHaveLength(3);
    expect(grants.map((g) => g.outcome)).toEqual(['allow_origin', 'allow_session', 'allow_code_session', 'allow_once']);
    const exported = await exportAudit(rig);
    expect(exported.entries).toHaveLength(rows.length);
    const last = exported.entries[exported.entries.length - 1]!;
    expect(last).toMatchObject({ kind: 'use', tool: 'evaluate', code: '7 + 7', outcome: 'permission_denied', client: 'coder', origin: site.origin, session: second });
    expect(last.code_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(exported.entries.some((e) => e.kind === 'grant' && e.outcome === 'allow_code_session' && e.code === '1 + 1' && e.session === first)).toBe(true);
  });
});
