// The network guard on a shared tab while an agent's call may move it (docs/architecture.md, "Consent": navigation is an
// act on the destination): declarativeNetRequest session rules scoped to the tab block its top-level navigations to
// origins without an act grant before any request leaves — a link the page rewrote, a script's location change, a
// redirect. The rules come from ../consent/nav-rules.ts; the consent stage asks the person beforehand where it can.
import { blockedBy, DENIED, guardRules, lingeringRules, type GuardRule } from '../consent/nav-rules.js';
import { originOf } from '../consent/rules.js';
import { loadGrants, loadRules } from './grants.js';
import { returnFromBlock, topFrameUrl } from './blocked-return.js';

/** A top-level navigation the guard stopped: where to, and whether the person always denies it (else: no grant). */
export interface Blocked {
  origin: string;
  denied: boolean;
}

/** What guards a tab now: its rules, the call that installed them, what they stopped. */
interface Guard {
  rules: GuardRule[];
  token: symbol;
  /** When it was installed (ms since the epoch): a failure the browser reports of an earlier navigation is not its. */
  since: number;
  /** Settles with the first navigation the guard stopped. */
  stopped: Promise<Blocked>;
  stop(blocked: Blocked): void;
  blocked?: Blocked;
}

const guarded = new Map<number, Guard>();
let nextId = 1;

/** Every change to the rules runs after the previous one, so a release never removes rules a later guard added. */
let queue: Promise<unknown> = Promise.resolve();
function serially(work: () => Promise<void>): Promise<void> {
  const next = queue.then(work, work);
  queue = next.catch(() => undefined);
  return next;
}

/** A guarded tab's top frame failed to load a URL: when the guard's rules block it, the guard did it. */
chrome.webNavigation.onErrorOccurred.addListener((d) => {
  const guard = d.frameId === 0 ? guarded.get(d.tabId) : undefined;
  // The browser may report a navigation stopped under an earlier guard after a later call installed its own.
  if (!guard || d.timeStamp < guard.since) return;
  const by = blockedBy(guard.rules, d.url);
  if (by <= 0 || guard.blocked) return;
  guard.blocked = { origin: originOf(d.url), denied: by === DENIED };
  guard.stop(guard.blocked);
});

/** One call's hold on a tab's guard. */
export interface GuardHold {
  /**
   * Ends the call's guard (unless a later call's guard replaced it); resolves once the browser dropped its rules. With
   * `lingerMs`, the blocks of origins the person always denies stay that much longer ({@link lingeringRules}).
   */
  release(lingerMs?: number): Promise<void>;
  /** Settles with the first navigation the guard stopped while this call held it (never, if none). */
  stopped: Promise<Blocked>;
  /** That navigation, once stopped. */
  blocked(): Blocked | undefined;
}

/**
 * Guards `tab` for one call: until released, top-level navigations of the tab — whoever starts them — reach only
 * origins where act is granted now, or `extra` (origins the call itself was allowed, perhaps once). A later guard of
 * the same tab replaces this one.
 * @throws Error when the browser refuses the rules (the call must not go on unguarded).
 */
export async function guardTab(tab: number, extra: readonly string[]): Promise<GuardHold> {
  const token = Symbol('guard');
  const since = Date.now();
  let entry!: Guard;
  await serially(async () => {
    const rules = guardRules(tab, extra, await loadRules(), await loadGrants(), nextId);
    nextId += rules.length;
    const old = guarded.get(tab);
    await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: old?.rules.map((r) => r.id) ?? [], addRules: rules as chrome.declarativeNetRequest.Rule[] });
    let stop!: (blocked: Blocked) => void;
    const stopped = new Promise<Blocked>((resolve) => (stop = resolve));
    entry = { rules, token, since, stopped, stop };
    guarded.set(tab, entry);
  });
  return {
    release: (lingerMs = 0) => (lingerMs > 0 ? linger(tab, token, lingerMs) : unguard(tab, token)),
    stopped: entry.stopped,
    blocked: () => entry.blocked,
  };
}

/** Removes the guard of `tab` if it is still the one `token` installed. */
function unguard(tab: number, token: symbol): Promise<void> {
  return serially(async () => {
    const guard = guarded.get(tab);
    if (guard?.token !== token) return;
    guarded.delete(tab);
    await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: guard.rules.map((r) => r.id) }).catch(() => undefined);
  });
}

/**
 * Narrows the guard of `tab` (if still the one `token` installed) to its always-deny blocks, and removes those after
 * `ms` unless a later call's guard replaced them meanwhile. A navigation they stop meanwhile (a page's delayed
 * redirect, after the call has answered) takes the tab back to the page it showed when the call ended, as a stop during
 * the call does (./blocked-return.ts): no call is there to say so, so the tab itself must not be left on an error page.
 */
function linger(tab: number, token: symbol, ms: number): Promise<void> {
  return serially(async () => {
    const guard = guarded.get(tab);
    if (guard?.token !== token) return;
    const keep = lingeringRules(guard.rules);
    const drop = guard.rules.filter((r) => !keep.includes(r));
    // Where the tab is is read while the rules are dropped (two independent browser calls: one wait).
    const watch = !guard.blocked;
    const [before] = await Promise.all([watch ? topFrameUrl(tab) : undefined, chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: drop.map((r) => r.id) }).catch(() => undefined)]);
    if (watch) {
      void guard.stopped.then((blocked) => {
        if (guarded.get(tab)?.token === token) void returnFromBlock(tab, blocked.origin, before);
      });
    }
    guard.rules = keep;
    if (keep.length === 0) {
      guarded.delete(tab);
      return;
    }
    setTimeout(() => void unguard(tab, token), ms);
  });
}

/**
 * Drops every session rule left from a background that stopped mid-call (session rules outlive it until the browser
 * closes; Oriel uses them for nothing else), so no tab stays guarded.
 */
function clearGuards(): Promise<void> {
  return serially(async () => {
    const left = await chrome.declarativeNetRequest.getSessionRules();
    if (left.length) await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: left.map((r) => r.id) });
    nextId = Math.max(nextId, ...left.map((r) => r.id + 1));
  });
}

// At every start of the background: a guard left by the previous one would hold its tab for the rest of the session.
void clearGuards();
