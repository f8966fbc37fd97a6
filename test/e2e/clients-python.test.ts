// Oriel driven by the MCP Python SDK (`mcp` 2.3.0, installed into .cache/py by scripts/setup.sh) through
// test/e2e/python/driver.py, in one real browser. The browser's native host runs with a desktop session's
// XDG_RUNTIME_DIR; the SDK starts `oriel mcp` with its default environment (no `env` given), and `oriel serve --http`
// runs without XDG_RUNTIME_DIR: both reach the hub the browser started and see the shared tab. Over stdio and HTTP:
// snapshot, type, click, screenshot, and a permission prompt answered.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { BROWSERS, CLI, ROOT, handleOf, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt, waitForPrompt } from './consent-helpers.js';

const PYTHON = path.join(ROOT, '.cache/py/bin/python');
const DRIVER = path.join(ROOT, 'test/e2e/python/driver.py');

interface PyResult {
  isError: boolean;
  structured: Record<string, unknown>;
  text: string;
  images: Array<{ data: string; mimeType: string }>;
}

/** A Python SDK client run by driver.py: `call` sends one tool call and resolves with its result. */
class PythonClient {
  private readonly replies = new Map<number, (line: Record<string, unknown>) => void>();
  private nextId = 1;
  readonly ready: Promise<void>;
  stderr = '';

  constructor(
    private readonly child: ChildProcess,
    connect: Record<string, unknown>,
  ) {
    let ready!: () => void;
    this.ready = new Promise((r) => (ready = r));
    child.stderr!.on('data', (c: Buffer) => (this.stderr += c.toString()));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as Record<string, unknown>;
      if (message.ready) ready();
      else this.replies.get(message.id as number)?.(message);
    });
    child.stdin!.write(JSON.stringify(connect) + '\n');
  }

  async call(tool: string, args: Record<string, unknown> = {}): Promise<PyResult> {
    const id = this.nextId++;
    const reply = new Promise<Record<string, unknown>>((r) => this.replies.set(id, r));
    this.child.stdin!.write(JSON.stringify({ id, tool, args }) + '\n');
    const message = await reply;
    if (message.error) throw new Error(`the Python client failed: ${String(message.error)}`);
    const r = message.result as { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ type: string; text?: string; data?: string; mimeType?: string }> };
    return {
      isError: r.isError === true,
      structured: r.structuredContent ?? {},
      text: r.content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n'),
      images: r.content.filter((c) => c.type === 'image') as PyResult['images'],
    };
  }

  /** Closes stdin (the driver then closes its session) and waits for it to exit. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.stdin!.end();
    await exited;
  }
}

describe.each(BROWSERS.slice(0, 1))('the Python SDK client, with its default environment (hub with %s)', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let shop: Page;
  let serve: ChildProcess | undefined;
  const clients: PythonClient[] = [];

  /** Starts driver.py as a person's agent would run: their login environment, no Oriel or XDG runtime variable. */
  const pythonClient = async (connect: Record<string, unknown>) => {
    const login = Object.fromEntries(['PATH', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG'].filter((n) => process.env[n]).map((n) => [n, process.env[n]!]));
    const child = spawn(PYTHON, [DRIVER], { env: { ...login, HOME: rig.env.HOME! }, stdio: ['pipe', 'pipe', 'pipe'] });
    const client = new PythonClient(child, connect);
    clients.push(client);
    await Promise.race([client.ready, new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`driver.py exited (${code}): ${client.stderr}`))))]);
    return client;
  };

  beforeAll(async () => {
    if (!existsSync(PYTHON)) throw new Error('the MCP Python SDK is not installed: run `bash scripts/setup.sh`');
    site = await serveFixtures();
    rig = await launchRig(kind, {
      env: (tmp) => {
        const xdg = path.join(tmp, 'xdg-runtime');
        mkdirSync(xdg, { mode: 0o700 });
        return { ORIEL_RUNTIME_DIR: undefined, ORIEL_DATA_DIR: undefined, XDG_RUNTIME_DIR: xdg, XDG_DATA_HOME: undefined, XDG_STATE_HOME: undefined };
      },
    });
    await until(() => rig.connectedBrowsers() > 0, 20_000, 'the browser to connect');
    shop = await rig.open(`${site.url}/shop/index.html`);
    await rig.share('shop/index.html');
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    serve?.kill('SIGTERM');
    await rig?.close();
    await site?.close();
  });

  /** The tab is listed; then snapshot, type, click, screenshot and an answered prompt, through `client`. */
  const exercise = async (client: PythonClient) => {
    const sessions = await until(async () => {
      const list = (await client.call('list_sessions')).structured.sessions as Array<{ url: string }>;
      return list.length ? list : undefined;
    }, 20_000, 'the shared tab to be listed');
    expect(sessions.map((s) => s.url)).toEqual([`${site.url}/shop/index.html`]);

    const snap = await client.call('snapshot');
    expect(snap.isError, snap.text).toBe(false);
    expect(snap.text).toMatch(/heading "Keyboards"/);
    expect(snap.structured).not.toHaveProperty('text');

    const typed = await client.call('type', { handle: handleOf(snap.text, /searchbox "Search"/), text: 'wireless', submit: true });
    expect(typed.isError, typed.text).toBe(false);
    expect(await shop.$eval('#q', (el) => (el as HTMLInputElement).value)).toBe('wireless');
    const results = await until(async () => {
      const text = (await client.call('snapshot')).text;
      return /button "Add Wireless keyboard to cart"/.test(text) ? text : undefined;
    }, 10_000, 'the search results');
    const clicked = await client.call('click', { handle: handleOf(results, /button "Add Wireless keyboard to cart"/) });
    expect(clicked.isError, clicked.text).toBe(false);
    expect(await shop.$eval('#cart tbody', (el) => el.textContent)).toContain('Wireless keyboard');

    const shot = await client.call('screenshot', { format: 'png' });
    expect(shot.isError, shot.text).toBe(false);
    expect(shot.images.map((i) => i.mimeType)).toEqual(['image/png']);
    expect(Buffer.from(shot.images[0]!.data, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const asking = client.call('evaluate', { expression: 'document.title' });
    await waitForPrompt(rig, { capability: 'exec', origin: site.origin });
    await answerPrompt(rig, { capability: 'exec', origin: site.origin }, 'allow_once', shop);
    const ran = await asking;
    expect(ran.isError, ran.text).toBe(false);
    expect(ran.text).toContain('Oriel sample shop');
    await client.call('navigate', { url: `${site.url}/shop/index.html` });
  };

  it('over stdio, `oriel mcp` started by the SDK with its default environment: the shared tab, used', async () => {
    await exercise(await pythonClient({ connect: 'stdio', command: process.execPath, args: [CLI, 'mcp'] }));
  });

  it('over HTTP (`oriel serve --http` started without XDG_RUNTIME_DIR): the same', async () => {
    const config = path.join(rig.tmp, 'config');
    serve = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0'], { env: { HOME: rig.env.HOME!, PATH: process.env.PATH!, ORIEL_CONFIG_DIR: config }, stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    serve.stderr!.on('data', (c: Buffer) => (said += c.toString()));
    const url = await until(() => /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(said)?.[1], 20_000, '`oriel serve --http` to say where it serves');
    const token = readFileSync(path.join(config, 'http-token'), 'utf8').trim();
    await exercise(await pythonClient({ connect: 'http', url, token }));
  });
});
