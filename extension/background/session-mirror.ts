// Keeps what lasts one browser session (shared tabs, their grants, opened-tab records, secret parameter names) across
// an extension reload, update or disable/enable, which clear storage.session as a browser restart does
// (docs/architecture.md, "Sessions"): every change of those storage.session keys is copied to storage.local, and a
// background that starts on an empty storage.session puts the copy back, keeping only tabs that still exist and still
// show the origin they showed when the copy was made. A browser start (runtime.onStartup) drops the copy instead.
import { originOf } from '../consent/rules.js';

/** The storage.session keys that make up a browser session's sharing (owned by ./sharing.ts, ./grants.ts, ./secret-params.ts). */
const SHARED_KEY = 'sharedTabs';
const MIRRORED = [SHARED_KEY, 'openedTabs', 'consentGrants', 'secretParams'] as const;
/** storage.local prefix of the copies. */
const PREFIX = 'browserSession.';
/** storage.local key of the top-level origin each shared tab showed last: tab id → origin. */
const ORIGINS_KEY = `${PREFIX}origins`;
/** storage.session key present once this storage.session was set up (restored or found fresh). */
const MARK_KEY = 'browserSessionMark';

let browserStarted = false;
/** Tabs put back by {@link restoreBrowserSession} in this background's life. */
let restoredTabs: number[] = [];
let onLateStartup: ((tabs: number[]) => void) | undefined;
/** Serialises writes of the copy, so an older one never lands after a newer one. */
let writing: Promise<unknown> = Promise.resolve();
let ready: Promise<void> | undefined;

function serially(write: () => Promise<unknown>): void {
  writing = writing.then(write, write).catch(() => undefined);
}

async function sharedIds(): Promise<number[]> {
  const stored = (await chrome.storage.session.get(SHARED_KEY))[SHARED_KEY];
  return Array.isArray(stored) ? stored.filter((n): n is number => typeof n === 'number') : [];
}

/** Records the origin each shared tab shows now, the check a restore makes against a reused tab id. */
function recordOrigins(): void {
  serially(async () => {
    const origins: Record<string, string> = {};
    for (const id of await sharedIds()) {
      const tab = await chrome.tabs.get(id).catch(() => undefined);
      if (tab?.url) origins[String(id)] = originOf(tab.url);
    }
    await chrome.storage.local.set({ [ORIGINS_KEY]: origins });
  });
}

/**
 * Starts copying the browser session's keys to storage.local and listens for a browser start. Call once at the top
 * level of the background, so a background woken by runtime.onStartup hears it.
 */
export function watchBrowserSession(): void {
  chrome.runtime.onStartup.addListener(() => {
    browserStarted = true;
    serially(() => chrome.storage.local.remove([...MIRRORED.map((k) => PREFIX + k), ORIGINS_KEY]));
    // The restore ran before the browser told us it had just started: what it put back belonged to the last run.
    if (restoredTabs.length > 0) onLateStartup?.(restoredTabs);
    restoredTabs = [];
  });
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area !== 'session') return;
    for (const key of MIRRORED) {
      const change = changes[key];
      if (!change) continue;
      const value: unknown = change.newValue;
      serially(() => (value === undefined ? chrome.storage.local.remove(PREFIX + key) : chrome.storage.local.set({ [PREFIX + key]: value })));
    }
    if (changes[SHARED_KEY]) recordOrigins();
  });
  chrome.tabs.onUpdated.addListener((tab, change) => {
    if (change.url === undefined) return;
    void sharedIds().then((ids) => (ids.includes(tab) ? recordOrigins() : undefined));
  });
}

/** Keeps only the entries of a by-tab record (or list of `{tab}`) whose tab is in `kept`. */
function keepTabs(key: (typeof MIRRORED)[number], value: unknown, kept: ReadonlySet<number>): unknown {
  if (key === SHARED_KEY) return Array.isArray(value) ? value.filter((t) => kept.has(t as number)) : [];
  if (key === 'consentGrants') return Array.isArray(value) ? value.filter((g) => kept.has((g as { tab?: unknown })?.tab as number)) : [];
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter(([tab]) => kept.has(Number(tab))));
}

async function restore(): Promise<void> {
  if ((await chrome.storage.session.get(MARK_KEY))[MARK_KEY]) return; // the background restarted; nothing was lost
  const local = await chrome.storage.local.get([...MIRRORED.map((k) => PREFIX + k), ORIGINS_KEY]);
  const origins = (local[ORIGINS_KEY] ?? {}) as Record<string, unknown>;
  const shared = local[PREFIX + SHARED_KEY];
  const kept = new Set<number>();
  if (!browserStarted && Array.isArray(shared)) {
    for (const id of shared) {
      if (typeof id !== 'number') continue;
      const tab = await chrome.tabs.get(id).catch(() => undefined);
      // A tab id that is gone, or shows another site than the one recorded, is not the tab that was shared.
      if (tab?.url && typeof origins[String(id)] === 'string' && originOf(tab.url) === origins[String(id)]) kept.add(id);
    }
  }
  const next: Record<string, unknown> = { [MARK_KEY]: true };
  for (const key of MIRRORED) {
    const value = local[PREFIX + key];
    if (value !== undefined && kept.size > 0) next[key] = keepTabs(key, value, kept);
  }
  // The mark goes in the same write: a restart of this background mid-restore does it again from the copy.
  await chrome.storage.session.set(next);
  if (kept.size === 0) serially(() => chrome.storage.local.remove([...MIRRORED.map((k) => PREFIX + k), ORIGINS_KEY]));
  restoredTabs = browserStarted ? [] : [...kept];
}

/**
 * Resolves once storage.session holds this browser session's sharing: at once after a background restart, after
 * the copy was put back after an extension reload, update or re-enable. Every reader of the mirrored keys awaits it.
 */
export function browserSessionReady(): Promise<void> {
  return (ready ??= restore().catch(() => undefined));
}

/** The tabs the last restore put back (their content scripts may need injecting: ./inject.ts). */
export function restoredSharedTabs(): readonly number[] {
  return restoredTabs;
}

/** Calls `undo` with the tabs a restore put back when the browser reports only afterwards that it has just started. */
export function onLateBrowserStart(undo: (tabs: number[]) => void): void {
  onLateStartup = undo;
}
