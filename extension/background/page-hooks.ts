// Puts Oriel's page-world script (extension/main/) into the documents of shared tabs, and registers the isolated-world
// content script by host beside it (./inject.ts injects that one by tab; docs/architecture.md, "What a page can
// see"). The one place that decides page-world injection; other modules (a restarted background that shares
// its tabs again) call {@link injectPageHooks} or {@link syncPageHooks}. Two ways in, because browsers let an extension
// run a script before a page's own only for documents picked by URL, never by tab:
// - registered by host: while a tab is shared, documents of its top document's scheme and host (any port; a match
//   pattern has no port in Firefox) load a gated copy at document_start, before any page script. It installs itself
//   only under the tab's mark in session storage (per tab and origin), which this module sets in shared tabs' frames.
// - injected by tab: at sharing, into every frame of the tab, and at each document a shared tab commits that did not
//   start under the mark on a registered host, as early as the browser lets it — usually after the page's first
//   scripts. The script then tells the content script it came late, and agents are told what that cost.
/// <reference types="@crxjs/vite-plugin/client" />
import MAIN_SCRIPT from '../main/index.iife.ts?script&iife';
import GATED_SCRIPT from '../main/gated.iife.ts?script&iife';
import { SHARED_MARK } from '../../shared/page-channel.js';
import { isShared, onSharingChanged, sharedTabIds } from './sharing.js';
import { hostPattern } from './host-pattern.js';
import { bringContentScript, CONTENT_FILE, ensureContentScripts, forgetInjections, injectAtCommit } from './inject.js';
import { bringContentWith } from './frames.js';

/** Id of the registration by host (`scripting.registerContentScripts`) of the page-world script. */
const REGISTRATION = 'oriel-page-world';
/** Id of the registration by host of the isolated-world content script (the same hosts). */
const CONTENT_REGISTRATION = 'oriel-content';
/** Both, unregistered and registered together. */
const REGISTRATIONS = [CONTENT_REGISTRATION, REGISTRATION];

/**
 * Marks tab `tab` shared and injects the page-world script: into frame `frameId` only, or into every frame when
 * omitted. For one frame, `url` (its document's) lets a document that already has the registered copy be skipped.
 * `injectImmediately` asks the browser not to wait for the document to load, without promising to come before page
 * scripts (https://developer.chrome.com/docs/extensions/reference/api/scripting#type-ScriptInjection). A second copy in
 * a document installs nothing (extension/main/hello.ts). Never throws: a closed tab, or a page extensions may not
 * touch, is skipped.
 */
export async function injectPageHooks(tab: number, frameId?: number, url?: string): Promise<void> {
  const target = frameId === undefined ? { tabId: tab, allFrames: true } : { tabId: tab, frameIds: [frameId] };
  const marked = await markShared(target, true);
  // A document that started under the mark, on a registered host, has the page script already, from before its own.
  const pattern = hostPattern(url);
  if (marked && pattern !== undefined && registered?.includes(pattern)) return;
  await chrome.scripting
    .executeScript({
      target,
      world: 'MAIN',
      injectImmediately: true,
      files: [MAIN_SCRIPT],
    })
    .catch(() => undefined);
}

/** The patterns registered now (undefined: not known since this background started). */
let registered: string[] | undefined;
/** When the registration of {@link registered} took effect, ms since the epoch (0: before this background started). */
let registeredAt = 0;
/** Updates run one after another: each reads the shared tabs afresh. */
let queue: Promise<void> = Promise.resolve();

/** Registers the page-world script for the hosts the shared tabs show now (none: unregistered). Resolves when done. */
export function syncPageHooks(): Promise<void> {
  queue = queue.then(applyRegistration, applyRegistration);
  return queue;
}

async function applyRegistration(): Promise<void> {
  const tabs = await Promise.all((await sharedTabIds()).map((id) => chrome.tabs.get(id).catch(() => undefined)));
  const patterns = [...new Set(tabs.map((t) => hostPattern(t?.url)).filter((p): p is string => p !== undefined))].sort();
  if (registered === undefined) {
    const existing = await chrome.scripting.getRegisteredContentScripts({ ids: REGISTRATIONS }).catch(() => []);
    registered = existing.length === REGISTRATIONS.length ? (existing[0]?.matches ?? []) : [];
    if (existing.length === 0 && patterns.length === 0) return;
    if (existing.length > 0) {
      await unregisterAll();
      registered = [];
    }
  }
  if (patterns.join('\n') === registered.join('\n')) return;
  if (registered.length > 0) await unregisterAll();
  registered = [];
  if (patterns.length === 0) return;
  // The content script first, so that it listens before the page script announces itself (extension/main/hello.ts).
  // `matchOriginAsFallback`: also about:blank, srcdoc and blob: frames of these hosts, as a frame of the page.
  registeredAt = Infinity; // a document committing meanwhile may miss the registration
  await chrome.scripting.registerContentScripts([
    { id: CONTENT_REGISTRATION, js: [CONTENT_FILE], matches: patterns, runAt: 'document_start', allFrames: true, matchOriginAsFallback: true, persistAcrossSessions: false },
    { id: REGISTRATION, js: [GATED_SCRIPT], matches: patterns, runAt: 'document_start', allFrames: true, world: 'MAIN', persistAcrossSessions: false },
  ]);
  registered = patterns;
  registeredAt = Date.now();
}

