// Which tabs the user shared (docs/architecture.md, "Sessions"). Kept in storage.session so a service-worker restart
// keeps them and a browser restart forgets them; ./session-mirror.ts keeps them across an extension reload or update. Shared tabs are marked with a badge on the toolbar button; sharing a
// tab grants read and act on the origin it was shared at (./grants.ts).
import type { TabInfo } from '../../shared/protocol.js';
import { shownPage } from './shown-page.js';
import { markShared } from './badge.js';
import { frameOrigin, sendToFrame } from './frames.js';
import { grantsOn, keepTabs, setShareGrant, shareOrigins } from './grants.js';
import { browserSessionReady } from './session-mirror.js';
import { forgetTrail, startTrail } from './ops/nav-trail.js';

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
const listeners = new Set<() => void | Promise<void>>();

async function load(): Promise<Set<number>> {
  if (cache) return cache;
  await browserSessionReady();
  if (cache) return cache;
  const stored = (await chrome.storage.session.get(KEY))[KEY];
  cache = new Set(Array.isArray(stored) ? stored.filter((n): n is number => typeof n === 'number') : []);
  return cache;
}

async function save(set: Set<number>): Promise<void> {
  cache = set;
  await chrome.storage.session.set({ [KEY]: [...set] });
  // Listeners that return a promise (the page hooks' registration by host and the injection into a newly shared tab)
  // are awaited, at most SHARING_SETTLE_MS: a page reloaded right after the person shared its tab then loads with
  // Oriel's page script before its own scripts, as docs/architecture.md "What a page can see" promises.
  const settled = Promise.allSettled([...listeners].map((l) => l()));
  await Promise.race([settled, new Promise((r) => setTimeout(r, SHARING_SETTLE_MS))]);
}

/** Longest wait for sharing's listeners before a share or unshare is answered, ms. */
const SHARING_SETTLE_MS = 5_000;

/** Calls `listener` whenever the shared set changes; a promise it returns is awaited (bounded) before sharing answers. */
export function onSharingChanged(listener: () => void | Promise<void>): void {
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
  await browserSessionReady();
  const stored = (await chrome.storage.session.get(OPENED_KEY))[OPENED_KEY];
  return typeof stored === 'object' && stored !== null ? (stored as Record<string, OpenedBy>) : {};
}

/**
 * Shares or unshares a tab and updates its badge. Sharing grants read and act on the origin the tab shows now (as its
 * top document has it); unsharing ends every grant of the tab's session. `opened` marks a tab shared because a shared
 * tab opened it: it inherits the opener's grant for the opener's origin, and only when sharing granted the opener that
 * origin (an opener that navigated to an origin nobody allowed passes nothing on), so any other asks the person. The
 * person sharing it themselves lifts that. The tab's navigation trail starts at sharing and ends at unsharing.
 */
export async function setShared(tab: number, shared: boolean, opened?: OpenedBy): Promise<void> {
  const map = await openedMap();
  if (shared && opened) map[String(tab)] = opened;
  else delete map[String(tab)];
  await chrome.storage.session.set({ [OPENED_KEY]: map });
  const set = new Set(await load());
  const was = set.has(tab);
  if (shared) set.add(tab);
  else set.delete(tab);
  let origin: string | null | undefined;
  if (!shared) origin = undefined;
  else if (opened) origin = (await shareOrigins(opened.opener)).includes(opened.origin) ? opened.origin : null;
  else origin = await frameOrigin(tab, 0);
  await setShareGrant(tab, origin, shared ? (await chrome.tabs.get(tab).catch(() => undefined))?.title : undefined);
  await save(set);
  // The trail navigate's back and forward follow starts at the page the tab is shared on (./ops/nav-trail.ts); after
  // `save`, so the commits it then records come after its first page.
  if (shared && !was) await startTrail(tab);
  else if (!shared) await forgetTrail(tab);
  await markShared(tab, shared);
}

/** Drops tabs that no longer exist (after a restart), and their grants, and re-applies badges. */
export async function reconcileSharing(): Promise<void> {
  const set = await load();
  const alive = new Set((await chrome.tabs.query({})).map((t) => t.id).filter((id): id is number => id !== undefined));
  const kept = new Set([...set].filter((id) => alive.has(id)));
  if (kept.size !== set.size) await save(kept);
  await keepTabs(kept);
  for (const id of kept) await markShared(id, true);
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
      const by = opened[String(id)];
      // Title and URL only where read is granted on the origin shown now (./shown-page.ts); the grants are that origin's.
      const page = await shownPage(id, t.url ?? '', t.title ?? '');
      out.push({ tab: id, title: page.title, url: page.url, origin: page.origin, active: t.active, grants: await grantsOn(id, page.origin), ...(page.withheld && { withheld: true }), ...(by && { opener: by.opener }) });
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
