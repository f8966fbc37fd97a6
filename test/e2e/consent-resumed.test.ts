// A call that waited on the person's permission prompt runs under its resumed deadline, in real Chromium and Firefox:
// the prompt stays open longer than the call's whole budget, and once the person allows it the call still has the
// budget it had left — a wait_for still waits its timeout in the page, a snapshot still reads the whole page
// (docs/architecture.md, "Calls": one deadline).
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, FIXTURES, call, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt, setPolicy, waitForPrompt } from './consent-helpers.js';

describe.each(BROWSERS)('calls resumed after a permission prompt in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let page: Page;
  let agent: Client;
  let session: string;
  /** The origin shared at, and another one (same server, another host name) that nothing grants. */
  const A = () => site.origin;
  const B = () => site.origin.replace('127.0.0.1', 'localhost');
  /** Until the page marks itself late: its own timer, `after` ms after it loaded. */
  // Polled on DOM mutations: a tab behind the popup renders no frames, so polling by animation frame would never run.
  const late = (timeout: number) => page.waitForFunction(() => document.documentElement.dataset.late === '1', { timeout, polling: 'mutation' });

  beforeAll(async () => {
    site = await serveFixtures(path.join(FIXTURES, 'consent'));
    rig = await launchRig(kind);
    agent = await rig.client('modern', 'agent-resumed');
    page = await rig.open(`${A()}/page.html?resumed`);
    await rig.share('page.html?resumed');
    session = await until(async () => ((await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string }>)[0]?.id, 20_000, 'the shared tab to become a session');
    await setPolicy(rig, { promptSeconds: 90 });
    await page.bringToFront();
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  it('a wait_for that waited on a prompt longer than its budget still waits its timeout in the page', { timeout: 60_000 }, async () => {
    // The person takes the tab to an origin nothing grants: reading it asks.
    await page.goto(`${B()}/late.html?after=9000`);
    // Budget: 3 s of waiting and 5 s to answer; the prompt stays open past all of it.
    const asking = call(agent, 'wait_for', { session, selector: '#late', timeout_ms: 3_000 });
    await waitForPrompt(rig, { capability: 'read', origin: B() });
    await late(30_000);
    await answerPrompt(rig, { capability: 'read', origin: B() }, 'allow_once', page);
    // What the call waits for comes after the person answered: only a call that still has its 3 s sees it.
    await page.evaluate(() => {
      setTimeout(() => {
        const p = document.createElement('p');
        p.id = 'late';
        p.textContent = 'Arrived late';
        document.body.append(p);
      }, 1_500);
    });
    const waited = await asking;
    expect(waited.isError, waited.text).toBe(false);
    expect(waited.structured.state).toBe('visible');
    expect(waited.structured.handle).toMatch(/^[a-z0-9]+\.\d+$/);
  });

  it('a snapshot that waited on a prompt longer than its budget still reads the whole page', { timeout: 90_000 }, async () => {
    // A snapshot's budget is 30 s; the prompt stays open past it.
    await page.goto(`${B()}/late.html?after=32000`);
    const asking = call(agent, 'snapshot', { session });
    await waitForPrompt(rig, { capability: 'read', origin: B() });
    await late(60_000);
    await answerPrompt(rig, { capability: 'read', origin: B() }, 'allow_once', page);
    const snap = await asking;
    expect(snap.isError, snap.text).toBe(false);
    // Read under the pre-prompt deadline, the page would stop after its first line and leave the rest to a cursor.
    expect(snap.text).toContain('End of the late page');
    expect(snap.structured.cursor).toBeUndefined();
    expect((snap.structured.coverage as { truncated: boolean }).truncated).toBe(false);
  });
});
