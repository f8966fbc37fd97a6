// Puts Oriel's content script into the frames of a tab that loaded before this extension was installed, reloaded,
// updated or re-enabled: Chromium runs manifest content scripts only in documents that load afterwards (Firefox
// injects them into open tabs itself, a moment after its background starts, so the Firefox build leaves this to it).
// Only frames that do not answer get it, so no frame runs two copies.
import { CHROMIUM_BUILD } from '../build-target.js';
import { sendToFrame } from './frames.js';

/** How long a frame has to answer the check, ms; a frame busy in a long script is left alone. */
const ASK_MS = 1_000;

/**
 * The isolated-world content script files the manifest declares. The page-world script is left out: a page keeps
 * the one an earlier install of Oriel put there (a second copy would wrap its hooks twice), and a page that never had
 * one gets it at its next load (docs/architecture.md, "Sessions").
 */
function contentFiles(): string[] {
  const scripts = (chrome.runtime.getManifest().content_scripts ?? []) as Array<{ js?: string[]; world?: string }>;
  return scripts.filter((s) => s.world === undefined || s.world === 'ISOLATED').flatMap((s) => s.js ?? []);
}

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
 * Injects the content script into each frame of `tab` whose content script does not answer, and returns how many
 * frames got it (always 0 in the Firefox build). Frames the extension cannot run in (browser pages, other extensions)
 * are skipped silently.
 */
export async function ensureContentScripts(tab: number): Promise<number> {
  if (!CHROMIUM_BUILD) return 0;
  const frames = (await chrome.webNavigation.getAllFrames({ tabId: tab }).catch(() => null)) ?? [];
  const missing: number[] = [];
  await Promise.all(
    frames.map(async (f) => {
      if (!(await answers(tab, f.frameId))) missing.push(f.frameId);
    }),
  );
  const files = contentFiles();
  if (missing.length === 0 || files.length === 0) return 0;
  const injected = await Promise.all(
    missing.map((frameId) =>
      chrome.scripting.executeScript({ target: { tabId: tab, frameIds: [frameId] }, files, injectImmediately: true }).then(
        () => 1,
        () => 0,
      ),
    ),
  );
  return injected.reduce<number>((a, b) => a + b, 0);
}
