// Oriel driven by the MCP TypeScript SDK v1 client (@modelcontextprotocol/sdk), the line desktop agents embed, in each
// real browser. The browser's native host runs with a desktop session's XDG_RUNTIME_DIR; `oriel mcp` is started the
// way the SDK starts servers, with only its default environment (HOME LOGNAME PATH SHELL TERM USER), and `oriel serve
// --http` with no XDG_RUNTIME_DIR either: both reach the hub the browser started (docs/architecture.md, "Parts") and
// see the shared tab. Over stdio and HTTP: snapshot, type, click, screenshot, and a permission prompt answered.
import { mkdirSync, readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DEFAULT_INHERITED_ENV_VARS, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BROWSERS, CLI, handleOf, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt, waitForPrompt } from './consent-helpers.js';

/** One tool call through an SDK v1 client: the text, the structured content, whether it failed, and any image. */
async function call1(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  };
  return {
    isError: r.isError === true,
    structured: r.structuredContent ?? {},
    text: r.content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n'),
    images: r.content.filter((c) => c.type === 'image'),
  };
}

/**
 * Starts `oriel mcp` as the SDK v1 client does when a configuration names no `env`: the SDK's default environment,
 * taken from this process's own, with HOME pointed at the rig's home (a person's shell and browser share one home).
 */
async function defaultEnvClient(rig: Rig, name: string): Promise<{ client: Client; pid: number }> {
  const home = process.env.HOME;
  process.env.HOME = rig.env.HOME;
  try {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], stderr: 'pipe' });
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(transport);
    return { client, pid: transport.pid! };
  } finally {
    process.env.HOME = home;
  }
}

