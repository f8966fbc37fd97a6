// Files out of the browser, through MCP in real browsers: downloads an agent's click starts in a shared tab (a CSV, a
// PDF, a page's blob: URL, a data: URL) are reported with the click, saved only in the folder the person chose inside
// the downloads folder (collision-safe names), and read back with the downloads tool; with no folder chosen they are
// reported and not saved; the person's own downloads and unshared tabs' stay invisible. One browser per run of the file.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, call, serveFixtures, until, type Rig, type ToolCall } from './harness.js';
import { closeSharedTab, openSharedTab, type SharedTab } from './shared-tab.js';
import { makePdf } from '../support/make-pdf.js';

const CSV = 'date,amount\n2026-01-01,12.50\n2026-01-02,7.25\n';
const PDF = makePdf(['Invoice 4711 for ACME', 'Total due: 99.00 EUR']);
/** Three pages of about 300 characters: a 500-character budget holds one page at a time. */
const STATEMENT = makePdf([1, 2, 3].map((n) => [`Statement page ${n}`, ...Array.from({ length: 6 }, (_, i) => `line ${i + 1}: ${'balance ok '.repeat(4)}`), `end ${n}`].join('\n')));

interface Download {
  id: string;
  file: string;
  mime: string;
  state: string;
  folder?: string;
  origin: string;
  session: string;
}

