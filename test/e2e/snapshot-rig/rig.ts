// A real browser with the snapshot rig extension, fixture servers (two origins, for cross-origin frames), and
// helpers to take snapshots. Used until/alongside the full MCP harness (test/e2e/harness.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { SnapshotArgs, SnapshotResult } from '../../../shared/ops.js';
import type { ErrorData } from '../../../shared/errors.js';
import { serveFixtures } from '../harness.js';
import { buildRig } from './build.js';

export type Kind = 'chromium' | 'firefox';
export const KINDS: Kind[] = (process.env.ORIEL_TEST_BROWSERS ?? 'chromium,firefox').split(',').filter(Boolean) as Kind[];
export const SNAPSHOT_FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/snapshot');

export interface SnapRig {
  kind: Kind;
  browser: Browser;
  /** Fixture origins: `a` is the page origin, `b` another origin for cross-origin frames. */
  a: string;
  b: string;
  open(file: string): Promise<Page>;
  snapshot(page: Page, args?: SnapshotArgs): Promise<SnapshotResult>;
  snapshotError(page: Page, args?: SnapshotArgs): Promise<ErrorData>;
  /** Calls a content op in a frame of the page's tab. */
  send(page: Page, frameId: number, op: string, args: Record<string, unknown>): Promise<{ value?: unknown; document?: string; error?: ErrorData }>;
  settings(s: unknown): Promise<void>;
  close(): Promise<void>;
}

export async function launchSnapRig(kind: Kind): Promise<SnapRig> {
  const ext = await buildRig(kind === 'chromium' ? 'chrome' : 'firefox');
  const tmp = mkdtempSync(path.join(os.tmpdir(), `oriel-snap-${kind}-`));
  const serverA = await serveFixtures(SNAPSHOT_FIXTURES, { '/rig-control.html': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>rig</title>') });
  const serverB = await serveFixtures(SNAPSHOT_FIXTURES);
  let browser: Browser;
  if (kind === 'chromium') {
    browser = await puppeteer.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      userDataDir: tmp,
      ignoreDefaultArgs: ['--disable-extensions'],
      args: [`--load-extension=${ext}`, `--disable-extensions-except=${ext}`, '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--window-size=1280,800'],
    });
    await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().startsWith('chrome-extension://'), { timeout: 15_000 });
  } else {
    browser = await puppeteer.launch({
      browser: 'firefox',
      protocol: 'webDriverBiDi',
      executablePath: '/usr/bin/firefox-esr',
      headless: true,
      userDataDir: tmp,
      env: { ...process.env, HOME: tmp },
      extraPrefsFirefox: { 'xpinstall.signatures.required': false },
    });
    await browser.installExtension(ext);
  }
  const rigPage = await browser.newPage();
  await rigPage.goto(`${serverA.origin}/rig-control.html`, { waitUntil: 'load' });
  await rigPage.waitForFunction(() => document.documentElement.dataset.rig === 'ready', { timeout: 15_000 });
  let seq = 0;
  const call = async <T>(fn: string, ...args: unknown[]): Promise<T> => {
    // A string, not a function: the test transpiler's helpers do not exist in the page.
    const r = (await rigPage.evaluate(
      `new Promise((resolve) => {
        const on = (e) => { if (e.data && e.data.rigRes === ${++seq}) { removeEventListener('message', on); resolve(e.data.r); } };
        addEventListener('message', on);
        postMessage({ rigReq: ${seq}, fn: ${JSON.stringify(fn)}, args: ${JSON.stringify(args)} }, '*');
      })`,
    )) as { value?: T; error?: ErrorData };
    return (r.error ? { error: r.error } : r.value) as T;
  };
  const key = (page: Page) => page.url();
  return {
    kind,
    browser,
    a: serverA.origin,
    b: serverB.origin,
    async open(file) {
      const page = await browser.newPage();
      await page.setViewport({ width: 1200, height: 800 });
      await page.goto(file.includes("{b}") ? `${serverA.origin}/${file.replace("{b}", serverB.origin)}` : file.startsWith('http') ? file : `${serverA.origin}/${file}`, { waitUntil: 'load' });
      return page;
    },
    async snapshot(page, args = {}) {
      const r = await call<SnapshotResult & { error?: ErrorData }>('snapshot', key(page), args);
      if (r.error) throw new Error(`snapshot failed: ${JSON.stringify(r.error)}`);
      return r;
    },
    async snapshotError(page, args = {}) {
      const r = await call<{ error?: ErrorData }>('snapshot', key(page), args);
      if (!r.error) throw new Error('snapshot unexpectedly succeeded');
      return r.error;
    },
    send: (page, frameId, op, args) => call('send', key(page), frameId, op, args),
    settings: (s) => call('settings', s),
    async close() {
      await browser.close().catch(() => undefined);
      await serverA.close();
      await serverB.close();
      rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/** The outline lines without header and coverage. */
export function body(r: SnapshotResult): string {
  const lines = r.text.split('\n');
  return lines.slice(1, -1).join('\n');
}

/** Replaces handles by `@h` so expected outlines do not depend on random namespaces. */
export function strip(text: string): string {
  return text.replace(/ @[a-z0-9]{4,16}\.[0-9a-z]+/g, ' @h');
}
