// The text of a PDF, page by page, with Mozilla's PDF.js (pdfjs-dist) run in the hub: used for downloaded PDFs and PDF
// tabs (broker/mcp/tools/downloads.ts, broker/mcp/tools/pdf.ts). Text only: nothing is rendered, no script runs.
import { orielError } from '../../shared/errors.js';

/** One page's text. `page` is 1-based, as PDF viewers number them. */
export interface PdfPage {
  page: number;
  text: string;
}

/** Pages read from `from` on: as many whole pages as fit the budget (at least one, cut if it alone is over). */
export interface PdfPages {
  pages: PdfPage[];
  /** Pages in the document. */
  total: number;
  /** The first page not returned, when pages are left. */
  next?: number;
  /** True when the one page returned was cut at the budget. */
  truncated: boolean;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let loaded: Promise<PdfJs> | undefined;

/**
 * Loads PDF.js once. Its display module builds a `DOMMatrix` when it loads, which Node lacks and text extraction never
 * uses: an empty stand-in is given only when none exists. The worker runs in this thread (`globalThis.pdfjsWorker`,
 * PDF.js's documented fake-worker hook), so the bundled CLI needs no worker file beside it.
 */
function pdfjs(): Promise<PdfJs> {
  loaded ??= (async () => {
    const g = globalThis as { DOMMatrix?: unknown; pdfjsWorker?: unknown };
    g.DOMMatrix ??= class {};
    g.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  // A failed load is not kept: the next PDF tries again.
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

/**
 * Loads PDF.js ahead of the first PDF, in the background. The CLI loads it from a chunk beside its bundle
 * (scripts/build.ts) only when first needed; a hub runs for days, and an upgrade or rebuild meanwhile replaces those
 * chunks, so the hub loads it soon after it starts instead. Never throws.
 */
export function preloadPdfjs(): void {
  pdfjs().catch(() => undefined);
}

/**
 * The text of `data`'s pages from page `from` (1-based) on, within `budget` characters. Lines follow the PDF's own
 * end-of-line marks (PDF.js `hasEOL`); runs on one line are joined as PDF.js orders them.
 * @throws OrielError `invalid_argument` (not a PDF PDF.js can open, or `from` past the last page; a password-protected
 *   one included).
 */
export async function pdfPages(data: Uint8Array, from: number, budget: number): Promise<PdfPages> {
  const lib = await pdfjs();
  // PDF.js takes a plain Uint8Array (not a Node Buffer) and may detach it: it gets its own copy.
  const task = lib.getDocument({ data: new Uint8Array(data), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false, verbosity: 0 });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => undefined);
    const locked = err instanceof Error && err.name === 'PasswordException';
    throw orielError('invalid_argument', locked ? 'The PDF is protected by a password; its text cannot be read.' : 'The file is not a PDF that can be read.');
  }
  try {
    const total = doc.numPages;
    if (from > total) throw orielError('invalid_argument', `The PDF has ${total} page${total === 1 ? '' : 's'}; there is no page ${from}.`);
    const pages: PdfPage[] = [];
    let used = 0;
    let truncated = false;
    let page = from;
    for (; page <= total; page++) {
      const content = await (await doc.getPage(page)).getTextContent();
      let text = '';
      for (const item of content.items) if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      text = text.trim();
      if (pages.length > 0 && used + text.length > budget) break;
      if (text.length > budget) {
        text = text.slice(0, budget);
        truncated = true;
      }
      pages.push({ page, text });
      used += text.length;
      if (truncated) {
        page++;
        break;
      }
    }
    return { pages, total, truncated, ...(page <= total && { next: page }) };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
