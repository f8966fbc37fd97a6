// Puts Oriel's isolated-world content script (extension/content/) into the frames of shared tabs, and only there
// (docs/architecture.md, "What a page can see"). Documents of a host a shared tab shows get it before their own
// scripts from the registration by host (extension/background/page-hooks.ts); this module injects it by tab where
// that did not reach: every frame of a tab at sharing or when its sharing is put back after an extension reload
// (frames that do not answer only), and each document a shared tab commits on a host not registered (a cross-origin
// iframe, a navigation elsewhere, about:blank and srcdoc frames). A second copy in one frame stops at once
// (extension/content/once.ts).
/// <reference types="@crxjs/vite-plugin/client" />
// eslint-disable-next-line no-restricted-imports -- a file name for scripting.*, built by the bundler; no code is imported
import CONTENT_SCRIPT from '../content/index.iife.ts?script&iife';
import { sendToFrame } from './frames.js';

/** The content script's built file, for `scripting.executeScript` and `scripting.registerContentScripts`. */
export const CONTENT_FILE: string = CONTENT_SCRIPT;

/** How long a frame has to answer the check, ms; a frame busy in a long script is left alone. */
const ASK_MS = 1_000;

/** Whether the content script of `frameId` in `tab` answers (a `document` call). */
async function answers(tab: number, frameId: number): Promise<boolean> {
  const late = new Promise<true>((r) => setTimeout(() => r(true), ASK_MS));
  const reply = sendToFrame(tab, frameId, 'document', {}).then(
    () => true,
    // An answer that is an error is still an answer; only "nobody there" means the script is missing.
    (err: unknown) => !/cannot be reached/.test(err instanceof Error ? err.message : String(err)),
  );
  return Promise.race([reply, late]);
}

/**
 * Injects the content script into frame `frameId` of `tab` (`injectImmediately`: without waiting for the document to
 * load). Resolves true when the browser ran it; false for a frame gone or one the extension may not touch (browser
 * pages, other extensions). Never throws.
 */
export function injectContentScript(tab: number, frameId: number): Promise<boolean> {
  return chrome.scripting
    .executeScript({ target: { tabId: tab, frameIds: [frameId] }, files: [CONTENT_FILE], injectImmediately: true })
    .then(
      () => true,
      () => false,
    );
}

/**
 * Injects the content script into each frame of `tab` whose content script does not answer, and returns how many
 * frames got it. Frames the extension cannot run in are skipped silently.
 */
export async function ensureContentScripts(tab: number): Promise<number> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId: tab }).catch(() => null)) ?? [];
  const missing: number[] = [];
  await Promise.all(
    frames.map(async (f) => {
      if (!(await answers(tab, f.frameId))) missing.push(f.frameId);
    }),
  );
  const injected = await Promise.all(missing.map((frameId) => injectContentScript(tab, frameId)));
  return injected.filter(Boolean).length;
}
