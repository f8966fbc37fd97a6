// Puts Oriel's isolated-world content script (extension/content/) into the frames of shared tabs, and only there
// (docs/architecture.md, "What a page can see"). Documents of a host a shared tab shows get it before their own
// scripts from the registration by host (extension/background/page-hooks.ts); this module injects it by tab where
// that did not reach: every frame of a tab at sharing or when its sharing is put back after an extension reload
// (frames that do not answer only), each document a shared tab commits on a host not registered (a cross-origin
// iframe, a navigation elsewhere, about:blank and srcdoc frames), and any frame of a shared tab that a message finds
// without one (a document back from the back/forward cache, one whose injection is still under way): ./frames.ts
// asks {@link bringContentScript} and sends again. An injection is done when the script answers a ping, and there is
// one per document, shared by everyone who waits for it; a second copy in one frame stops at once
// (extension/content/once.ts).
/// <reference types="@crxjs/vite-plugin/client" />
// eslint-disable-next-line no-restricted-imports -- a file name for scripting.*, built by the bundler; no code is imported
import CONTENT_SCRIPT from '../content/index.iife.ts?script&iife';
import { CONTENT_WIRE, type ContentCall } from '../../shared/call.js';
import { orielError } from '../../shared/errors.js';
import { isShared } from './sharing.js';
import { isNobodyListening } from './frames.js';

/** The content script's built file, for `scripting.executeScript` and `scripting.registerContentScripts`. */
export const CONTENT_FILE: string = CONTENT_SCRIPT;

/** How long a frame has to answer the check at sharing, ms; a frame busy in a long script is left alone. */
const ASK_MS = 1_000;
/** How long a message without a deadline of its own waits for the content script to arrive, ms. */
const ARRIVAL_MS = 10_000;
/** Most injections into one document before giving up on it (each but the last was followed by a ping nobody heard). */
const MAX_TRIES = 3;

/** One injection into one document of a frame: the document, and whether the script answers there. */
interface Injection {
  /** The document's id (Chromium's `documentId`), or its URL where the browser gives no id (Firefox). */
  doc: string;
  ready: Promise<boolean>;
  /** What {@link ready} resolved to, once it has. */
  answered?: boolean;
}

/** The latest injection into each frame, by `tab:frame`; a tab's are dropped when its top frame commits or it closes. */
const injections = new Map<string, Injection>();

/** What identifies the document a webNavigation record describes (see {@link Injection.doc}). */
function documentKey(frame: { url: string; documentId?: string }): string {
  return frame.documentId || frame.url; // typed as always there, but Firefox leaves it out
}

/** The message that asks a content script which document it is in: any answer says it listens. */
const PING: ContentCall = { oriel: CONTENT_WIRE, id: 0, op: 'document', args: {} };

/**
 * Injects the content script into frame `frameId` of `tab` (`injectImmediately`: without waiting for the document to
 * load) until it answers a ping. Resolves true once it does — or once the ping fails otherwise than by finding nobody
 * (the document is going away: the caller's own message will say so) — and false when the browser refuses (a frame
 * gone, a page the extension may not touch, an error page) or no script answered after {@link MAX_TRIES} injections.
 * The ping is needed: Chromium can report an injection at a document's commit as done and leave no script there.
 * Never throws.
 */
async function injectUntilReady(tab: number, frameId: number): Promise<boolean> {
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const ran = await chrome.scripting.executeScript({ target: { tabId: tab, frameIds: [frameId] }, files: [CONTENT_FILE], injectImmediately: true }).then(
      () => true,
      () => false,
    );
    if (!ran) return false;
    const heard = await chrome.tabs.sendMessage(tab, PING, { frameId }).then(
      () => true,
      (err: unknown) => !isNobodyListening(err),
    );
    if (heard) return true;
  }
  return false;
}

/**
 * The injection into document `doc` of frame `frameId`: the one under way for that document (so that callers waiting
 * together share it), or, when `reuse` is `answered`, one whose script answered there; else a new one.
 */
