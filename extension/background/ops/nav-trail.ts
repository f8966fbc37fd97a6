// The pages a shared tab went through, oldest first, with the one shown now: what `navigate` back and forward move
// along (extension/background/ops/navigate.ts). Every top-level page the tab commits while it is shared is recorded
// (../trail-watch.ts), from the page it was shared on: a link an agent clicked, a page's own script, the person. Not
// the browser's own history: its back skips entries a page added without user activation — Chromium's history
// intervention treats the agent's loads that way — so back after an agent's navigation could land on about:blank.
// Kept in storage.session: it survives a service-worker restart and is gone when the browser closes.

/** One tab's trail: `entries[index]` is the page the tab shows (or is loading for a navigate call). */
export interface NavTrail {
  entries: string[];
  index: number;
  /**
   * A navigate call's load under way: entry `index` holds the page it asked for, and the tab's next top-level commit
   * is that load landing (after any redirect), not a new page.
   */
  landing?: { index: number; url: string };
}

/** How a top-level page came to be shown, as the browser reported it (../trail-watch.ts). */
export type Arrival =
  /** A new document: a link, a form, a script's `location.assign`, the person typing an address. */
  | 'new'
  /** A page that takes the place of the one shown: a client redirect (meta refresh, `location.replace` in Chromium), or
   * the same document at another address (a fragment, `history.pushState` / `replaceState`). */
  | 'replace'
  /** The browser's own back or forward (its `forward_back` qualifier). */
  | 'history';

/** Most pages remembered per tab; older ones are dropped first. */
export const MAX_TRAIL = 50;
const KEY_PREFIX = 'navTrail:';

/** A tab with no trail yet. */
export const EMPTY_TRAIL: NavTrail = { entries: [], index: -1 };

/** Whether `url` is a page navigate can load again (http or https). */
function loadable(url: string | undefined): url is string {
  return url !== undefined && /^https?:/i.test(url);
}

function bounded(entries: string[], index: number): NavTrail {
  const drop = Math.max(0, entries.length - MAX_TRAIL);
  return { entries: entries.slice(drop), index: index - drop };
}

/**
 * The trail after a look at the tab: when it now shows `url` and the trail says otherwise (a move no listener saw),
 * `url` becomes the current entry and anything forward of the old one is dropped, as a browser does with its history.
 * Pages navigate cannot load (about:blank, error pages) are not recorded.
 */
export function observe(trail: NavTrail, url: string | undefined): NavTrail {
  if (!loadable(url) || trail.entries[trail.index] === url) return trail;
  return visit(trail, url);
}

/** The trail after going to a new page `url` (forward entries are dropped; a landing under way is forgotten). */
export function visit(trail: NavTrail, url: string): NavTrail {
  if (!loadable(url)) return trail;
  const entries = [...trail.entries.slice(0, trail.index + 1), url];
  return bounded(entries, entries.length - 1);
}

/** The page `delta` steps away (-1 back, +1 forward), or `undefined` when the trail has none there. */
export function stepTarget(trail: NavTrail, delta: -1 | 1): string | undefined {
  return trail.entries[trail.index + delta];
}

/**
 * The trail as a navigate call starts loading `url`: a step back or forward (`move` -1 or 1) moves along it when that
 * entry still holds `url` (else `url` is a new page), a new page (`visit`) drops forward entries — loading the page
 * shown again is no new entry — and a `reload` keeps the entry. The entry it lands on waits for the tab's commit
 * ({@link committed}), so a redirect replaces it rather than adding a page.
 */
export function begin(trail: NavTrail, move: -1 | 1 | 'visit' | 'reload', url: string | undefined): NavTrail {
  const shown = trail.entries[trail.index];
  if (move === 'reload' || (move === 'visit' && url === shown)) {
    if (shown === undefined) return trail;
    return { entries: trail.entries, index: trail.index, landing: { index: trail.index, url: shown } };
  }
  if (!loadable(url)) return trail;
  if (move !== 'visit' && trail.entries[trail.index + move] === url) {
    const index = trail.index + move;
    return { entries: trail.entries, index, landing: { index, url } };
  }
  const next = visit(trail, url);
  return { ...next, landing: { index: next.index, url } };
}

/**
 * The trail after the tab's top frame committed `url` (or changed its address within the document), arrived as
 * `how` says. A navigate call's landing takes it (its entry becomes where the load ended, after redirects); else a
 * `replace` takes the current entry's place, a `history` move steps to the neighbouring entry that holds `url`, and
 * anything else is a new page ({@link observe}: the page already current is no new entry).
 */
