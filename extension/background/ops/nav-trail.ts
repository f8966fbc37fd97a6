// The pages agents went through in each shared tab, oldest first, with the one shown now: what `navigate` back and
// forward move along (extension/background/ops/navigate.ts). The browser's own back skips entries a page added without
// user activation — Chromium's history intervention treats the agent's loads that way — so back after an agent's
// navigation could land on about:blank. Kept in storage.session: it survives a service-worker restart and is gone
// when the browser closes.

/** One tab's trail: `entries[index]` is the page the tab showed at the last look. */
export interface NavTrail {
  entries: string[];
  index: number;
}

/** Most pages remembered per tab; older ones are dropped first. */
export const MAX_TRAIL = 50;
const KEY_PREFIX = 'navTrail:';

/** Whether `url` is a page navigate can load again (http or https). */
function loadable(url: string | undefined): url is string {
  return url !== undefined && /^https?:/i.test(url);
}

function bounded(entries: string[], index: number): NavTrail {
  const drop = Math.max(0, entries.length - MAX_TRAIL);
  return { entries: entries.slice(drop), index: index - drop };
}

/**
 * The trail after a look at the tab: when it now shows `url` and the trail says otherwise (a click, the user, a
 * script moved it), `url` becomes the current entry and anything forward of the old one is dropped, as a browser
 * does with its history. Pages navigate cannot load (about:blank, error pages) are not recorded.
 */
export function observe(trail: NavTrail, url: string | undefined): NavTrail {
  if (!loadable(url) || trail.entries[trail.index] === url) return trail;
  return visit(trail, url);
}

/** The trail after going to a new page `url` (forward entries are dropped). */
export function visit(trail: NavTrail, url: string): NavTrail {
  if (!loadable(url)) return trail;
  const entries = [...trail.entries.slice(0, trail.index + 1), url];
  return bounded(entries, entries.length - 1);
}

/** The page `delta` steps away (-1 back, +1 forward), or `undefined` when the trail has none there. */
export function stepTarget(trail: NavTrail, delta: -1 | 1): string | undefined {
  return trail.entries[trail.index + delta];
}

/** The trail after moving `delta` steps and landing on `landed` (which differs from the entry after a redirect). */
export function stepped(trail: NavTrail, delta: -1 | 1, landed: string): NavTrail {
  const index = trail.index + delta;
  if (index < 0 || index >= trail.entries.length) return trail;
  const entries = [...trail.entries];
  if (loadable(landed)) entries[index] = landed;
  return { entries, index };
}

function parse(value: unknown): NavTrail {
  const v = value as Partial<NavTrail> | undefined;
  if (!v || !Array.isArray(v.entries) || typeof v.index !== 'number') return { entries: [], index: -1 };
  const entries = v.entries.filter((e): e is string => typeof e === 'string');
  return { entries, index: Math.min(Math.max(-1, Math.trunc(v.index)), entries.length - 1) };
}

/** The stored trail of `tab` (empty when none). */
export async function readTrail(tab: number): Promise<NavTrail> {
  const key = KEY_PREFIX + tab;
  return parse((await chrome.storage.session.get(key))[key]);
}

/** Stores the trail of `tab`, and drops the trails of tabs that no longer exist. */
export async function writeTrail(tab: number, trail: NavTrail): Promise<void> {
  await chrome.storage.session.set({ [KEY_PREFIX + tab]: trail });
  const [stored, tabs] = await Promise.all([chrome.storage.session.get(null), chrome.tabs.query({})]);
  const open = new Set(tabs.map((t) => KEY_PREFIX + t.id));
  const gone = Object.keys(stored).filter((k) => k.startsWith(KEY_PREFIX) && !open.has(k));
  if (gone.length) await chrome.storage.session.remove(gone);
}
