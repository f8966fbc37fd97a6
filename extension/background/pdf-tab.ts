// PDF tabs: a shared tab showing a PDF in the browser's own viewer (no content script runs there) is read by `snapshot`
// as the PDF's bytes, fetched again here with the person's cookies, which the broker turns into text per page
// (broker/mcp/pdf-snapshot.ts). Which tabs show a PDF is learnt from their top document's Content-Type.
import { orielError } from '../../shared/errors.js';
import type { PdfTabValue } from '../../shared/page-answer.js';
import { isGranted } from './pipeline/consent.js';

/** Largest PDF a tab's snapshot reads, bytes (its base64 must fit the result frame to the hub). */
export const PDF_TAB_MAX_BYTES = 5 * 1024 * 1024;

/** Tab → the URL of the PDF its top document is (from the response's Content-Type). */
const pdfTabs = new Map<number, string>();

// https://www.rfc-editor.org/rfc/rfc8118 (application/pdf); the browser shows such a response in its PDF viewer.
chrome.webRequest.onHeadersReceived.addListener(
  (d) => {
    if (d.tabId < 0) return undefined;
    const type = d.responseHeaders?.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
    if (/^\s*application\/pdf\s*(;|$)/i.test(type)) pdfTabs.set(d.tabId, d.url);
    else pdfTabs.delete(d.tabId);
    return undefined;
  },
  { urls: ['http://*/*', 'https://*/*'], types: ['main_frame'] },
  ['responseHeaders'],
);
chrome.tabs.onRemoved.addListener((tab) => pdfTabs.delete(tab));

function withoutFragment(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * The PDF tab `tab` shows, as `{ pdf: { url, data } }` (data in base64), or undefined when it shows no PDF. Reading it
 * needs read on its origin, judged without a prompt (sharing the tab grants it).
 * @throws OrielError `permission_denied` (no read grant on its origin), `too_large` (over {@link PDF_TAB_MAX_BYTES}),
 *   `navigation_failed` (the fetch failed or the server answered with an error).
 */
export async function pdfOfTab(tab: number, signal: AbortSignal): Promise<PdfTabValue | undefined> {
  const url = pdfTabs.get(tab);
  if (!url) return undefined;
  const now = (await chrome.tabs.get(tab).catch(() => undefined))?.url;
  if (!now || withoutFragment(now) !== withoutFragment(url)) return undefined;
  const origin = new URL(url).origin;
  if (!(await isGranted(tab, 'read', origin))) throw orielError('permission_denied', `The user has not allowed reading ${origin}.`, { next: 'ask the user to share the tab again' });
  // The person's cookies go with it, as they went with the tab's own request; the HTTP cache answers when it can.
  const response = await fetch(withoutFragment(url), { credentials: 'include', cache: 'force-cache', signal }).catch(() => {
    throw orielError('navigation_failed', 'The PDF could not be fetched again to read it.');
  });
  if (!response.ok) throw orielError('navigation_failed', `The PDF could not be fetched again to read it (HTTP ${response.status}).`);
  if (Number(response.headers.get('content-length') ?? 0) > PDF_TAB_MAX_BYTES) throw orielError('too_large', `The PDF is over ${PDF_TAB_MAX_BYTES / 1024 / 1024} MiB; its text is not read.`);
  const reader = response.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > PDF_TAB_MAX_BYTES) {
      await reader.cancel();
      throw orielError('too_large', `The PDF is over ${PDF_TAB_MAX_BYTES / 1024 / 1024} MiB; its text is not read.`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { pdf: { url, data: base64(bytes) } };
}
