// Reading back a file an agent downloaded (the `downloads` tool): the file the browser reported, opened without
// following a link and only when it is a regular file in the agents' folder; text as a bounded window with a byte
// cursor, PDFs as text per page (./pdf-text.ts), other types as facts only; the whole file for a resource link. Used by context.ts and resources.ts.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { orielError } from '../../shared/errors.js';
import type { DownloadInfo } from '../../shared/downloads.js';
import { pdfPages, type PdfPage } from './pdf-text.js';

/** Most bytes of text one read returns. */
export const TEXT_WINDOW_BYTES = 20_000;
/** Most characters of PDF text one read returns. */
export const PDF_TEXT_CHARS = 20_000;
/** Largest PDF read, bytes. */
export const PDF_MAX_BYTES = 30 * 1024 * 1024;

/** What one read gives: a window of text, PDF pages, or nothing but the facts (`kind: "binary"`). */
export type DownloadContent =
  | { kind: 'text'; text: string; offset: number; size: number; next_cursor?: string }
  | { kind: 'pdf'; pages: PdfPage[]; page_count: number; truncated: boolean; next_cursor?: string }
  | { kind: 'binary'; size: number };

const TEXT_TYPES = /^(text\/|application\/(json|csv|xml|x-ndjson|ld\+json|javascript)|.*\+(json|xml)$)/;
const TEXT_EXTENSIONS = /\.(txt|csv|tsv|json|ndjson|xml|md|log|html?|ics|vcf)$/i;

/** How a download is read: by its MIME type, or its name's extension when the type says nothing. */
export function contentKind(info: Pick<DownloadInfo, 'mime' | 'file'>): DownloadContent['kind'] {
  const mime = info.mime.toLowerCase().split(';')[0]!.trim();
  if (mime === 'application/pdf' || /\.pdf$/i.test(info.file)) return 'pdf';
  if (TEXT_TYPES.test(mime) || TEXT_EXTENSIONS.test(info.file)) return 'text';
  return 'binary';
}

/**
 * Opens the file of a finished download: an absolute path whose folder is the agents' folder it was saved in, no link
 * as its last component, a regular file, opened non-blocking so nothing else can hold the call.
 * @throws OrielError `invalid_argument` (not finished, not saved for agents, gone or not a regular file).
 */
async function openDownload(info: DownloadInfo): Promise<FileHandle> {
  if (info.state !== 'complete') throw orielError('invalid_argument', `The download is ${info.state === 'refused' ? 'refused: the user has chosen no folder for agents\' downloads in Oriel\'s options, so nothing was saved' : info.state.replace('_', ' ')}.`, { next: info.state === 'in_progress' ? 'downloads with wait_ms' : 'ask the user' });
  const p = info.path;
  if (!p || !info.folder || !path.isAbsolute(p) || path.basename(path.dirname(p)) !== info.folder) {
    throw orielError('invalid_argument', 'The download was not saved in the agents\' downloads folder, so it cannot be read.');
  }
  const handle = await open(p, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => {
    throw orielError('invalid_argument', 'The downloaded file is gone (moved or deleted).');
  });
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw orielError('invalid_argument', 'The download is not a regular file.');
  }
  return handle;
}

/**
 * Reads a finished download from `cursor` on: for text, a byte offset (default 0); for a PDF, a page number (default 1).
 * Text is cut at a character boundary; PDF pages come whole while they fit {@link PDF_TEXT_CHARS}.
 * @throws OrielError `invalid_argument` (see {@link openDownload}; a bad cursor), `too_large` (a PDF over
 *   {@link PDF_MAX_BYTES}).
 */
export async function readDownload(info: DownloadInfo, cursor: string | undefined): Promise<DownloadContent> {
  const kind = contentKind(info);
  if (cursor !== undefined && !/^\d{1,12}$/.test(cursor)) throw orielError('invalid_argument', 'cursor must be the next_cursor a previous read returned.');
  const handle = await openDownload(info);
  try {
    const size = (await handle.stat()).size;
    if (kind === 'binary') return { kind, size };
    if (kind === 'pdf') {
      if (size > PDF_MAX_BYTES) throw orielError('too_large', `The PDF is over ${PDF_MAX_BYTES / 1024 / 1024} MiB; its text is not read.`);
      const data = new Uint8Array(size);
      let filled = 0;
      while (filled < size) {
        const { bytesRead } = await handle.read(data, filled, size - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      const read = await pdfPages(data.subarray(0, filled), cursor === undefined ? 1 : Math.max(1, Number(cursor)), PDF_TEXT_CHARS);
      return { kind, pages: read.pages, page_count: read.total, truncated: read.truncated, ...(read.next !== undefined && { next_cursor: String(read.next) }) };
    }
    const offset = cursor === undefined ? 0 : Number(cursor);
    if (offset > size) throw orielError('invalid_argument', `cursor ${offset} is past the end of the file (${size} bytes).`);
    const buffer = Buffer.alloc(Math.min(TEXT_WINDOW_BYTES, size - offset));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
    let end = bytesRead;
    // Stop before a UTF-8 sequence the window cut (RFC 3629 section 3): back over continuation bytes to its lead byte.
    if (offset + end < size) {
      let lead = end - 1;
      while (lead > 0 && end - lead < 4 && (buffer[lead]! & 0xc0) === 0x80) lead--;
      const need = buffer[lead]! >= 0xf0 ? 4 : buffer[lead]! >= 0xe0 ? 3 : buffer[lead]! >= 0xc0 ? 2 : 1;
      if (lead + need > end) end = lead;
    }
    const text = buffer.subarray(0, end).toString('utf8');
    return { kind, text, offset, size, ...(offset + end < size && { next_cursor: String(offset + end) }) };
  } finally {
    await handle.close();
  }
}

/**
 * The whole file of a finished download, for a resource link (./resources.ts): at most `maxBytes`, whatever its type.
 * @throws OrielError `invalid_argument` (see {@link openDownload}), `too_large` (over `maxBytes`).
 */
export async function readDownloadBytes(info: DownloadInfo, maxBytes: number): Promise<Buffer> {
  const handle = await openDownload(info);
  try {
    const size = (await handle.stat()).size;
    if (size > maxBytes) throw orielError('too_large', `The file is ${size} bytes, over the ${maxBytes / 1024 / 1024} MiB one link serves.`, { next: 'read it without as: "link" (text and PDF text come in windows)' });
    const data = Buffer.alloc(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(data, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return data.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
