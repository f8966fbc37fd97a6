// Downloads agents start (docs/tools.md, "downloads"): a download that begins during an agent's acting call in a shared
// tab, from that tab's page, is the agent's; it is saved only in the folder the person chose for agents inside the
// browser's downloads folder (or cancelled when none is chosen) and reported to the hub as `download` events. Every
// other download is the person's and is left alone and unreported. Counterpart: broker/hub/downloads.ts.
import type { PageCall } from '../../shared/call.js';
import { isDownloadFolderName, type DownloadInfo } from '../../shared/downloads.js';
import { CHROMIUM_BUILD } from '../build-target.js';
import { readSettings } from '../settings.js';
import { post } from './native.js';
import { isShared } from './sharing.js';

/** How long after an acting call ends a download it caused may still begin (a response's headers arrive late), ms. */
const LATE_START_MS = 4_000;
/** How long after a call ends a download of unknown origin (data: with no referrer) may still be its doing, ms. */
const UNKNOWN_ORIGIN_MS = 1_000;
/** Longest time from a document response's start to the download it turns into that still ties them, ms. */
const REQUEST_EVIDENCE_MS = 2_000;
/** How long a call's result waits for the verdict on downloads that began during it, ms. */
const VERDICT_WAIT_MS = 1_000;
/** Most downloads followed at once; the oldest are forgotten first. */
const MAX_TRACKED = 200;

type Item = chrome.downloads.DownloadItem;

/** An agent's acting call: the window in which a download in its tab is taken to be its doing. */
interface AgentWindow {
  call: number;
  tab: number;
  started: number;
  ended?: number;
}

/** What became of one browser download. */
type Verdict = { kind: 'person' } | { kind: 'agent'; info: DownloadInfo };

const windows = new Map<number, AgentWindow>();
/** Browser download id → the verdict on it, decided once (onCreated and onDeterminingFilename both ask). */
const verdicts = new Map<number, Promise<Verdict>>();
/** Browser download id → what agents are told about it (the re-started download's id, in Firefox). */
const tracked = new Map<number, DownloadInfo>();

/** Opens the download window of an acting call (anything but a read). Called by the pipeline as the call starts. */
export function agentCallStarted(call: PageCall): void {
  if (call.capability === 'read') return;
  windows.set(call.id, { call: call.id, tab: call.tab, started: Date.now() });
}

/**
 * Closes call `id`'s window (downloads may still begin for {@link LATE_START_MS}) and names the downloads that began
 * during it, once their verdicts are in (waiting at most {@link VERDICT_WAIT_MS}): their ids, for the call's result.
 */
export async function agentCallEnded(id: number): Promise<string[]> {
  const w = windows.get(id);
  if (!w) return [];
  w.ended ??= Date.now();
  const now = Date.now();
  for (const [k, other] of windows) if (other.ended !== undefined && now - other.ended > LATE_START_MS) windows.delete(k);
  const pending = [...verdicts.values()];
  await Promise.race([Promise.allSettled(pending), new Promise((r) => setTimeout(r, VERDICT_WAIT_MS))]);
  return [...tracked.values()].filter((d) => d.call === id).map((d) => d.id);
}

/**
 * The tab that last asked for a URL as a document (a link or form that turns into a download is a navigation request
 * of its tab), recorded only while some agent's window is open: an http(s) download whose response just started in
 * another tab is not the agent's; one whose request was not seen counts only during the call or just after it.
 */
const requested = new Map<string, { tab: number; at: number }>();
const MAX_REQUESTS = 200;

function anyWindowOpen(now: number): boolean {
  for (const w of windows.values()) if (w.ended === undefined || now - w.ended <= LATE_START_MS) return true;
  return false;
}

function noteRequest(d: { tabId: number; url: string }): undefined {
  const now = Date.now();
  if (d.tabId < 0 || !anyWindowOpen(now)) return undefined;
  requested.delete(d.url);
  requested.set(d.url, { tab: d.tabId, at: now });
  while (requested.size > MAX_REQUESTS) requested.delete(requested.keys().next().value!);
  return undefined;
}
const DOCUMENT_REQUESTS: chrome.webRequest.RequestFilter = { urls: ['http://*/*', 'https://*/*'], types: ['main_frame', 'sub_frame'] };
// Noted when the request leaves and again when its response starts, just before the browser turns it into a download.
chrome.webRequest.onBeforeRequest.addListener(noteRequest, DOCUMENT_REQUESTS);
chrome.webRequest.onResponseStarted.addListener(noteRequest, DOCUMENT_REQUESTS);

/** The origin a download came from: the page that asked for it, a blob's own origin, or the file's. */
function sourceOrigin(item: Item): string | undefined {
  try {
    if (item.referrer) return new URL(item.referrer).origin;
    if (item.url.startsWith('blob:')) return new URL(item.url.slice(5)).origin;
    if (/^https?:/.test(item.url)) return new URL(item.url).origin;
  } catch {
    /* an unparsable address names no origin */
  }
  return undefined;
}

