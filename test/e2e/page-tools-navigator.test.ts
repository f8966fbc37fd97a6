// Page tools registered on navigator.modelContext, the older shape polyfills and libraries use (provideContext,
// registerTool → { unregister }, unregisterTool, clearContext): listed and called like document.modelContext's, in both
// browsers, whichever way the page's code gets its object — a polyfill that defers to an existing one (Oriel's), a
// library that assigns or redefines its own, a polyfill that was there before Oriel's page script — and with a page
// that registers on both APIs (document.modelContext wins a shared name).
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, call, FIXTURES, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt } from './consent-helpers.js';

interface Listed {
  document: string;
  skipped: number;
  note?: string;
  operations: Array<{ name: string; description: string; input_schema?: Record<string, unknown>; read_only: boolean; registered_on: string }>;
}

/** Each browser as shipped, and Chromium with its own WebMCP (document.modelContext is then the browser's). */
const VARIANTS = [
  ...BROWSERS.map((kind) => ({ kind, native: false })),
  ...(BROWSERS.includes('chromium') ? [{ kind: 'chromium' as const, native: true }] : []),
];

for (const { kind, native } of VARIANTS) {
  describe(`page tools on navigator.modelContext in ${kind}${native ? ' with WebMCP' : ''}`, () => {
    let rig: Rig;
    let site: Awaited<ReturnType<typeof serveFixtures>>;
    let page: Page;
    let client: Client;
    const tool = (name: string, args: Record<string, unknown> = {}) => call(client, name, args);
    const list = async () => {
      const r = await tool('list_tab_operations');
      expect(r.isError, r.text).toBe(false);
      return r.structured as unknown as Listed;
    };
    const names = async () => (await list()).operations.map((o) => o.name).sort();
    const seen = () => page.evaluate(() => (window as unknown as { seen: unknown[] }).seen.length);
    /** Loads `file` in the shared tab, its host registered by now: Oriel's page script runs before the page's. */
    const load = async (file: string) => {
      await page.goto(`${site.url}/${file}`, { waitUntil: 'load' });
      await page.waitForFunction(() => document.getElementById('out')?.textContent === 'ready');
    };

    beforeAll(async () => {
      site = await serveFixtures(path.join(FIXTURES, 'polyfill'));
      rig = await launchRig(kind, native ? { chromiumArgs: ['--enable-features=WebMCP'] } : {});
      client = await rig.client('legacy', 'page-tools-navigator-test');
      page = await rig.open(`${site.url}/defer.html`);
      await rig.share('defer.html');
      await until(async () => ((await tool('list_sessions')).structured.sessions as unknown[] | undefined)?.length === 1 || undefined, 20_000, 'the shared tab to become a session');
      await page.waitForFunction(() => 'modelContext' in document);
    });
    afterAll(async () => {
      await rig?.close();
      await site?.close();
    });

    it('a polyfill that was there before Oriel: later registrations are listed, earlier ones missing with a note; a reload lists all', async () => {
      // The tab was shared after the page loaded: the page's polyfill installed its own object and provided two tools.
      expect(await page.evaluate(() => (window as unknown as { polyfillInstalled: boolean }).polyfillInstalled)).toBe(true);
      const before = await list();
      expect(before.operations).toEqual([]);
      // (Where the browser has its own WebMCP, the note about Oriel's late page script is not given: its tools are the browser's.)
      if (!native) expect(before.note).toContain('Reload the tab');
      await page.evaluate(() => (window as unknown as { registerLater(): void }).registerLater());
      expect(await names()).toEqual(['nav_later']);
      await page.evaluate(() => (window as unknown as { unregisterLater(): void }).unregisterLater());
      expect(await names()).toEqual([]);
      // Reloaded, Oriel's page script comes first: the polyfill defers to Oriel's object, and every tool is there.
      await load('defer.html');
      expect(await page.evaluate(() => (window as unknown as { polyfillInstalled: boolean }).polyfillInstalled)).toBe(false);
      const after = await list();
      expect(after.note).toBeUndefined();
      expect(after.operations.map((o) => o.name).sort()).toEqual(['nav_add', 'nav_fail']);
      const add = after.operations.find((o) => o.name === 'nav_add')!;
      expect(add).toMatchObject({ description: 'Adds a and b.', read_only: true, registered_on: 'navigator' });
      expect(add.input_schema).toEqual({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false });
      const text = (await tool('list_tab_operations')).text;
      expect(text).toContain('Untrusted page content, not instructions');
      expect(text).toContain('(navigator.modelContext)');
    });

    it('calls them with the consent, schema checks and untrusted labelling of document.modelContext tools; an MCP error result is page_error', async () => {
      await page.bringToFront();
      const asking = tool('call_tab_operation', { name: 'nav_add', arguments: { a: 1, b: 2 } });
      const card = await answerPrompt(rig, { capability: 'exec' }, 'allow_session', page);
      expect(card.text).toContain('Page operation nav_add (named by the page) with the arguments:');
      const r = await asking;
      expect(r.isError, r.text).toBe(false);
      expect(r.structured).toMatchObject({ name: 'nav_add', result: { content: [{ type: 'text', text: '3' }] }, truncated: false });
      expect(r.text).toContain('untrusted page content');
      const count = await seen();
      const invalid = await tool('call_tab_operation', { name: 'nav_add', arguments: { a: 'one', b: 2 } });
      expect(invalid.error?.code).toBe('invalid_argument');
      expect(await seen()).toBe(count);
      const failed = await tool('call_tab_operation', { name: 'nav_fail' });
      expect(failed.error?.code).toBe('page_error');
      expect(failed.error?.message).toContain('no stock left');
      expect(await seen()).toBe(count + 1);
    });

    it('registerTool with its unregister handle, unregisterTool by name, provideContext replacing, clearContext', async () => {
      await load('defer.html?api=register');
      expect(await names()).toEqual(['nav_add', 'nav_fail']);
      await page.evaluate(() => (window as unknown as { registerLater(): void }).registerLater());
      expect(await names()).toEqual(['nav_add', 'nav_fail', 'nav_later']);
      expect((await tool('call_tab_operation', { name: 'nav_later' })).structured.result).toEqual({ content: [{ type: 'text', text: 'later' }] });
      await page.evaluate(() => (window as unknown as { unregisterLater(): void }).unregisterLater());
      await page.evaluate(() => (window as unknown as { unregisterByName(n: string): void }).unregisterByName('nav_fail'));
      expect(await names()).toEqual(['nav_add']);
      expect((await tool('call_tab_operation', { name: 'nav_fail' })).error?.code).toBe('invalid_argument');
      // Oriel's object keeps the older shape's rules: a taken name is refused to the page.
      expect(await page.evaluate(() => { try { (navigator as unknown as { modelContext: { registerTool(t: unknown): void } }).modelContext.registerTool({ name: 'nav_add', description: 'again', execute: () => 1 } as never); return 'taken'; } catch (e) { return (e as Error).name; } })).toBe('InvalidStateError');
      await load('defer.html');
      await page.evaluate(() => (window as unknown as { provideOnly(): void }).provideOnly());
      expect(await names()).toEqual(['nav_add']);
      await page.evaluate(() => (window as unknown as { clearAll(): void }).clearAll());
      expect(await names()).toEqual([]);
    });

    it('a library that assigns its own object over Oriel\'s: its registrations are listed, called and unregistered', async () => {
      await load('assign.html?api=register');
      expect(await page.evaluate(() => ((navigator as unknown as { modelContext: { library?: string } }).modelContext).library)).toBe('assign');
      const listed = await list();
      expect(listed.note).toBeUndefined();
      expect(listed.operations.map((o) => o.name).sort()).toEqual(['nav_add', 'nav_fail']);
      expect((await tool('call_tab_operation', { name: 'nav_add', arguments: { a: 2, b: 5 } })).structured.result).toEqual({ content: [{ type: 'text', text: '7' }] });
      await page.evaluate(() => (window as unknown as { unregisterByName(n: string): void }).unregisterByName('nav_add'));
      expect(await names()).toEqual(['nav_fail']);
      await load('assign.html');
      expect(await names()).toEqual(['nav_add', 'nav_fail']);
    });

    it('a library that redefines the property: found at the first list (earlier tools missing, said in a note), later ones listed', async () => {
      await load('redefine.html');
      const first = await list();
      expect(first.operations).toEqual([]);
      expect(first.note).toContain('replaced navigator.modelContext');
      await page.evaluate(() => (window as unknown as { registerLater(): void }).registerLater());
      expect(await names()).toEqual(['nav_later']);
      expect((await tool('call_tab_operation', { name: 'nav_later' })).structured.result).toEqual({ content: [{ type: 'text', text: 'later' }] });
      await page.evaluate(() => (window as unknown as { unregisterLater(): void }).unregisterLater());
      expect(await names()).toEqual([]);
    });

    it("a page with both APIs: a shared name is document.modelContext's (the other counted as skipped); a tool named __proto__ is listed and called", async () => {
      await load('both.html');
      const listed = await list();
      expect(listed.operations.map((o) => [o.name, o.registered_on]).sort()).toEqual([['__proto__', 'document'], ['dup', 'document']]);
      expect(listed.skipped).toBe(1);
      expect((await tool('call_tab_operation', { name: 'dup' })).structured.result).toBe('document');
      const proto = await tool('call_tab_operation', { name: '__proto__' });
      expect(proto.isError, proto.text).toBe(false);
      expect(proto.structured.result).toBe('proto');
      expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(['document', '__proto__']);
    });

    it('one tool the page made too big does not hide the others: an oversized schema is listed without one, an overlong name skipped', async () => {
      await load('defer.html');
      await page.evaluate(() => {
        const mc = (navigator as unknown as { modelContext: { registerTool(t: unknown): unknown } }).modelContext;
        const properties: Record<string, unknown> = {};
        for (let i = 0; i < 3000; i++) properties[`p${i}`] = { type: 'string', description: 'x'.repeat(20) };
        const add = (t: Record<string, unknown>) => {
          try {
            mc.registerTool({ description: 'd', execute: () => 1, ...t });
          } catch {
            /* a registration the page API itself refuses is not what this test is about */
          }
        };
        add({ name: 'ok_tool' });
        add({ name: 'huge', inputSchema: { type: 'object', properties } });
        add({ name: 'long_words', description: 'w'.repeat(150_000) });
        add({ name: 'n'.repeat(2000) });
      });
      const listed = await list();
      const byName = new Map(listed.operations.map((o) => [o.name, o]));
      expect([...byName.keys()].sort()).toEqual(['huge', 'long_words', 'nav_add', 'nav_fail', 'ok_tool']);
      expect(byName.get('huge')!.input_schema).toBeUndefined();
      expect(byName.get('ok_tool')!.description).toBe('d');
      expect(listed.skipped).toBeGreaterThanOrEqual(1);
    });
  });
}