/** Removes both registrations (each on its own, so one missing does not keep the other). */
async function unregisterAll(): Promise<void> {
  await Promise.all(REGISTRATIONS.map((id) => chrome.scripting.unregisterContentScripts({ ids: [id] }).catch(() => undefined)));
}

/**
 * Whether the document at `url`, committed at `committedAt` (ms since the epoch), got the content script from the
 * registration by host, before its own scripts: its host was registered before it committed. Otherwise (about:blank,
 * srcdoc, file:, a host registered since) its frame is injected; a second copy stops (extension/content/once.ts).
 */
function contentRegistered(url: string | undefined, committedAt: number): boolean {
  const pattern = hostPattern(url);
  return pattern !== undefined && registered?.includes(pattern) === true && registeredAt <= committedAt;
}

/**
 * Sets (or removes) the tab's mark in the session storage of the frames of `target`, from the isolated world (which
 * shares the page's storage): the page script registered by host installs itself only under it. Resolves whether the
 * mark was there before in every frame reached. Never throws.
 */
async function markShared(target: chrome.scripting.InjectionTarget, shared: boolean): Promise<boolean> {
  const results = await chrome.scripting
    .executeScript({
      target,
      injectImmediately: true,
      func: (key: string, on: boolean) => {
        try {
          const had = sessionStorage.getItem(key) === '1';
          if (on) sessionStorage.setItem(key, '1');
          else sessionStorage.removeItem(key);
          return had;
        } catch {
          return false; // storage refused: this document gets the page script by tab only
        }
      },
      args: [SHARED_MARK, shared],
    })
    .catch(() => []);
  // Whether every frame reached had the mark already (as its document started, for a frame that just committed).
  return results.length > 0 && results.every((r) => r.result === true);
}

/** Tabs known shared at the last change, to inject only into the newly shared ones. */
let known: Set<number> | undefined;

/** Starts injecting: call once, synchronously at the background's top level (so a woken worker hears the commit). */
export function startPageHooks(): void {
  // A message to a frame of a shared tab that has no content script yet waits for it (./frames.ts sendToFrame).
  bringContentWith(bringContentScript);
  chrome.tabs.onRemoved.addListener(forgetInjections);
  void sharedTabIds().then((ids) => {
    known ??= new Set(ids);
    return syncPageHooks();
  });
  chrome.webNavigation.onCommitted.addListener((details) => {
    if (details.tabId < 0) return;
    void isShared(details.tabId).then(async (shared) => {
      if (!shared) return;
      // A top document on another host: its host is registered for the documents that follow.
      if (details.frameId === 0) void syncPageHooks();
      // The content script first: it must listen when the page script announces itself. Calls reaching the frame
      // meanwhile wait for this injection (./inject.ts).
      if (!contentRegistered(details.url, details.timeStamp)) await injectAtCommit(details);
      else if (details.frameId === 0) forgetInjections(details.tabId);
      await injectPageHooks(details.tabId, details.frameId, details.url);
    });
  });
  // Sharing answers once this is done (./sharing.ts awaits it): a page reloaded right after sharing gets the scripts.
  onSharingChanged(() =>
    sharedTabIds().then(async (now) => {
      const before = known ?? new Set<number>();
      known = new Set(now);
      // Registered first, so that a page reloaded once the tab shows the script has it before its own.
      await syncPageHooks().catch(() => undefined);
      const added = now.filter((tab) => !before.has(tab));
      // Unshared: its frames lose the mark (documents already loaded keep the page script until they unload).
      for (const tab of before) if (!known.has(tab)) void markShared({ tabId: tab, allFrames: true }, false);
      await Promise.all(added.map((tab) => ensureContentScripts(tab).then(() => injectPageHooks(tab)).catch(() => undefined)));
    }),
  );
}