export function committed(trail: NavTrail, url: string, how: Arrival): NavTrail {
  if (!loadable(url)) return trail;
  const { landing } = trail;
  if (landing && landing.index >= 0 && landing.index < trail.entries.length) {
    const entries = [...trail.entries];
    entries[landing.index] = url;
    return { entries, index: landing.index };
  }
  const plain: NavTrail = landing ? { entries: trail.entries, index: trail.index } : trail;
  if (how === 'replace' && plain.index >= 0) {
    if (plain.entries[plain.index] === url) return plain;
    const entries = [...plain.entries];
    entries[plain.index] = url;
    return { entries, index: plain.index };
  }
  if (how === 'history') {
    for (const delta of [-1, 1] as const) if (stepTarget(plain, delta) === url) return { entries: plain.entries, index: plain.index + delta };
  }
  return observe(plain, url);
}

/**
 * The trail once a navigate call's load finished at `url`: its landing, if no commit took it yet (a load within the
 * document, a commit missed), ends there.
 */
export function settled(trail: NavTrail, url: string): NavTrail {
  return trail.landing ? committed(trail, url, 'new') : trail;
}

/**
 * The trail after a navigate call's load failed: `before` (the trail it began from) while its landing is still
 * waiting, the trail as it is when the tab committed a page meanwhile.
 */
export function abandoned(trail: NavTrail, before: NavTrail, landing: NavTrail['landing']): NavTrail {
  const same = trail.landing !== undefined && landing !== undefined && trail.landing.index === landing.index && trail.landing.url === landing.url;
  return same ? before : trail;
}

function parse(value: unknown): NavTrail {
  const v = value as Partial<NavTrail> | undefined;
  if (!v || !Array.isArray(v.entries) || typeof v.index !== 'number') return EMPTY_TRAIL;
  const entries = v.entries.filter((e): e is string => typeof e === 'string');
  const trail: NavTrail = { entries, index: Math.min(Math.max(-1, Math.trunc(v.index)), entries.length - 1) };
  const l = v.landing;
  if (l && typeof l.index === 'number' && typeof l.url === 'string' && l.index >= 0 && l.index < entries.length) trail.landing = { index: l.index, url: l.url };
  return trail;
}

/** The stored trail of `tab` (empty when none). */
export async function readTrail(tab: number): Promise<NavTrail> {
  const key = KEY_PREFIX + tab;
  return parse((await chrome.storage.session.get(key))[key]);
}

/** Stores the trail of `tab`, and drops the trails of tabs that no longer exist. */
async function writeTrail(tab: number, trail: NavTrail): Promise<void> {
  await chrome.storage.session.set({ [KEY_PREFIX + tab]: trail });
  const [stored, tabs] = await Promise.all([chrome.storage.session.get(null), chrome.tabs.query({})]);
  const open = new Set(tabs.map((t) => KEY_PREFIX + t.id));
  const gone = Object.keys(stored).filter((k) => k.startsWith(KEY_PREFIX) && !open.has(k));
  if (gone.length) await chrome.storage.session.remove(gone);
}

/** Each tab's queue of trail updates: the one still running, or last run. */
const queues = new Map<number, Promise<unknown>>();

/** Runs `task` after every update of `tab`'s trail queued before it has settled. */
function queued<T>(tab: number, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(tab) ?? Promise.resolve()).then(task, task);
  const tail = run.catch(() => undefined);
  queues.set(tab, tail);
  void tail.then(() => {
    if (queues.get(tab) === tail) queues.delete(tab);
  });
  return run;
}

/**
 * Updates `tab`'s stored trail with `change` (given the trail as stored, it returns the new one, or the same object
 * for no change) and resolves to the trail as it then is. Updates of one tab run one at a time in the order they were
 * asked for — the navigate op and the commit listener both read, change and write the same storage key — so none is
 * lost. `change` may be async (it runs inside the turn).
 */
export function updateTrail(tab: number, change: (trail: NavTrail) => NavTrail | Promise<NavTrail>): Promise<NavTrail> {
  return queued(tab, async () => {
    const before = await readTrail(tab);
    const after = await change(before);
    if (after !== before) await writeTrail(tab, after);
    return after;
  });
}

/** Forgets `tab`'s trail (the tab was unshared or closed), after any update already queued. */
export function forgetTrail(tab: number): Promise<void> {
  return queued(tab, () => chrome.storage.session.remove(KEY_PREFIX + tab));
}

/**
 * Starts `tab`'s trail afresh at the page it shows, as it becomes shared: pages of an earlier share are forgotten (what
 * the tab did while not shared was never recorded).
 */
export function startTrail(tab: number): Promise<NavTrail> {
  return updateTrail(tab, async () => observe(EMPTY_TRAIL, (await chrome.tabs.get(tab).catch(() => undefined))?.url));
}
