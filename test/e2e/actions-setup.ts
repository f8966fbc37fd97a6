// Shared set-up for the actions-*.test.ts files: a rig (real browser + extension + hub) per browser, the action
// fixtures over local HTTP, one shared tab, and MCP clients in both protocol eras.
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { call, launchRig, until, type BrowserKind, type Rig, type ToolCall } from './harness.js';
import { startFixtureServer, type FixtureServer } from './actions-fixtures.js';

export interface ActionsRig {
  rig: Rig;
  site: FixtureServer;
  /** The shared tab, as puppeteer sees it (to check the page's own state). */
  page: Page;
  legacy: Client;
  modern: Client;
  /** Calls a tool through the legacy-era client unless told otherwise. */
  tool(name: string, args?: Record<string, unknown>, client?: Client): Promise<ToolCall>;
  /** Loads a fixture in the shared tab through the navigate tool; returns the new document id. */
  load(path: string): Promise<string>;
  /** A handle for the element `selector` matches, minted through wait_for (state attached). */
  handle(selector: string): Promise<string>;
  close(): Promise<void>;
}

/** Launches `kind`, opens the click fixture in a tab, shares it and waits until it is the one session. */
export async function actionsRig(kind: BrowserKind): Promise<ActionsRig> {
  const site = await startFixtureServer();
  const rig = await launchRig(kind);
  const legacy = await rig.client('legacy', 'actions-legacy');
  const modern = await rig.client('modern', 'actions-modern');
  const page = await rig.open(`${site.url}click.html?shared`);
  await rig.share('click.html?shared');
  await until(async () => {
    const r = await call(legacy, 'list_sessions');
    return (r.structured.sessions as unknown[] | undefined)?.length === 1 || undefined;
  }, 20_000, 'the shared tab to become a session');
  const tool = (name: string, args: Record<string, unknown> = {}, client: Client = legacy) => call(client, name, args);
  return {
    rig,
    site,
    page,
    legacy,
    modern,
    tool,
    async load(path) {
      const r = await tool('navigate', { url: site.url + path });
      if (r.isError) throw new Error(`navigate ${path}: ${r.error?.code} ${r.error?.message}`);
      return r.structured.document as string;
    },
    async handle(selector) {
      const r = await tool('wait_for', { selector, state: 'attached', timeout_ms: 20_000 });
      if (r.isError || typeof r.structured.handle !== 'string') throw new Error(`no handle for ${selector}: ${r.error?.message}`);
      return r.structured.handle;
    },
    async close() {
      await rig.close();
      await site.close();
    },
  };
}

/**
 * Runs `fn` in the shared page. The tab navigates through the extension, not through puppeteer, so puppeteer may
 * still be swapping in the new document's context: retry while it says the old one was destroyed.
 */
export async function inPage<T>(page: Page, fn: () => T): Promise<Awaited<T>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await page.evaluate(fn)) as Awaited<T>;
    } catch (err) {
      if (attempt >= 20 || !/context was destroyed|detached|Cannot find context/i.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** The text of `selector` in the shared page (see {@link inPage} for the retry). */
export async function textOf(page: Page, selector: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await page.$eval(selector, (el) => el.textContent ?? '');
    } catch (err) {
      if (attempt >= 20 || !/context was destroyed|detached|Cannot find context/i.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
