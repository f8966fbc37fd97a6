// Long waits against the MCP TypeScript SDK v1 client's default 60 s request timeout, in one real browser (each case
// waits a minute of real time). The person set a 90 s prompt budget and answers after 70 s: a client that restarts its
// timeout on progress keeps its call alive (Oriel sends progress every 10 s while a call runs) and gets the answer; a
// client on plain defaults gives up at 60 s and cancels, Oriel withdraws the prompt and the tab stays usable. A wait_for longer
// than the client's timeout ends with Oriel's own answer when the client listens to progress (docs/tools.md, "Results").
// The cases are idle waits, so they run at the same time: each has its own client, its own shared tab and its own origin
// (a fixture server of its own), so no prompt, call or session of one can be taken for another's.
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { BROWSERS, CLI, FIXTURES, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt, noPrompts, setPolicy, waitForPrompt } from './consent-helpers.js';

/** The SDK v1 client's default request timeout, ms (DEFAULT_REQUEST_TIMEOUT_MSEC). */
const SDK_TIMEOUT_MS = 60_000;

/** One case's own part of the rig: a fixture server (its origin), a shared tab on it, its session id and a client. */
interface Lane {
  site: Awaited<ReturnType<typeof serveFixtures>>;
  page: Page;
  session: string;
  client: Client;
}

describe.each(BROWSERS.slice(0, 1))('long waits against the SDK v1 default request timeout (%s)', (kind) => {
  let rig: Rig;
  const lanes: Record<'progress' | 'defaults' | 'waitFor', Lane> = {} as never;

  /** Opens and shares a tab on a fixture server of its own, and connects an SDK v1 client on defaults. */
  async function lane(name: string): Promise<Lane> {
    const site = await serveFixtures(path.join(FIXTURES, 'consent'));
    const page = await rig.open(`${site.url}/page.html?timeouts-${name}`);
    await rig.share(`page.html?timeouts-${name}`);
    const client = new Client({ name: `sdk-v1-defaults-${name}`, version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env: rig.env, stderr: 'pipe' }));
    const session = await until(async () => {
      const listed = (await client.callTool({ name: 'list_sessions', arguments: {} })).structuredContent as { sessions: Array<{ id: string; url?: string }> };
      return listed.sessions.find((s) => s.url?.includes(`timeouts-${name}`))?.id;
    }, 20_000, `the session of ${name}`);
    return { site, page, session, client };
  }

  beforeAll(async () => {
    rig = await launchRig(kind);
    await until(() => rig.connectedBrowsers() > 0, 20_000, 'the browser to connect');
    // One after another: sharing goes through the one popup.
    lanes.progress = await lane('progress');
    lanes.defaults = await lane('defaults');
    lanes.waitFor = await lane('wait-for');
    await setPolicy(rig, { promptSeconds: 90 });
  });
  afterAll(async () => {
    for (const l of Object.values(lanes)) await l.client.close();
    await rig?.close();
    for (const l of Object.values(lanes)) await l.site.close();
  });

  describe.concurrent('at the same time', () => {
    it('a client that restarts its timeout on progress keeps a call through a 70 s wait on a prompt, and gets the answer', { timeout: 150_000 }, async ({ expect }) => {
      const { client, site, page, session } = lanes.progress;
      const started = Date.now();
      const heard: Array<Progress & { at: number }> = [];
      const asking = client.callTool({ name: 'evaluate', arguments: { session, expression: '6 * 7' } }, undefined, {
        onprogress: (p) => heard.push({ ...p, at: Date.now() - started }),
        resetTimeoutOnProgress: true,
      });
      await waitForPrompt(rig, { capability: 'exec', origin: site.origin });
      // The person answers after the client's own timeout would have run out.
      await until(() => heard.some((p) => p.at > SDK_TIMEOUT_MS + 5_000), 90_000, 'progress well past the 60 s timeout');
      await answerPrompt(rig, { capability: 'exec', origin: site.origin }, 'allow_once', page);
      const ran = (await asking) as { isError?: boolean; content: Array<{ text?: string }> };
      expect(ran.isError, ran.content[0]?.text).toBeFalsy();
      expect(ran.content[0]?.text).toBe('number: 42');
      // Progress came at least every 10 s (plus scheduling slack) from the start of the wait, and said why.
      const gaps = heard.map((p, i) => p.at - (i ? heard[i - 1]!.at : 0));
      expect(Math.max(...gaps), JSON.stringify(heard)).toBeLessThan(12_000);
      expect(heard.map((p) => p.progress)).toEqual(heard.map((_, i) => i + 1));
      expect(heard[0]!.message).toMatch(/^Waiting up to \d+ s more for the user to answer Oriel's permission prompt\.$/);
    });

    it('a client on plain defaults times out at 60 s and cancels: the prompt is withdrawn and the tab stays usable', { timeout: 150_000 }, async ({ expect }) => {
      const { client, site, session } = lanes.defaults;
      const started = Date.now();
      const asking = client.callTool({ name: 'evaluate', arguments: { session, expression: '1 + 1' } }).then(
        () => undefined,
        (err: unknown) => err,
      );
      await waitForPrompt(rig, { capability: 'exec', origin: site.origin });
      const failure = await asking;
      expect(failure).toBeInstanceOf(McpError);
      expect((failure as McpError).code).toBe(ErrorCode.RequestTimeout);
      expect(Date.now() - started).toBeGreaterThanOrEqual(SDK_TIMEOUT_MS);
      // The SDK sent notifications/cancelled: the prompt goes away without an answer, and nothing of the call is left.
      // (Only this origin's prompts: the first case's prompt, on its own origin, is still waiting for its answer.)
      await noPrompts(rig, { origin: site.origin });
      const snap = (await client.callTool({ name: 'snapshot', arguments: { session } })) as { isError?: boolean; content: Array<{ text?: string }> };
      expect(snap.isError, snap.content[0]?.text).toBeFalsy();
      expect(snap.content[0]?.text).toContain('button "Act"');
    });

    it("a wait_for longer than the client's timeout ends with Oriel's own answer when the client listens to progress", { timeout: 90_000 }, async ({ expect }) => {
      const { client, session } = lanes.waitFor;
      const r = (await client.callTool({ name: 'wait_for', arguments: { session, text: 'never on this page', timeout_ms: 25_000 } }, undefined, {
        timeout: 15_000,
        resetTimeoutOnProgress: true,
        onprogress: () => undefined,
      })) as { isError?: boolean; structuredContent?: { error?: { code: string } } };
      expect(r.isError).toBe(true);
      expect(r.structuredContent?.error?.code).toBe('timeout');
    });
  });
});
