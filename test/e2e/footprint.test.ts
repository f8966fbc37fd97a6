// What a page can tell of Oriel (docs/architecture.md, "What a page can see"): a page that probes for extensions
// (test/fixtures/footprint/probe.html) sees in a tab that is not shared exactly what it sees in a browser without
// Oriel, in the same run; in a shared tab it sees the documented changes and nothing else; and when a tab is shared
// after its page loaded, agents are told what Oriel's page script missed. Real browsers, real HTTP, official MCP client.
import path from 'node:path';
import os from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, call, FIXTURES, launchRig, serveFixtures, until, type BrowserKind, type Rig } from './harness.js';

/** What probe.html reports (see its `window.probe`). */
type Probe = Record<string, unknown> & { natives: Record<string, string>; frame: Probe | string | undefined };

/** The same browser, launched the way the harness launches it but without any extension: the baseline. */
async function launchPlain(kind: BrowserKind, dir: string): Promise<Browser> {
  if (kind === 'chromium') {
    return puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, userDataDir: dir, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }
  return puppeteer.launch({ browser: 'firefox', protocol: 'webDriverBiDi', executablePath: '/usr/bin/firefox-esr', headless: true, userDataDir: dir });
}

/** Opens probe.html in `browser`, answers its dialogs as a person would (OK), and runs the probe. */
async function probeIn(page: Page, options: { alert?: boolean; extensionBase?: string } = {}): Promise<Probe> {
  await page.waitForFunction(() => typeof (document.querySelector('iframe')?.contentWindow as { probe?: unknown } | null)?.probe === 'function');
  return (await page.evaluate((o) => (window as unknown as { probe(o: unknown): Promise<unknown> }).probe(o), options)) as Probe;
}

/**
 * Whether Oriel's content script (`oriel.content`) or its early watcher (`oriel.early`) runs in each frame of the tab
 * whose URL contains `urlPart`, in frame order: asked from an extension page with `scripting.executeScript`, whose
 * function runs in the isolated world those scripts share and only reads the mark they leave there
 * (extension/content/marks.ts); it loads no script of Oriel's.
 */
async function contentScriptIn(rig: Rig, urlPart: string, mark: 'oriel.content' | 'oriel.early' = 'oriel.content'): Promise<boolean[]> {
  const popup = await rig.extensionPage('popup');
  return popup.evaluate(async (part, key) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url?.includes(part));
    if (tab?.id === undefined) throw new Error(`no tab shows ${part}`);
    const results = await chrome.scripting.executeScript({
      target: { tabId: tab.id, allFrames: true },
      func: (k: string) => ['function', 'object'].includes(typeof (globalThis as unknown as Record<symbol, unknown>)[Symbol.for(k)]),
      args: [key],
    });
    return results.sort((a, b) => a.frameId - b.frameId).map((r) => r.result === true);
  }, urlPart, mark);
}

/** The keys whose values differ between two probes (nested objects flattened with dots). */
function differences(a: unknown, b: unknown, prefix = ''): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) || Array.isArray(b)) return [prefix];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], prefix ? `${prefix}.${k}` : k));
}

