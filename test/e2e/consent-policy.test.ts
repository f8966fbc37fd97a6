// The person's policy and the persistence of their answers, in real Chromium and Firefox: a tool switched off in the
// options page vanishes from tools/list and a notifications/tools/list_changed reaches both a legacy-era and a
// 2026-07-28 client (after subscriptions/listen), a call to it anyway is refused with operation_disabled; remembered
// rules and the audit log survive a browser restart on the same profile, while answers for one session do not.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, FIXTURES, call, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt, auditRows, promptCards, ruleRows, setPolicy } from './consent-helpers.js';

describe.each(BROWSERS)('policy and persistence in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let legacy: Client;
  let modern: Client;
  /** The tool names each client was told about, one entry per list_changed it received (the SDK lists again). */
  const heard: Record<'legacy' | 'modern', string[][]> = { legacy: [], modern: [] };
  const listener = (era: 'legacy' | 'modern') => ({
    tools: { debounceMs: 0, onChanged: (_error: Error | null, tools: Array<{ name: string }> | null) => void heard[era].push((tools ?? []).map((t) => t.name)) },
  });
  const other = () => site.origin.replace('127.0.0.1', 'localhost');

  /** Shares a tab showing `url` and returns its session id. */
  async function shareTab(url: string, part: string): Promise<string> {
    await rig.open(url);
    await rig.share(part);
    return until(async () => ((await call(legacy, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>).find((s) => s.url.includes(part))?.id, 20_000, `the tab ${part} to be shared`);
  }

  beforeAll(async () => {
    site = await serveFixtures(path.join(FIXTURES, 'consent'));
    rig = await launchRig(kind);
    legacy = await rig.client('legacy', 'legacy-agent', { listChanged: listener('legacy') });
    modern = await rig.client('modern', 'modern-agent', { listChanged: listener('modern') });
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  it('a tool switched off vanishes from tools/list, both eras are told, and a call to it anyway is refused', async () => {
    const before = (await legacy.listTools()).tools.map((t) => t.name);
    expect(before).toContain('navigate');
    await setPolicy(rig, { disabled: ['navigate'] });
    for (const era of ['legacy', 'modern'] as const) {
      await until(() => heard[era].some((names) => !names.includes('navigate') && names.includes('snapshot')), 10_000, `the ${era} client to hear the change`);
    }
    for (const client of [legacy, modern]) expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('navigate');
    const refused = await call(modern, 'navigate', { url: `${site.origin}/page.html` });
    expect(refused.error?.code).toBe('operation_disabled');
    expect(refused.error?.message).toContain('switched off "navigate"');

    await setPolicy(rig, { disabled: [] });
    for (const era of ['legacy', 'modern'] as const) {
      await until(() => heard[era].at(-1)?.includes('navigate'), 10_000, `the ${era} client to hear navigate is back`);
    }
    expect((await legacy.listTools()).tools.map((t) => t.name)).toEqual(before);
  });

  it('remembered rules and the audit log survive a browser restart; answers for one session do not', async () => {
    const session = await shareTab(`${site.origin}/page.html?before`, 'page.html?before');
    const page = (await rig.browser.pages()).find((p) => p.url().includes('page.html?before'))!;
    // A remembered answer (act on another origin, asked as the agent navigates there) and a session-only one (any code
    // in this tab).
    const nav = call(legacy, 'navigate', { session, url: `${other()}/page.html?before` });
    await answerPrompt(rig, { capability: 'act', origin: other() }, 'allow_origin', page);
    expect((await nav).isError).toBe(false);
    expect((await call(legacy, 'click', { session, selector: '#act' })).isError).toBe(false);
    const run = call(legacy, 'evaluate', { session, expression: 'document.title' });
    await answerPrompt(rig, { capability: 'exec', origin: other() }, 'allow_session', page);
    expect((await run).structured.value).toBe('Consent page');
    expect((await ruleRows(rig)).map((r) => `${r.capability} ${r.scope}`).sort()).toEqual(['act origin', 'act session', 'exec session', 'read session']);

    await rig.restart();
    await until(() => rig.connectedBrowsers() === 1, 20_000, 'the restarted browser to reconnect');
    // Sharing is forgotten with the browser session; the person shares a tab again.
    const again = await shareTab(`${other()}/page.html?after`, 'page.html?after');
    const page2 = (await rig.browser.pages()).find((p) => p.url().includes('page.html?after'))!;
    await page2.bringToFront();
    // The remembered rule still holds: acting there asks nothing.
    expect((await call(legacy, 'click', { session: again, selector: '#act' })).isError).toBe(false);
    expect(await page2.$eval('#out', (e) => e.textContent)).toBe('clicked 1');
    expect(await promptCards(rig)).toEqual([]);
    // "Any code in this tab" ended with the session: code asks again.
    const asks = call(legacy, 'evaluate', { session: again, expression: 'document.title' });
    await answerPrompt(rig, { capability: 'exec', origin: other() }, 'deny_once', page2);
    expect((await asks).error?.code).toBe('permission_denied');
    const rows = await ruleRows(rig);
    expect(rows.filter((r) => r.source !== 'share').map((r) => `${r.capability} ${r.scope}`)).toEqual(['act origin']);
    // The audit log kept the use from before the restart.
    expect((await auditRows(rig)).some((r) => r.kind === 'use' && r.code === 'document.title' && r.outcome === 'ok')).toBe(true);
  });
});
