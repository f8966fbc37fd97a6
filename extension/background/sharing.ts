// Which tabs the user shared (SPEC §2). Kept in storage.session so a service-worker restart keeps them and a browser
// restart forgets them. Shared tabs are marked with a badge on the toolbar button.
import type { TabInfo } from '../../shared/protocol.js';
import { scrubTabUrl } from './secret-params.js';
import { sendToFrame } from './frames.js';

const KEY = 'sharedTabs';
const OPENED_KEY = 'openedTabs';
/** How long the hello waits for a tab's content script to name its document, ms. */
const DOCUMENT_ASK_MS = 1_000;
let cache: Set<number> | undefined;

/** A tab shared because a shared tab opened it: its opener, and the one origin the share covers (the opener's). */
export interface OpenedBy {
  opener: number;
  origin: string;
}
const listeners = new Set<() => void>();

async function load(): Promise<Set<number>> {
  if (cache) return cache;
  const stored = (await chrome.storage.session.get(KEY))[KEY];
  cache = new Set(Array.isArray(stored) ? stored.filter((n): n is number => typeof n === 'number') : []);
  return cache;
}

async function save(set: Set<number>): Promise<void> {
  cache = set;
  await chrome.storage.session.set({ [KEY]: [...set] });
  for (const l of listeners) l();
}

/** Calls `listener` whenever the shared set changes. */
export function onSharingChanged(listener: () => void): void {
  listeners.add(listener);
}

export async function isShared(tab: number): Promise<boolean> {
  return (await load()).has(tab);
}

export async function sharedTabIds(): Promise<number[]> {
  return [...(await load())];
}

/** Opened-tab records by tab id, kept beside the shared set in storage.session. */
async function openedMap(): Promise<Record<string, OpenedBy>> {
  const stored = (await chrome.storage.session.get(OPENED_KEY))[OPENED_KEY];
  return typeof stored === 'object' && stored !== null ? (stored as Record<string, OpenedBy>) : {};
}

/** Who opened `tab`, when it is shared only as a tab a shared tab opened. */
export async function openedBy(tab: number): Promise<OpenedBy | undefined> {
  return (await openedMap())[String(tab)];
}

/**
 * Shares or unshares a tab and updates its badge. Only http(s) and file pages can be shared. `opened` marks a tab
 * shared because a shared tab opened it (it covers the opener's origin only); the person sharing it themselves lifts that.
 */
export async function setShared(tab: number, shared: boolean, opened?: OpenedBy): Promise<void> {
  const map = await openedMap();
  if (shared && opened) map[String(tab)] = opened;
  else delete map[String(tab)];
  await chrome.storage.session.set({ [OPENED_KEY]: map });
  const set = new Set(await load());
  if (shared) set.add(tab);
  else set.delete(tab);
  await save(set);
  await mark(tab, shared);
}

async function mark(tab: number, shared: boolean): Promise<void> {
  try {
    await chrome.action.setBadgeText({ tabId: tab, text: shared ? 'ON' : '' });
    if (shared) await chrome.action.setBadgeBackgroundColor({ tabId: tab, color: '#1a7f37' });
    await chrome.action.setTitle({ tabId: tab, title: shared ? 'Oriel: this tab is shared with your agents' : 'Oriel' });
  } catch {
    /* the tab closed meanwhile */
  }
}

/** Drops tabs that no longer exist (after a restart) and re-applies badges. */
export async function reconcileSharing(): Promise<void> {
  const set = await load();
  const alive = new Set((await chrome.tabs.query({})).map((t) => t.id).filter((id): id is number => id !== undefined));
  const kept = new Set([...set].filter((id) => alive.has(id)));
  if (kept.size !== set.size) await save(kept);
  for (const id of kept) await mark(id, true);
}

/** The origin of a URL (scheme://host:port), or the opaque "null". */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

/**
 * Describes the shared tabs for the hub; with `documents`, also each top frame's document id (asked of its content
 * script), so a hub that lost the background meanwhile learns which document each tab shows now.
 */
export async function describeSharedTabs(options: { documents?: boolean } = {}): Promise<TabInfo[]> {
  const out: TabInfo[] = [];
  const opened = await openedMap();
  for (const id of await sharedTabIds()) {
    try {
      const t = await chrome.tabs.get(id);
      const url = t.url ?? '';
      const by = opened[String(id)];
      out.push({ tab: id, title: (t.title ?? '').slice(0, 2000), url: (await scrubTabUrl(id, url)).slice(0, 8192), origin: originOf(url), active: t.active, ...(by && { opener: by.opener }) });
    } catch {
      /* closed */
    }
  }
  if (options.documents) {
    await Promise.all(
      out.map(async (t) => {
        // A page busy in a long script must not hold up the hello: its document stays unknown for now.
        const late = new Promise<undefined>((r) => setTimeout(r, DOCUMENT_ASK_MS));
        const reply = await Promise.race([sendToFrame(t.tab, 0, 'document', {}).catch(() => undefined), late]);
        if (reply) t.document = reply.document;
      }),
    );
  }
  return out;
}
