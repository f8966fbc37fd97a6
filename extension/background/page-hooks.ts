// Puts Oriel's page-world script (extension/main/) into the documents of shared tabs, and only there
// (docs/architecture.md, "What a page can see"): into every frame of a tab when it becomes shared, and into each
// document a shared tab commits afterwards, as early as the browser lets an extension. Tabs that are not shared never
// receive it. The one place that decides page-world injection; other modules (a restarted background re-sharing its
// tabs) call {@link injectPageHooks}.
/// <reference types="@crxjs/vite-plugin/client" />
import MAIN_SCRIPT from '../main/index.iife.ts?script&iife';
import { isShared, onSharingChanged, sharedTabIds } from './sharing.js';

/**
 * Injects the page-world script into tab `tab`: into frame `frameId` only, or into every frame (about:blank and
 * srcdoc frames included) when omitted. `injectImmediately` asks the browser not to wait for the document to load:
 * the script then usually runs before the page's first script, but the browser does not promise it
 * (https://developer.chrome.com/docs/extensions/reference/api/scripting#type-ScriptInjection); the script tells the
 * content script when it arrived after page scripts had run, and agents are told what that costs.
 * A second injection into the same document is refused by the script itself (extension/main/index.iife.ts).
 * Never throws: a tab that closed or shows a page extensions may not touch is skipped.
 */
export async function injectPageHooks(tab: number, frameId?: number): Promise<void> {
  await chrome.scripting
    .executeScript({
      target: frameId === undefined ? { tabId: tab, allFrames: true } : { tabId: tab, frameIds: [frameId] },
      world: 'MAIN',
      injectImmediately: true,
      files: [MAIN_SCRIPT],
    })
    .catch(() => undefined);
}

/** Tabs known shared at the last change, to inject only into the newly shared ones. */
let known: Set<number> | undefined;

/** Starts injecting: call once, synchronously at the background's top level (so a woken worker hears the commit). */
export function startPageHooks(): void {
  void sharedTabIds().then((ids) => (known ??= new Set(ids)));
  chrome.webNavigation.onCommitted.addListener((details) => {
    if (details.tabId < 0) return;
    void isShared(details.tabId).then((shared) => (shared ? injectPageHooks(details.tabId, details.frameId) : undefined));
  });
  onSharingChanged(() => {
    void sharedTabIds().then((now) => {
      const before = known ?? new Set<number>();
      known = new Set(now);
      for (const tab of now) if (!before.has(tab)) void injectPageHooks(tab);
    });
  });
}