/** The origins of the documents a tab shows now. */
async function tabOrigins(tab: number): Promise<Set<string>> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId: tab }).catch(() => null)) ?? [];
  const out = new Set<string>();
  for (const f of frames) {
    try {
      out.add(new URL(f.url).origin);
    } catch {
      /* about:blank and the like */
    }
  }
  return out;
}

/**
 * The agent's window a new download belongs to: open now (or closed less than {@link LATE_START_MS} ago), in a tab
 * that is still shared and shows a document of the download's origin; the latest such call wins. A download whose
 * origin cannot be told (a data: URL with no referrer) belongs to the latest call still running or just ended
 * ({@link UNKNOWN_ORIGIN_MS}) in a shared tab.
 */
async function windowOf(item: Item): Promise<{ w: AgentWindow; origin: string } | undefined> {
  const now = Date.now();
  const open = [...windows.values()].filter((w) => w.ended === undefined || now - w.ended <= LATE_START_MS).sort((a, b) => b.started - a.started);
  const origin = sourceOrigin(item);
  const seen = requested.get(item.url);
  // What the browser saw of the file's request is evidence only when its response started just before the download.
  const asked = seen && now - seen.at <= REQUEST_EVIDENCE_MS ? seen : undefined;
  const http = /^https?:/i.test(item.url);
  for (const w of open) {
    if (asked && asked.tab !== w.tab) continue;
    // An http(s) file whose request was not seen from the agent's tab counts only during the call or just after it.
    if (http && !asked && w.ended !== undefined && now - w.ended > UNKNOWN_ORIGIN_MS) continue;
    if (!(await isShared(w.tab))) continue;
    const origins = await tabOrigins(w.tab);
    if (origin !== undefined && origins.has(origin)) return { w, origin };
    if (origin === undefined && (w.ended === undefined || now - w.ended <= UNKNOWN_ORIGIN_MS)) {
      const top = (await chrome.tabs.get(w.tab).catch(() => undefined))?.url;
      return { w, origin: top ? new URL(top).origin : 'null' };
    }
  }
  return undefined;
}

function baseName(p: string): string {
  const name = p.split(/[\\/]/).pop() ?? '';
  return name.replace(/^\.+/, '').slice(0, 200) || 'download';
}

function report(info: DownloadInfo): void {
  tracked.set(Number(info.id), info);
  while (tracked.size > MAX_TRACKED) tracked.delete(tracked.keys().next().value!);
  post({ t: 'event', event: { kind: 'download', download: info } });
}

/** Facts of `item` over those known already. */
function infoFrom(base: DownloadInfo, item: Item): DownloadInfo {
  const state = item.state === 'complete' ? 'complete' : item.state === 'interrupted' ? 'interrupted' : 'in_progress';
  const total = item.totalBytes > 0 ? item.totalBytes : item.fileSize > 0 ? item.fileSize : undefined;
  return {
    ...base,
    id: String(item.id),
    state,
    bytes: Math.max(0, item.bytesReceived),
    ...(total !== undefined && { total }),
    ...(item.mime && { mime: item.mime.slice(0, 200) }),
    ...(item.filename && { file: baseName(item.filename), path: item.filename }),
    ...(item.error && { error: String(item.error).slice(0, 200) }),
  };
}

/** Removes the person's copy of a download Oriel takes over or refuses: cancelled, its file deleted, its entry erased. */
async function discard(id: number): Promise<void> {
  await chrome.downloads.cancel(id).catch(() => undefined);
  const [item] = await chrome.downloads.search({ id }).catch(() => [] as Item[]);
  if (item?.state === 'complete') await chrome.downloads.removeFile(id).catch(() => undefined);
  await chrome.downloads.erase({ id }).catch(() => undefined);
}

/** Decides once whether `item` is an agent's download; for an agent's, reports it and takes it where it must go. */
function verdictOn(item: Item): Promise<Verdict> {
  let v = verdicts.get(item.id);
  if (!v) {
    v = decide(item);
    verdicts.set(item.id, v);
    while (verdicts.size > MAX_TRACKED) verdicts.delete(verdicts.keys().next().value!);
  }
  return v;
}