describe.each(BROWSERS)('the SDK v1 client, with its default environment, in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let shop: Page;
  let stdio: Client;
  let relayPid: number;
  let serve: ChildProcess | undefined;
  const clients: Client[] = [];

  beforeAll(async () => {
    site = await serveFixtures();
    // A desktop session: the browser (and so its native host) has XDG_RUNTIME_DIR; nothing Oriel-specific is set.
    rig = await launchRig(kind, {
      env: (tmp) => {
        const xdg = path.join(tmp, 'xdg-runtime');
        mkdirSync(xdg, { mode: 0o700 });
        return { ORIEL_RUNTIME_DIR: undefined, ORIEL_DATA_DIR: undefined, XDG_RUNTIME_DIR: xdg, XDG_DATA_HOME: undefined, XDG_STATE_HOME: undefined };
      },
    });
    // The page is opened once Oriel runs (a page loaded before it cannot run an agent's code without a reload).
    await until(() => rig.connectedBrowsers() > 0, 20_000, 'the browser to connect');
    shop = await rig.open(`${site.url}/shop/index.html`);
    await rig.share('shop/index.html');
    ({ client: stdio, pid: relayPid } = await defaultEnvClient(rig, 'sdk-v1-agent'));
    clients.push(stdio);
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    serve?.kill('SIGTERM');
    await rig?.close();
    await site?.close();
  });

  it("`oriel mcp` started with only the SDK's default environment sees the tab shared in the browser", async () => {
    // The relay really runs without XDG_RUNTIME_DIR or any ORIEL_* variable: exactly the SDK's defaults.
    const names = readFileSync(`/proc/${relayPid}/environ`, 'utf8').split('\0').filter(Boolean).map((kv) => kv.slice(0, kv.indexOf('=')));
    expect(names.every((n) => (DEFAULT_INHERITED_ENV_VARS as string[]).includes(n)), names.join(' ')).toBe(true);
    expect(names).toContain('HOME');
    const sessions = await until(async () => {
      const list = (await call1(stdio, 'list_sessions')).structured.sessions as Array<{ url: string; browser: string }>;
      return list.length ? list : undefined;
    }, 20_000, 'the shared tab to be listed');
    expect(sessions).toEqual([expect.objectContaining({ url: `${site.url}/shop/index.html`, browser: kind })]);
    // `oriel doctor` in the same minimal environment finds that one hub (under the browser's XDG_RUNTIME_DIR), no other.
    const minimal = Object.fromEntries(DEFAULT_INHERITED_ENV_VARS.filter((n) => process.env[n] !== undefined).map((n) => [n, process.env[n]!]));
    const doctor = await promisify(execFile)(process.execPath, [CLI, 'doctor', '--json'], { env: { ...minimal, HOME: rig.env.HOME! } }).catch((e: { stdout: string }) => e);
    const checks = JSON.parse(doctor.stdout) as Array<{ check: string; ok: boolean; detail: string }>;
    expect(checks.find((c) => c.check === 'hub')).toMatchObject({ ok: true, detail: expect.stringContaining(path.join(rig.env.XDG_RUNTIME_DIR!, 'oriel', 'hub.sock')) });
    expect(checks.find((c) => c.check === 'sessions')).toMatchObject({ ok: true });
  });

  /** Snapshot, type, click, screenshot and an answered prompt, through `client`. */
  const exercise = async (client: Client, query: string) => {
    const snap = await call1(client, 'snapshot');
    expect(snap.isError, snap.text).toBe(false);
    expect(snap.text).toMatch(/heading "Keyboards"/);
    // The outline is carried once, as text; the structured content holds the data around it.
    expect(snap.structured).not.toHaveProperty('text');
    expect(snap.structured.document).toMatch(/^[a-z0-9]{4,16}$/);

    const typed = await call1(client, 'type', { handle: handleOf(snap.text, /searchbox "Search"/), text: query, submit: true });
    expect(typed.isError, typed.text).toBe(false);
    expect(await shop.$eval('#q', (el) => (el as HTMLInputElement).value)).toBe(query);
    const results = await until(async () => {
      const text = (await call1(client, 'snapshot')).text;
      return /button "Add Wireless keyboard to cart"/.test(text) ? text : undefined;
    }, 10_000, 'the search results');

    const clicked = await call1(client, 'click', { handle: handleOf(results, /button "Add Wireless keyboard to cart"/) });
    expect(clicked.isError, clicked.text).toBe(false);
    expect(await shop.$eval('#cart tbody', (el) => el.textContent)).toContain('Wireless keyboard');

    const shot = await call1(client, 'screenshot');
    expect(shot.isError, shot.text).toBe(false);
    expect(shot.images).toHaveLength(1);
    expect(shot.images[0]!.mimeType).toBe('image/jpeg');
    expect(Buffer.from(shot.images[0]!.data!, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

    const asking = call1(client, 'evaluate', { expression: 'document.title' });
    await waitForPrompt(rig, { capability: 'exec', origin: site.origin });
    await answerPrompt(rig, { capability: 'exec', origin: site.origin }, 'allow_once', shop);
    const ran = await asking;
    expect(ran.isError, ran.text).toBe(false);
    expect(ran.text).toContain('Oriel sample shop');
    await call1(client, 'navigate', { url: `${site.url}/shop/index.html` });
  };

  it('over stdio: snapshot, type, click, screenshot, and a permission prompt answered', async () => {
    await exercise(stdio, 'wireless');
  });

  it('over HTTP (`oriel serve --http` started without XDG_RUNTIME_DIR): the same, on the same hub', async () => {
    const config = path.join(rig.tmp, 'config');
    serve = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0'], { env: { HOME: rig.env.HOME!, PATH: process.env.PATH!, ORIEL_CONFIG_DIR: config }, stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    serve.stderr!.on('data', (c: Buffer) => (said += c.toString()));
    const url = await until(() => /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(said)?.[1], 20_000, '`oriel serve --http` to say where it serves');
    const token = readFileSync(path.join(config, 'http-token'), 'utf8').trim();
    const client = new Client({ name: 'sdk-v1-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    clients.push(client);
    const sessions = (await call1(client, 'list_sessions')).structured.sessions as Array<{ url: string }>;
    expect(sessions.map((s) => s.url)).toEqual([`${site.url}/shop/index.html`]);
    await exercise(client, 'wireless');
  });
});
