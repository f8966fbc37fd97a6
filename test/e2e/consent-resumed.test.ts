// A call that waited on the person's permission prompt runs under its resumed deadline, in real Chromium and Firefox:
// the prompt stays open longer than the call's whole budget, and once the person allows it the call still has the
// budget it had left — a wait_for still waits its timeout in the page, a snapshot still reads the whole page
// (docs/architecture.md, "Calls": one deadline).
// The cases are idle waits on prompts, so both browsers and both cases run at the same time: each case has its own
// fixture server (so its own pair of origins and its own prompt), its own shared tab and session.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { BROWSERS, FIXTURES, call, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt, setPolicy, waitForPrompt } from './consent-helpers.js';

/** One case's own part of the rig: origin A shared in its own tab, origin B (same server, another host name) that nothing grants. */
interface Lane {
  site: Awaited<ReturnType<typeof serveFixtures>>;
  page: Page;
  session: string;
  A: string;
  B: string;
  /** Until the page marks itself late: its own timer, `after` ms after it loaded. */
  late(timeout: number): Promise<unknown>;
}

describe.concurrent.each(BROWSERS)('calls resumed after a permission prompt in %s', (kind) => {
  let rig: Rig;
  let agent: Client;
  const lanes: Record<'waitFor' | 'snapshot', Lane> = {} as never;

  /** Serves the consent fixtures on a server of its own, opens a tab on it and shares it. */
  async function lane(name: string): Promise<Lane> {
    const site = await serveFixtures(path.join(FIXTURES, 'consent'));
    const page = await rig.open(`${site.origin}/page.html?resumed-${name}`);
    await rig.share(`page.html?resumed-${name}`);
    const session = await until(
      async () => ((await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string; url?: string }>).find((s) => s.url?.includes(`resumed-${name}`))?.id,
      20_000,
      `the shared tab of ${name} to become a session`,
    );
    // Polled on DOM mutations: a tab behind the popup renders no frames, so polling by animation frame would never run.
    const late = (timeout: number) => page.waitForFunction(() => document.documentElement.dataset.late === '1', { timeout, polling: 'mutation' });
    return { site, page, session, A: site.origin, B: site.origin.replace('127.0.0.1', 'localhost'), late };
  }

  beforeAll(async () => {
    rig = await launchRig(kind);
    agent = await rig.client('modern', 'agent-resumed');
    // One after another: sharing goes through the one popup.
    lanes.waitFor = await lane('wait-for');
    lanes.snapshot = await lane('snapshot');
    await setPolicy(rig, { promptSeconds: 90 });
  });
  afterAll(async () => {
    await rig?.close();
    for (const l of Object.values(lanes)) await l.site.close();
  });

  it('a wait_for that waited on a prompt longer than its budget still waits its timeout in the page', { timeout: 60_000 }, async ({ expect }) => {
    const { page, session, B, late } = lanes.waitFor;
    // The person takes the tab to an origin nothing grants: reading it asks.
    await page.goto(`${B}/late.html?after=9000`);
    // Budget: 3 s of waiting and 5 s to answer; the prompt stays open past all of it.
    const asking = call(agent, 'wait_for', { session, selector: '#late', timeout_ms: 3_000 });
    await waitForPrompt(rig, { capability: 'read', origin: B });
    await late(30_000);
    await answerPrompt(rig, { capability: 'read', origin: B }, 'allow_once', page);
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

  it('a snapshot that waited on a prompt longer than its budget still reads the whole page', { timeout: 90_000 }, async ({ expect }) => {
    const { page, session, B, late } = lanes.snapshot;
    // A snapshot's budget is 30 s; the prompt stays open past it.
    await page.goto(`${B}/late.html?after=32000`);
    const asking = call(agent, 'snapshot', { session });
    await waitForPrompt(rig, { capability: 'read', origin: B });
    await late(60_000);
    await answerPrompt(rig, { capability: 'read', origin: B }, 'allow_once', page);
    const snap = await asking;
    expect(snap.isError, snap.text).toBe(false);
    // Read under the pre-prompt deadline, the page would stop after its first line and leave the rest to a cursor.
    expect(snap.text).toContain('End of the late page');
    expect(snap.structured.cursor).toBeUndefined();
    expect((snap.structured.coverage as { truncated: boolean }).truncated).toBe(false);
  });
});