function injectOnce(tab: number, frameId: number, doc: string, reuse: 'pending' | 'answered'): Injection {
  const key = `${tab}:${frameId}`;
  const known = injections.get(key);
  if (known && known.doc === doc && (known.answered === undefined || (reuse === 'answered' && known.answered))) return known;
  const injection: Injection = { doc, ready: injectUntilReady(tab, frameId) };
  void injection.ready.then((answered) => (injection.answered = answered));
  injections.set(key, injection);
  return injection;
}

/** Forgets the injections into `tab`'s frames (its top frame committed a new document, or it closed). */
export function forgetInjections(tab: number): void {
  for (const key of injections.keys()) if (key.startsWith(`${tab}:`)) injections.delete(key);
}

/**
 * Injects the content script into the document a shared tab's frame has just committed (`details` of
 * `webNavigation.onCommitted`), and resolves when it answers (false: it cannot, as in an error page). Calls that
 * reach that frame meanwhile wait for this injection rather than start their own. An injection done earlier under the
 * same key does not count: in Firefox the key is the URL, and a reload commits a new document under it.
 */
export function injectAtCommit(details: { tabId: number; frameId: number; url: string; documentId?: string }): Promise<boolean> {
  if (details.frameId === 0) forgetInjections(details.tabId);
  return injectOnce(details.tabId, details.frameId, documentKey(details), 'pending').ready;
}

/**
 * Brings the content script into frame `frameId` of `tab`, for a message that found nobody listening there (nothing
 * received it, so it may be sent again): waits for the injection into the document the frame shows now — the one
 * under way since it committed, or a new one — and resolves true when the script answers. `again`: the script of an
 * injection already waited for did not hear that message, so a new one is made. Resolves false at once when the tab
 * is not shared (Oriel puts nothing into tabs that are not) or the frame is gone, and false when the script cannot
 * be brought (a page extensions may not touch, an error page).
 * @param until When to give up, ms since the epoch (the call's work end); {@link ARRIVAL_MS} from now when undefined.
 * @throws OrielError `timeout` when the script does not answer by then: the page is busy in a long script or
 *   blocked by a dialog.
 */
export async function bringContentScript(tab: number, frameId: number, until: number | undefined, again = false): Promise<boolean> {
  if (!(await isShared(tab))) return false;
  const frame = await chrome.webNavigation.getFrame({ tabId: tab, frameId }).catch(() => null);
  if (!frame) return false;
  const injection = injectOnce(tab, frameId, documentKey(frame), again ? 'pending' : 'answered');
  const ms = Math.max(0, (until ?? Date.now() + ARRIVAL_MS) - Date.now());
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          orielError('timeout', `Oriel's content script did not start in this frame within ${ms} ms: the page may be busy in a long script, or blocked by a dialog (alert, confirm, prompt). Wait for the page, then retry.`, {
            details: { frame: frameId },
          }),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([injection.ready, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a content script answers in frame `frameId` of `tab` (a ping; a late answer counts as one). */
async function answers(tab: number, frameId: number): Promise<boolean> {
  const late = new Promise<true>((r) => setTimeout(() => r(true), ASK_MS));
  const reply = chrome.tabs.sendMessage(tab, PING, { frameId }).then(
    () => true,
    // Only "nobody listening" means the script is missing; a frame going away is left to its next document.
    (err: unknown) => !isNobodyListening(err),
  );
  return Promise.race([reply, late]);
}

/**
 * Injects the content script into each frame of `tab` whose content script does not answer, whether or not the tab
 * is shared yet (sharing calls it first, so the document describes its own origin), and returns how many frames have
 * it now. Frames the extension cannot run in are skipped silently.
 */
export async function ensureContentScripts(tab: number): Promise<number> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId: tab }).catch(() => null)) ?? [];
  const injected = await Promise.all(
    frames.map(async (f) => !(await answers(tab, f.frameId)) && (await injectOnce(tab, f.frameId, documentKey(f), 'pending').ready)),
  );
  return injected.filter(Boolean).length;
}