describe.each(BROWSERS)('what a page can see of Oriel in %s', (kind) => {
  let rig: Rig;
  let plain: Browser;
  let plainDir: string;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let client: Client;
  let baseline: Probe;
  /** The probe page on a host no tab is shared on (the tabs shared here are on 127.0.0.1: another host, same server). */
  const unsharedUrl = () => `${site.url.replace('127.0.0.1', 'localhost')}/probe.html`;

  beforeAll(async () => {
    site = await serveFixtures(path.join(FIXTURES, 'footprint'));
    plainDir = mkdtempSync(path.join(os.tmpdir(), `oriel-plain-${kind}-`));
    [rig, plain] = await Promise.all([launchRig(kind), launchPlain(kind, plainDir)]);
    client = await rig.client('modern', 'footprint-test');
    const page = await plain.newPage();
    page.on('dialog', (d) => void d.accept());
    await page.goto(unsharedUrl(), { waitUntil: 'load' });
    baseline = await probeIn(page, { alert: true, extensionBase: rig.extensionBase });
  });
  afterAll(async () => {
    await plain?.close();
    await rig?.close();
    await site?.close();
    if (plainDir) rmSync(plainDir, { recursive: true, force: true });
  });

  it('a page in a tab that is not shared sees exactly what it sees in a browser without Oriel', async () => {
    // Oriel is at work meanwhile: another tab is shared and read by an agent.
    await rig.open(`${site.url}/probe.html?other`);
    await rig.share('probe.html?other');
    await until(async () => ((await call(client, 'list_sessions')).structured.sessions as unknown[] | undefined)?.length === 1 || undefined, 20_000, 'the shared tab to become a session');
    const read = await call(client, 'snapshot');
    expect(read.isError, read.text).toBe(false);

    // On another host, and on the very host of the shared tab (where the page script is registered, and finds the
    // tab unshared before touching anything).
    for (const url of [unsharedUrl(), `${site.url}/probe.html`]) {
      const page = await rig.open(url);
      page.on('dialog', (d) => void d.accept());
      const seen = await probeIn(page, { alert: true, extensionBase: rig.extensionBase });
      expect(differences(seen, baseline), url).toEqual([]);
      expect(seen).toEqual(baseline);
      // On another host, no frame runs Oriel's content script (on the shared tab's host, every tab loads it); every
      // frame runs the early watcher, which the probe did not see either.
      if (url === unsharedUrl()) {
        expect(await contentScriptIn(rig, url)).toEqual([false, false]);
        expect(await contentScriptIn(rig, url, 'oriel.early')).toEqual([true, true]);
      }
      await page.close();
    }
    // The shared tab's frames do run it.
    expect(await contentScriptIn(rig, 'probe.html?other')).toEqual([true, true]);
    // The probe does look: its answer is not empty.
    expect(Object.keys(baseline.natives).length).toBeGreaterThan(300);
    expect(baseline.extensionFiles).toEqual({ 'manifest.json': 'refused', 'extension/main/index.iife.js': 'refused', 'extension/content/index.iife.js': 'refused', 'extension/content/early.iife.js': 'refused', 'icons/oriel-16.png': 'refused' });
    await rig.share('probe.html?other', false);
  });

  it('a shared tab shows the documented changes and nothing else', async () => {
    const page = await rig.open(`${site.url}/probe.html?shared`);
    page.on('dialog', (d) => void d.accept());
    await rig.share('probe.html?shared');
    // Sharing put the page script into the loaded page (after the page's own scripts) …
    await page.waitForFunction(() => 'modelContext' in document);
    // … and into every document of its host from now on, before the page's own scripts.
    await page.reload({ waitUntil: 'load' });
    const seen = await probeIn(page, { alert: true, extensionBase: rig.extensionBase });
    expect(await contentScriptIn(rig, 'probe.html?shared')).toEqual([true, true]);
    const top = [
      // document.modelContext (Oriel's, where the browser has none: both browsers here).
      'documentKeys', 'modelContextIn', 'natives.document.modelContext',
      // navigator.modelContext (Oriel's, for pages whose polyfill or library uses the older shape).
      'navigatorModelContextIn', 'natives.navigator.modelContext',
      // alert, confirm and prompt: the same descriptors, names and lengths, another Function.prototype.toString.
      'natives.window.alert', 'natives.window.confirm', 'natives.window.prompt',
      // HTMLElement.prototype.attachInternals: likewise.
      'natives.HTMLElement.attachInternals',
      // The tab's mark in session storage (oriel-shared-tab), which the page script registered by host looks for.
      'storage',
      // A dialog asks the content script by an event on window, from Oriel's code (which shows in a stack).
      'alert.foreignFrames', 'log.events',
      // Firefox resolves its standard globals when first used: the page script uses some before the page does, so
      // the page finds more of them already defined on window.
      ...(kind === 'firefox' ? ['firstScript.names', 'globals'] : []),
    ];
    const inFrame = top.filter((k) => !k.startsWith('alert.') && k !== 'log.events').map((k) => `frame.${k}`);
    expect(differences(seen, baseline).sort()).toEqual([...top, ...inFrame].sort());
    // The alert asks the content script, then (nobody answered) opens the browser's own dialog and says so, before and after.
    expect((seen.log as { events: string[] }).events).toEqual(['window:oriel-dialog:false', 'window:oriel-dialog-shown:false', 'window:oriel-dialog-shown:false']);
    expect(seen.storage).toEqual(['oriel-shared-tab']);
    expect(seen.alert).toMatchObject({ conversions: 1 });
    // Only the text of the wrappers differs from the natives: descriptor, name, length, own keys, prototype are kept.
    const withoutText = (shape: string) => shape.split('|').filter((_, i) => i !== 2).join('|');
    for (const k of ['window.alert', 'window.confirm', 'window.prompt', 'HTMLElement.attachInternals']) {
      expect(withoutText(seen.natives[k]!), k).toBe(withoutText(baseline.natives[k]!));
    }
    await rig.share('probe.html?shared', false);
    await page.close();
  });

  it('a tab shared after its page loaded: agents are told what the page script missed, and a reload recovers it', async () => {
    const page = await rig.open(`${site.url}/late.html`);
    await rig.share('late.html');
    // Its own session, by URL: the previous test's tab may still be leaving the list.
    const session = await until(async () => ((await call(client, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }> | undefined)?.find((s) => s.url.endsWith('/late.html'))?.id, 20_000, 'the shared tab to become a session');
    const tool = (name: string) => call(client, name, { session });
    const before = await tool('snapshot');
    expect(before.isError, before.text).toBe(false);
    expect(before.text).toMatch(/note: this page loaded before Oriel's page script reached it .*ElementInternals.* reload the tab/);
    expect(before.text).not.toMatch(/switch "Dark mode"/);
    const listed = await tool('list_tab_operations');
    expect(listed.structured).toMatchObject({ provider: 'oriel', operations: [] });
    expect(listed.structured.note).toMatch(/Reload the tab/);
    expect(listed.text).toMatch(/Note: .*Reload the tab/);

    await page.reload({ waitUntil: 'load' });
    expect(await page.evaluate(() => (window as unknown as { registered: boolean }).registered)).toBe(true);
    const after = await tool('snapshot');
    expect(after.text).toMatch(/switch "Dark mode" .*checked/);
    expect(after.text).not.toMatch(/ElementInternals/);
    const relisted = await tool('list_tab_operations');
    expect((relisted.structured.operations as Array<{ name: string }>).map((o) => o.name)).toEqual(['ping']);
    expect(relisted.structured.note).toBeUndefined();
    await rig.share('late.html', false);
    await page.close();
  });
});
