// The setup many e2e files share: a fixture server, one browser, one MCP client and one tab the person shared.
import type http from 'node:http';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { call, FIXTURES, launchRig, serveFixtures, until, type BrowserKind, type Rig } from './harness.js';

/** A fixture server as {@link serveFixtures} gives it. */
export type Site = Awaited<ReturnType<typeof serveFixtures>>;

/** A route answering 302 to its own `?to=` address (or `/`): a server-side redirect a test points anywhere. */
export function redirectRoute(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(302, { location: new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '/' }).end();
}

/** The id of the first session `client` lists, once the shared tab has become one (waits up to 20 s). */
export function firstSession(client: Client): Promise<string> {
  return until(async () => ((await call(client, 'list_sessions')).structured.sessions as Array<{ id: string }> | undefined)?.[0]?.id, 20_000, 'the shared tab to become a session');
}

/** What {@link openSharedTab} sets up. */
export interface SharedTab {
  rig: Rig;
  site: Site;
  client: Client;
  /** The shared tab. */
  page: Page;
  /** Its session id. */
  session: string;
}

/** How {@link openSharedTab} sets up. */
export interface SharedTabOptions {
  /** The folder served (default: all fixtures). */
  dir?: string;
  /** Extra routes of the fixture server. */
  routes?: Parameters<typeof serveFixtures>[1];
  /** Options of {@link launchRig}. */
  rig?: Parameters<typeof launchRig>[1];
  /** The client's protocol era and name. */
  era: 'legacy' | 'modern';
  name: string;
  /** The shared tab's path and query on the fixture server, e.g. `dialogs/plain.html?shared`; the share finds the tab by it. */
  path: string;
  /** The shared tab's viewport, CSS pixels, set before it is shared. */
  viewport?: { width: number; height: number };
}

/**
 * Serves the fixtures, launches `kind` with Oriel, connects a client, opens `options.path`, shares it through the popup
 * and waits until the client sees it as a session. On failure closes what it started and throws.
 */
export async function openSharedTab(kind: BrowserKind, options: SharedTabOptions): Promise<SharedTab> {
  const site = await serveFixtures(options.dir ?? FIXTURES, options.routes);
  let rig: Rig | undefined;
  try {
    rig = await launchRig(kind, options.rig);
    const client = await rig.client(options.era, options.name);
    const page = await rig.open(`${site.url}/${options.path}`);
    if (options.viewport) await page.setViewport(options.viewport);
    await rig.share(options.path);
    return { rig, site, client, page, session: await firstSession(client) };
  } catch (err) {
    await rig?.close();
    await site.close();
    throw err;
  }
}

/** Closes what {@link openSharedTab} started (nothing if it never returned). */
export async function closeSharedTab(tab: SharedTab | undefined): Promise<void> {
  await tab?.rig.close();
  await tab?.site.close();
}
