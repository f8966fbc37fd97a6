// Reading back agents' downloads (broker/mcp/download-read.ts, pdf-text.ts) on real files: text windows that never cut
// a UTF-8 character, PDF text per page with a page cursor, facts only for other types, whole files for resource links,
// and the files it refuses.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toErrorData } from '../../shared/errors.js';
import type { DownloadInfo } from '../../shared/downloads.js';
import { contentKind, readDownload, readDownloadBytes, TEXT_WINDOW_BYTES } from '../../broker/mcp/download-read.js';
import { makePdf } from '../support/make-pdf.js';

let tmp: string;
let folder: string;
const info = (file: string, mime: string, extra: Partial<DownloadInfo> = {}): DownloadInfo => ({
  id: '1',
  tab: 1,
  origin: 'https://shop.example',
  url: `https://shop.example/${file}`,
  file,
  mime,
  state: 'complete',
  bytes: 0,
  started: 0,
  folder: 'agents',
  path: path.join(folder, file),
  ...extra,
});
const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => toErrorData(e).code);

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-downloads-'));
  folder = path.join(tmp, 'agents');
  mkdirSync(folder);
  // "é" is two bytes: placed so that the first window ends in the middle of one.
  writeFileSync(path.join(folder, 'long.csv'), `${'a'.repeat(TEXT_WINDOW_BYTES - 1)}é,tail\n`);
  writeFileSync(path.join(folder, 'doc.pdf'), makePdf(['First page', 'Second page', 'Third page']));
  writeFileSync(path.join(folder, 'photo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(path.join(tmp, 'secret.txt'), 'not for agents');
  symlinkSync(path.join(tmp, 'secret.txt'), path.join(folder, 'link.txt'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('reading a download back', () => {
  it('reads text in windows that end before a cut character, continuing with the cursor', async () => {
    const first = await readDownload(info('long.csv', 'text/csv'), undefined);
    expect(first).toMatchObject({ kind: 'text', offset: 0, next_cursor: String(TEXT_WINDOW_BYTES - 1) });
    expect((first as { text: string }).text).toBe('a'.repeat(TEXT_WINDOW_BYTES - 1));
    const rest = await readDownload(info('long.csv', 'text/csv'), String(TEXT_WINDOW_BYTES - 1));
    expect(rest).toMatchObject({ kind: 'text', text: 'é,tail\n' });
    expect((rest as { next_cursor?: string }).next_cursor).toBeUndefined();
    expect(await code(readDownload(info('long.csv', 'text/csv'), '99999999'))).toBe('invalid_argument');
    expect(await code(readDownload(info('long.csv', 'text/csv'), '-1'))).toBe('invalid_argument');
  });

  it('reads a PDF as text per page from the page the cursor names', async () => {
    expect(await readDownload(info('doc.pdf', 'application/pdf'), undefined)).toMatchObject({
      kind: 'pdf',
      page_count: 3,
      pages: [{ page: 1, text: 'First page' }, { page: 2, text: 'Second page' }, { page: 3, text: 'Third page' }],
    });
    expect(await readDownload(info('doc.pdf', 'application/octet-stream'), '3')).toMatchObject({ pages: [{ page: 3, text: 'Third page' }] });
    expect(await code(readDownload(info('doc.pdf', 'application/pdf'), '4'))).toBe('invalid_argument');
    // Not a PDF at all, though named one.
    expect(await code(readDownload(info('photo.png', 'application/pdf'), undefined))).toBe('invalid_argument');
  });

  it('gives only facts for other types', async () => {
    expect(contentKind({ mime: 'image/png', file: 'photo.png' })).toBe('binary');
    expect(await readDownload(info('photo.png', 'image/png'), undefined)).toEqual({ kind: 'binary', size: 4 });
  });

  it('refuses what is not a finished file directly in the agents\' folder', async () => {
    expect(await code(readDownload(info('link.txt', 'text/plain'), undefined))).toBe('invalid_argument');
    expect(await code(readDownload(info('secret.txt', 'text/plain', { path: path.join(tmp, 'secret.txt') }), undefined))).toBe('invalid_argument');
    expect(await code(readDownload(info('long.csv', 'text/csv', { state: 'in_progress' }), undefined))).toBe('invalid_argument');
    expect(await code(readDownload(info('long.csv', 'text/csv', { state: 'refused', folder: undefined, path: undefined }), undefined))).toBe('invalid_argument');
    expect(await code(readDownload(info('gone.csv', 'text/csv'), undefined))).toBe('invalid_argument');
  });

  it('hands a resource link the whole file, bounded, from the agents\' folder only', async () => {
    expect(await readDownloadBytes(info('photo.png', 'image/png'), 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(await code(readDownloadBytes(info('photo.png', 'image/png'), 3))).toBe('too_large');
    expect(await code(readDownloadBytes(info('link.txt', 'text/plain'), 1024))).toBe('invalid_argument');
    expect(await code(readDownloadBytes(info('long.csv', 'text/csv', { state: 'in_progress' }), 1024 * 1024))).toBe('invalid_argument');
  });
});