async function decide(item: Item): Promise<Verdict> {
  // Oriel's own re-started downloads (Firefox) are reported by restart(); the extension's pages' own are the person's.
  if (item.byExtensionId === chrome.runtime.id) return { kind: 'person' };
  const found = await windowOf(item);
  if (!found) return { kind: 'person' };
  const settings = await readSettings().catch(() => undefined);
  const folder = settings && isDownloadFolderName(settings.downloadFolder) ? settings.downloadFolder : undefined;
  const info: DownloadInfo = {
    id: String(item.id),
    tab: found.w.tab,
    call: found.w.call,
    origin: found.origin,
    url: item.url.slice(0, 2000),
    file: baseName(item.filename || item.url),
    mime: (item.mime || 'application/octet-stream').slice(0, 200),
    state: 'in_progress',
    bytes: 0,
    started: Date.now(),
    ...(folder !== undefined && { folder }),
  };
  if (folder === undefined) {
    await discard(item.id);
    report({ ...info, state: 'refused', error: 'no_folder' });
    return { kind: 'agent', info };
  }
  if (!CHROMIUM_BUILD) return { kind: 'agent', info: await restart(item, info, folder) };
  report(info);
  return { kind: 'agent', info };
}

/**
 * Firefox has no `onDeterminingFilename`: the download is cancelled and started again by Oriel with a name inside the
 * agents' folder (`downloads.download`, a path relative to the downloads folder, `conflictAction: "uniquify"`). The
 * file is fetched again (with the person's cookies); a page's blob: URL is read in the tab and a data: URL decoded,
 * since the browser fetches neither for an extension.
 */
async function restart(item: Item, info: DownloadInfo, folder: string): Promise<DownloadInfo> {
  await discard(item.id);
  const filename = `${folder}/${baseName(item.filename || item.url)}`;
  let objectUrl: string | undefined;
  try {
    let url = item.url;
    if (url.startsWith('blob:')) {
      // The browser will not fetch a page's blob: URL for an extension; the tab's own content-script world can.
      const bytes = await blobFromTab(info.tab, url, item.mime);
      url = objectUrl = URL.createObjectURL(bytes);
    } else if (url.startsWith('data:')) {
      // Nor a data: URL: its bytes are in the URL itself.
      url = objectUrl = URL.createObjectURL(await (await fetch(url)).blob());
    }
    const id = await chrome.downloads.download({ url, filename, conflictAction: 'uniquify', saveAs: false });
    const moved = { ...info, id: String(id) };
    const [now] = await chrome.downloads.search({ id });
    const out = now ? infoFrom(moved, now) : moved;
    report(out);
    return out;
  } catch (err) {
    const out: DownloadInfo = { ...info, state: 'interrupted', error: `could not save it in the agents' folder: ${err instanceof Error ? err.message : String(err)}`.slice(0, 200) };
    report(out);
    return out;
  } finally {
    // The download holds its own reference to the bytes once it has started.
    if (objectUrl) setTimeout(() => URL.revokeObjectURL(objectUrl!), 60_000);
  }
}

/** Largest blob: download read through the tab, bytes. */
const MAX_BLOB_BYTES = 30 * 1024 * 1024;

/**
 * Reads a page's blob: URL in tab `tab`'s frames (the isolated world, which the page cannot see), bounded.
 * @throws Error when no frame of the tab can read it, or it is over {@link MAX_BLOB_BYTES}.
 */
async function blobFromTab(tab: number, url: string, mime: string): Promise<Blob> {
  const results = await chrome.scripting.executeScript({
    target: { tabId: tab, allFrames: true },
    func: async (blobUrl: string, max: number) => {
      try {
        const b = await (await fetch(blobUrl)).blob();
        if (b.size > max) return 'too large';
        return Array.from(new Uint8Array(await b.arrayBuffer()));
      } catch {
        return null;
      }
    },
    args: [url, MAX_BLOB_BYTES],
  });
  const got = results.map((r) => r.result as unknown).find((r) => r !== null && r !== undefined);
  if (got === 'too large') throw new Error(`the file is over ${MAX_BLOB_BYTES / 1024 / 1024} MiB`);
  if (!Array.isArray(got)) throw new Error('the page\'s file could not be read');
  return new Blob([new Uint8Array(got as number[])], { type: mime || 'application/octet-stream' });
}

chrome.downloads.onCreated.addListener((item) => void verdictOn(item));

chrome.downloads.onChanged.addListener((delta) => {
  const known = tracked.get(delta.id);
  if (!known || known.state === 'refused') return;
  void chrome.downloads.search({ id: delta.id }).then(([item]) => {
    if (item) report(infoFrom(tracked.get(delta.id) ?? known, item));
  });
});

// Chromium asks every extension for a download's name before it is written; only an agent's download is renamed into
// the agents' folder ("uniquify": a name already there gets " (1)" and so on). https://developer.chrome.com/docs/extensions/reference/api/downloads#event-onDeterminingFilename
if (CHROMIUM_BUILD) {
  chrome.downloads.onDeterminingFilename.addListener((item, suggest) => {
    void verdictOn(item).then(
      (v) => {
        if (v.kind === 'agent' && v.info.folder !== undefined && v.info.state !== 'refused') suggest({ filename: `${v.info.folder}/${baseName(item.filename)}`, conflictAction: 'uniquify' });
        else suggest();
      },
      () => suggest(),
    );
    return true;
  });
}
