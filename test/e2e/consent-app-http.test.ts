// Asking in the agent's app over Streamable HTTP (`oriel serve --http`): a 2025-era HTTP session that declared form
// elicitation is asked on its tool call's own stream and its answer lets the call through; a 2026-07-28 HTTP exchange
// is its own caller that ends with its request, so there the popup alone asks (docs/architecture.md, "Asking in the
// agent's app"). The transport does not depend on the browser: one browser, as in http.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, CLI, FIXTURES, call, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt } from './consent-helpers.js';

describe.each(BROWSERS.slice(0, 1))("prompts asked in the agent's app over HTTP (hub with %s)", (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let serve: ChildProcess;
  let page: Page;
  let url: string;
  let token: string;
  let session: string;
  const clients: Client[] = [];
  const questions: string[] = [];

  const httpClient = async (era: 'legacy' | 'modern', name: string) => {
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
    const client = new Client({ name, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: { pin: '2026-07-28' } } });
    client.setRequestHandler('elicitation/create', (request) => {
      questions.push(`${name}: ${(request.params as { message: string }).message}`);
      return { action: 'accept', content: { answer: 'allow_once' } };
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    site = await serveFixtures(path.join(FIXTURES, 'consent'));
    rig = await launchRig(kind);
    // The background is up (and hears the page's headers, which evaluate reads) before the page loads.
    await until(() => rig.connectedBrowsers() === 1 || undefined, 20_000, 'the browser to connect');
    page = await rig.open(`${site.url}/page.html`);
    await rig.share('page.html');
    serve = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0'], { env: rig.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    serve.stderr!.on('data', (c: Buffer) => (said += c.toString()));
    url = await until(() => /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(said)?.[1], 20_000, '`oriel serve --http` to say where it serves');
    token = readFileSync(path.join(rig.env.ORIEL_CONFIG_DIR!, 'http-token'), 'utf8').trim();
    const options = await rig.extensionPage('options');
    for (const name of ['http-legacy', 'http-modern']) {
      await options.type('#app-name', name);
      await options.click('#app-form button[type="submit"]');
      await options.waitForSelector(`#app-clients li[data-app="${name}"]`, { timeout: 10_000 });
    }
    await page.bringToFront();
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    serve?.kill('SIGTERM');
    await rig?.close();
    await site?.close();
  });

  it('a 2025-era HTTP session is asked on its call and its answer lets the call through', async () => {
    const legacy = await httpClient('legacy', 'http-legacy');
    session = await until(async () => ((await call(legacy, 'list_sessions')).structured.sessions as Array<{ id: string }>)[0]?.id, 20_000, 'the session');
    const ran = await call(legacy, 'evaluate', { session, expression: '"over http"' });
    expect(ran.isError, ran.text).toBe(false);
    expect(ran.structured.value).toBe('over http');
    expect(questions).toEqual([expect.stringContaining(`http-legacy: Oriel (your browser): may the agent "http-legacy" run code on ${site.origin}?`)]);
  });

  it('a 2026-07-28 HTTP exchange is not asked: the popup alone asks', async () => {
    const modern = await httpClient('modern', 'http-modern');
    const asking = call(modern, 'evaluate', { session, expression: '"popup only"' });
    await answerPrompt(rig, { capability: 'exec', origin: site.origin }, 'allow_once', page);
    expect((await asking).structured.value).toBe('popup only');
    expect(questions).toHaveLength(1);
  });
});