describe.each(BROWSERS)('downloads in %s', (kind) => {
  let rig: Rig;
  let site: { url: string; origin: string; close(): Promise<void> };
  let client: Client;
  let page: Page;
  let session: string;

  const tool = (name: string, args: Record<string, unknown> = {}): Promise<ToolCall> => call(client, name, args);
  /** Clicks `selector` in the shared tab as the agent, and returns the downloads its result names. */
  const clickDownload = async (selector: string): Promise<Download[]> => {
    const r = await tool('click', { session, selector });
    expect(r.isError, r.error?.message).toBe(false);
    return (r.structured.downloads as Download[] | undefined) ?? [];
  };
  /** The download the agent's click started: from the click's own result, or (started late) from the list. */
  const startedBy = async (selector: string, file: RegExp): Promise<Download> => {
    const known = new Set(((await tool('downloads')).structured.downloads as Download[]).map((d) => d.id));
    const named = (await clickDownload(selector)).find((d) => file.test(d.file));
    if (named) return named;
    return until(async () => ((await tool('downloads')).structured.downloads as Download[]).find((d) => !known.has(d.id) && file.test(d.file)), 10_000, `a download of ${file}`);
  };
  const agentFiles = () => (existsSync(path.join(rig.downloads, 'agents')) ? readdirSync(path.join(rig.downloads, 'agents')).filter((f) => !f.endsWith('.part') && !f.endsWith('.crdownload')).sort() : []);

  let tab: SharedTab | undefined;
  beforeAll(async () => {
    const routes: Parameters<typeof serveFixtures>[1] = {
      '/files/report.csv': (_req, res) => res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' }).end(CSV),
      // A statement only the signed-in person may fetch: the cookie /login sets.
      '/login': (_req, res) => res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'signed_in=yes; Path=/; SameSite=Lax' }).end('<!doctype html><title>Signed in</title><p>Signed in.'),
      '/files/statement.pdf': (req, res) => {
        if (!/(^|;\s*)signed_in=yes(;|$)/.test(req.headers.cookie ?? '')) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('sign in first');
        res.writeHead(200, { 'content-type': 'application/pdf', 'cache-control': 'no-store' }).end(STATEMENT);
      },
      '/files/invoice.pdf': (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="invoice.pdf"' }).end(PDF),
    };
    ({ rig, site, client, page, session } = tab = await openSharedTab(kind, { routes, rig: { profileDownloads: true }, era: 'modern', name: 'downloads', path: 'downloads/page.html?shared' }));
  });
  afterAll(() => closeSharedTab(tab));

  it('reports a download with no folder chosen, and saves nothing for agents', async () => {
    const d = await startedBy('#csv', /^report/);
    const settled = (await tool('downloads', { id: d.id, wait_ms: 10_000 })).structured.download as Download;
    expect(settled).toMatchObject({ state: 'refused', origin: site.origin, session });
    expect(settled.folder).toBeUndefined();
    const read = await tool('downloads', { id: d.id });
    expect(read.isError).toBe(false);
    expect(read.text).toMatch(/not saved: the user chose no folder/);
    expect(agentFiles()).toEqual([]);
    expect(existsSync(rig.downloads) ? readdirSync(rig.downloads).filter((f) => f.startsWith('report')) : []).toEqual([]);
  });

  it('saves CSV, PDF, blob: and data: downloads in the chosen folder and reads each back', async () => {
    const options = await rig.extensionPage('options');
    await options.waitForSelector('#download-folder');
    await options.$eval('#download-folder', (el) => void ((el as HTMLInputElement).value = '../escape'));
    await options.click('#download-form button[type="submit"]');
    await options.waitForFunction(() => document.getElementById('download-result')?.className === 'error', { polling: 50, timeout: 10_000 });
    await options.$eval('#download-folder', (el) => void ((el as HTMLInputElement).value = 'agents'));
    await options.click('#download-form button[type="submit"]');
    await options.waitForFunction(() => document.getElementById('download-result')?.textContent === 'Saved.', { polling: 50, timeout: 10_000 });
    await page.bringToFront();

    const csv = await startedBy('#csv', /^report.*\.csv$/);
    expect(csv).toMatchObject({ folder: 'agents', origin: site.origin, session });

    const csvRead = await tool('downloads', { id: csv.id, wait_ms: 15_000 });
    expect(csvRead.isError, csvRead.error?.message).toBe(false);
    expect(csvRead.structured.content).toMatchObject({ kind: 'text', text: CSV });
    expect(csvRead.text).toContain('2026-01-02,7.25');

    const pdf = await startedBy('#pdf', /^invoice.*\.pdf$/);
    const pdfRead = await tool('downloads', { id: pdf.id, wait_ms: 15_000 });
    expect(pdfRead.isError, pdfRead.error?.message).toBe(false);
    expect(pdfRead.structured.content).toMatchObject({ kind: 'pdf', page_count: 2, pages: [{ page: 1, text: 'Invoice 4711 for ACME' }, { page: 2, text: 'Total due: 99.00 EUR' }] });
    expect(pdfRead.text).toMatch(/--- page 2 of 2 ---\nTotal due: 99\.00 EUR/);

    const blob = await startedBy('#blob', /^notes.*\.json$/);
    const blobRead = await tool('downloads', { id: blob.id, wait_ms: 15_000 });
    expect(blobRead.isError, blobRead.error?.message).toBe(false);
    expect(JSON.parse((blobRead.structured.content as { text: string }).text)).toEqual({ notes: ['first', 'second'], total: 2 });

    const data = await startedBy('#data', /^hello.*\.txt$/);
    const dataRead = await tool('downloads', { id: data.id, wait_ms: 15_000 });
    expect(dataRead.isError, dataRead.error?.message).toBe(false);
    expect((dataRead.structured.content as { text: string }).text).toBe('hello from a data URL');

    // The same name again gets a name of its own: nothing is overwritten.
    const again = await startedBy('#csv', /^report.*\.csv$/);
    expect((await tool('downloads', { id: again.id, wait_ms: 15_000 })).isError).toBe(false);
    await until(() => agentFiles().filter((f) => f.startsWith('report')).length === 2, 10_000, 'two report files');
    expect(agentFiles()).toEqual(expect.arrayContaining(['invoice.pdf', 'notes.json', 'hello.txt', 'report.csv']));
  });

  it('reads a PDF a shared tab shows in the browser\'s viewer as text per page, fetched with the person\'s cookies', async () => {
    const login = await rig.open(`${site.url}/login`);
    await login.close();
    const viewer = await rig.open(`${site.url}/files/statement.pdf`);
    await rig.share('statement.pdf');
    const pdfSession = await until(async () => ((await tool('list_sessions')).structured.sessions as Array<{ id: string; url: string }>).find((s) => s.url.endsWith('/files/statement.pdf'))?.id, 20_000, 'the PDF tab to become a session');
    const first = await tool('snapshot', { session: pdfSession, max_chars: 500 });
    expect(first.isError, first.error?.message).toBe(false);
    expect(first.structured).toMatchObject({ pdf: true, page_count: 3, next_cursor: 'pdf:2', pages: [{ page: 1 }] });
    expect(first.text).toMatch(/--- page 1 of 3 ---\nStatement page 1\nline 1: balance ok[^]*\nend 1\n/);
    const rest = await tool('snapshot', { session: pdfSession, max_chars: 500, cursor: 'pdf:3' });
    expect(rest.structured).toMatchObject({ page_count: 3, pages: [{ page: 3 }] });
    expect(rest.structured.next_cursor).toBeUndefined();
    expect(rest.text).toMatch(/--- page 3 of 3 ---\nStatement page 3\n[^]*\nend 3$/);
    // The page texts are the text content, once: structuredContent says which pages and how long, not their text.
    expect(rest.structured.pages).toEqual([{ page: 3, chars: expect.any(Number) }]);
    await rig.share('statement.pdf', false);
    await viewer.close();
    await page.bringToFront();
  });

  it('never shows agents a download from a tab that is not shared', async () => {
    const before = ((await tool('downloads')).structured.downloads as Download[]).length;
    const other = await rig.open(`${site.url}/downloads/page.html?unshared`);
    await other.click('#csv');
    // The person's download lands in the browser's own folder, not the agents'.
    await until(() => readdirSync(rig.downloads).some((f) => f === 'report.csv'), 15_000, "the person's download to finish");
    expect(((await tool('downloads')).structured.downloads as Download[]).length).toBe(before);
    await other.close();
    await page.bringToFront();
  });
});
