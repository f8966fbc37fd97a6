// Shared set-up for the snapshot-*.test.ts files: one real browser per file with the built extension and the native
// host (test/e2e/harness.ts), the snapshot fixtures served from two origins (`a` for pages, `b` for cross-origin
// frames), one tab shared through the popup, and official MCP clients in both protocol eras on `oriel mcp`.
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import path from 'node:path';
import { call, FIXTURES, launchRig, serveFixtures, until, type BrowserKind, type Rig, type ToolCall } from './harness.js';

export const SNAPSHOT_FIXTURES = path.join(FIXTURES, 'snapshot');
export type Era = 'legacy' | 'modern';
export const ERAS: Era[] = ['legacy', 'modern'];

/** The snapshot tool's result: its structured content, with `text` the outline from its text content. */
export interface Snap {
  snapshot: string;
  document: string;
  url: string;
  title: string;
  text: string;
  coverage: { visited: number; shown: number; omitted: number; truncated: boolean; read_all: boolean };
  cursor?: string;
  loading?: 'loading' | 'interactive';
  changes?: { since: string; shown_as: 'diff' | 'outline'; changed: number; added: number; removed: number; reason?: string };
}

export interface SnapSession {
  rig: Rig;
  /** Fixture origins: `a` serves the pages, `b` is another origin for cross-origin frames. */
  a: string;
  b: string;
  /** The shared tab, as puppeteer sees it (the page's own side: its scripts, the user's reloads). */
  page: Page;
  /** The shared tab's session id. */
  session: string;
  clients: Record<Era, Client>;
  /** Calls a tool on the shared tab's session through the client of `era`. */
  tool(name: string, args?: Record<string, unknown>, era?: Era): Promise<ToolCall>;
  /** Loads a fixture (`{b}` stands for the second origin) in the shared tab through navigate; returns its document id. */
  load(file: string, era?: Era): Promise<string>;
  snapshot(args?: Record<string, unknown>, era?: Era): Promise<Snap>;
  snapshotError(args?: Record<string, unknown>, era?: Era): Promise<NonNullable<ToolCall['error']>>;
  /** Shares one more tab showing `file` and returns its page and session id. */
  shareAnother(file: string): Promise<{ page: Page; session: string }>;
  close(): Promise<void>;
}

async function sessionOf(client: Client, marker: string): Promise<string> {
  return until(async () => {
    const r = await call(client, 'list_sessions');
    return (r.structured.sessions as Array<{ id: string; url: string }> | undefined)?.find((s) => s.url.includes(marker))?.id;
  }, 20_000, `a session for ${marker}`);
}

/** Launches `kind`, serves the fixtures twice, shares one tab and waits until it is a session. */
export async function snapshotSession(kind: BrowserKind, routes: Parameters<typeof serveFixtures>[1] = {}): Promise<SnapSession> {
  const [serverA, serverB, rig] = await Promise.all([serveFixtures(SNAPSHOT_FIXTURES, routes), serveFixtures(SNAPSHOT_FIXTURES), launchRig(kind)]);
  const clients = { legacy: await rig.client('legacy', 'snapshot-legacy'), modern: await rig.client('modern', 'snapshot-modern') };
  const url = (file: string) => `${serverA.origin}/${file.replace('{b}', serverB.origin)}`;
  const page = await rig.open(url('basic.html?shared=main'));
  await page.setViewport({ width: 1200, height: 800 });
  await rig.share('shared=main');
  const session = await sessionOf(clients.legacy, 'shared=main');
  const tool = (name: string, args: Record<string, unknown> = {}, era: Era = 'legacy') => call(clients[era], name, { session, ...args });
  return {
    rig,
    a: serverA.origin,
    b: serverB.origin,
    page,
    session,
    clients,
    tool,
    async load(file, era) {
      const r = await tool('navigate', { url: url(file) }, era);
      if (r.isError) throw new Error(`navigate ${file}: ${r.error?.code} ${r.error?.message}`);
      return r.structured.document as string;
    },
    async snapshot(args = {}, era) {
      const r = await tool('snapshot', args, era);
      if (r.isError) throw new Error(`snapshot failed: ${JSON.stringify(r.error)}`);
      // The outline is the text content only; the structured content carries the rest (docs/tools.md, "Results").
      if ('text' in r.structured) throw new Error('snapshot repeated its outline in structuredContent');
      return { ...r.structured, text: r.text } as unknown as Snap;
    },
    async snapshotError(args = {}, era) {
      const r = await tool('snapshot', args, era);
      if (!r.isError || !r.error) throw new Error('snapshot unexpectedly succeeded');
      return r.error;
    },
    async shareAnother(file) {
      const other = await rig.open(url(file));
      await other.setViewport({ width: 1200, height: 800 });
      await rig.share(file);
      return { page: other, session: await sessionOf(clients.legacy, file) };
    },
    async close() {
      await rig.close();
      await Promise.all([serverA.close(), serverB.close()]);
    },
  };
}

/** The outline lines without header and coverage. */
export function body(r: { text: string }): string {
  return r.text.split('\n').slice(1, -1).join('\n');
}

/** Replaces handles by `@h` so expected outlines do not depend on random namespaces. */
export function strip(text: string): string {
  return text.replace(/ @[a-z0-9]{4,16}\.[0-9a-z]+/g, ' @h');
}
