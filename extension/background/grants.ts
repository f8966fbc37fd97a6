// Where the person's consent is kept: remembered rules in storage.local (they survive browser restarts), grants that
// last one session in storage.session (sharing's own grant, exec answers "in this tab"; a browser restart forgets
// them). One writer (this module, in the background), so writes never lose each other. Judged by ../consent/rules.ts.
import { z } from 'zod';
import type { TabGrant } from '../../shared/protocol.js';
import { browserSessionReady } from './session-mirror.js';
import { RuleSchema, SessionGrantSchema, placeMatches, decide, type Rule, type SessionGrant } from '../consent/rules.js';

/** Most remembered rules and session grants kept; the oldest go first beyond these. */
const MAX_RULES = 500;
const MAX_GRANTS = 2000;

const RULES_KEY = 'consentRules';
const GRANTS_KEY = 'consentGrants';

let rules: Promise<Rule[]> | undefined;
let grants: Promise<SessionGrant[]> | undefined;
const listeners = new Set<() => void>();

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && RULES_KEY in changes) rules = undefined;
  else if (area === 'session' && GRANTS_KEY in changes) grants = undefined;
  else return;
  for (const l of listeners) l();
});

/** Calls `listener` after any rule or grant changed (here or in another extension context). */
export function onConsentChanged(listener: () => void): void {
  listeners.add(listener);
}

/** Reads a stored list, keeping the entries that still parse (a damaged entry is dropped, never widened). */
async function readList<T>(area: chrome.storage.StorageArea, key: string, schema: z.ZodType<T>): Promise<T[]> {
  const stored = (await area.get(key))[key];
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The remembered rules, newest last. */
export function loadRules(): Promise<Rule[]> {
  return (rules ??= readList(chrome.storage.local, RULES_KEY, RuleSchema));
}

/** The session grants, newest last. */
export function loadGrants(): Promise<SessionGrant[]> {
  return (grants ??= browserSessionReady().then(() => readList(chrome.storage.session, GRANTS_KEY, SessionGrantSchema)));
}

/** Writes run one after another, each on what the previous one left. */
let writing: Promise<unknown> = Promise.resolve();
function serially<T>(write: () => Promise<T>): Promise<T> {
  const next = writing.then(write, write);
  writing = next.catch(() => undefined);
  return next;
}

async function saveRules(next: Rule[]): Promise<void> {
  const kept = next.slice(-MAX_RULES);
  rules = Promise.resolve(kept);
  await chrome.storage.local.set({ [RULES_KEY]: kept });
}

async function saveGrants(next: SessionGrant[]): Promise<void> {
  const kept = next.slice(-MAX_GRANTS);
  grants = Promise.resolve(kept);
  await chrome.storage.session.set({ [GRANTS_KEY]: kept });
}

/** Remembers `rule`, replacing an older one with the same effect, capability and place. */
export function addRule(rule: Rule): Promise<void> {
  return serially(async () => {
    const same = (r: Rule) => r.effect === rule.effect && r.capability === rule.capability && JSON.stringify(r.place) === JSON.stringify(rule.place);
    await saveRules([...(await loadRules()).filter((r) => !same(r)), rule]);
  });
}

/** Adds a session grant. */
export function addGrant(grant: SessionGrant): Promise<void> {
  return serially(async () => saveGrants([...(await loadGrants()), grant]));
}

/** Revokes the rule or session grant `id`; effective for the next call. Returns whether something was revoked. */
export function revoke(id: string): Promise<boolean> {
  return serially(async () => {
    const r = await loadRules();
    if (r.some((x) => x.id === id)) {
      await saveRules(r.filter((x) => x.id !== id));
      return true;
    }
    const g = await loadGrants();
    if (!g.some((x) => x.id === id)) return false;
    await saveGrants(g.filter((x) => x.id !== id));
    return true;
  });
}

/**
 * Sharing a tab grants read and act on the origin it was shared at (replacing what an earlier share of the tab
 * granted), labelled with the tab's `title` then; `null` shares it with no such grant (every call asks); unsharing or closing it ends every grant of its
 * session (`origin` undefined).
 */
export function setShareGrant(tab: number, origin: string | null | undefined, title?: string): Promise<void> {
  return serially(async () => {
    const kept = (await loadGrants()).filter((g) => g.tab !== tab || (origin !== undefined && g.source !== 'share'));
    const now = Date.now();
    const share = (at: string, capability: 'read' | 'act'): SessionGrant => ({ id: crypto.randomUUID(), tab, origin: at, capability, source: 'share', ...(title !== undefined && { title: title.slice(0, 200) }), created: now });
    await saveGrants(typeof origin === 'string' ? [...kept, share(origin, 'read'), share(origin, 'act')] : kept);
  });
}

/** The origins sharing granted `tab` (read and act there). */
export async function shareOrigins(tab: number): Promise<string[]> {
  return [...new Set((await loadGrants()).filter((g) => g.tab === tab && g.source === 'share').map((g) => g.origin))];
}

/** Drops the session grants of tabs not in `alive` (after a restart of the background). */
export function keepTabs(alive: ReadonlySet<number>): Promise<void> {
  return serially(async () => {
    const all = await loadGrants();
    const kept = all.filter((g) => alive.has(g.tab));
    if (kept.length !== all.length) await saveGrants(kept);
  });
}

/** What applies to `origin` in `tab` now, as list_sessions shows it. */
export async function grantsOn(tab: number, origin: string): Promise<TabGrant[]> {
  const out: TabGrant[] = [];
  for (const g of await loadGrants()) {
    if (g.tab !== tab || g.origin !== origin) continue;
    out.push({ capability: g.capability, effect: 'allow', scope: g.source === 'share' ? 'share' : 'session', ...(g.code !== undefined && { exact_code: true }) });
  }
  for (const r of await loadRules()) {
    if (!placeMatches(r.place, origin)) continue;
    out.push({ capability: r.capability, effect: r.effect, scope: r.place.kind });
  }
  return out.slice(0, 50);
}

/** Judges one need against everything stored (see ../consent/rules.ts decide). */
export async function judge(need: Parameters<typeof decide>[0]): Promise<ReturnType<typeof decide>> {
  return decide(need, await loadRules(), await loadGrants());
}
