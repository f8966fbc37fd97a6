// The network rules that keep an agent's call from taking a shared tab to an origin without an act grant (docs/
// architecture.md, "Consent"): the person's consent turned into declarativeNetRequest session rules for one tab.
// Pure data; extension/background/nav-guard.ts installs them.
import { canonicalHost, covers, isRememberable, type Place, type Rule, type SessionGrant } from './rules.js';

/**
 * A declarativeNetRequest rule, as far as Oriel uses it
 * (https://developer.chrome.com/docs/extensions/reference/api/declarativeNetRequest#type-Rule): top-level
 * navigations (`main_frame`) of one tab, matched by an RE2-compatible regular expression on the URL.
 */
export interface GuardRule {
  id: number;
  priority: number;
  action: { type: 'block' | 'allow' };
  condition: { tabIds: number[]; resourceTypes: ['main_frame']; regexFilter?: string };
}

/** Priorities: a remembered denial wins over every allowance, which wins over the default block. */
const BLOCK_ALL = 1;
const ALLOW = 2;
const DENY = 3;

/** Most allowances turned into rules; past it, the rest are left out (those navigations are blocked: the safe side). */
export const MAX_ALLOWED = 200;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The regular expression a URL of `place` matches: the origin followed by `/` (the browser canonicalises URLs, so a
 * default port is absent and the host is lower case), the host with or without its trailing dot (rules.ts
 * canonicalHost); a host with any port or none. Anchored so that credentials
 * (`http://a.example:1@b.example/`) or a longer host never pass for the place.
 */
export function placePattern(place: Place): string | undefined {
  if (place.kind === 'any') return '^https?://';
  if (place.kind === 'origin') {
    if (!isRememberable(place.origin)) return undefined;
    const url = new URL(place.origin);
    return `^${url.protocol}//${escapeRegex(canonicalHost(url.hostname))}\\.?${url.port ? `:${url.port}` : ''}/`;
  }
  return `^${place.scheme}://${escapeRegex(canonicalHost(place.host))}\\.?(:[0-9]+)?/`;
}

/**
 * The rules for `tab` while an agent's call runs there: block every top-level navigation, except to origins where act
 * is granted (sharing, a session grant, a remembered allowance) or that the call itself was allowed (`extra`: the
 * origin it acts on, the destination the person allowed), and block the origins the person always denies whatever
 * else holds. Rule ids are `firstId` onward.
 */
export function guardRules(tab: number, extra: readonly string[], rules: readonly Rule[], grants: readonly SessionGrant[], firstId: number): GuardRule[] {
  const out: GuardRule[] = [];
  const add = (priority: number, type: 'block' | 'allow', regexFilter?: string) =>
    out.push({ id: firstId + out.length, priority, action: { type }, condition: { tabIds: [tab], resourceTypes: ['main_frame'], ...(regexFilter !== undefined && { regexFilter }) } });
  const allowed = new Set<string>();
  for (const origin of extra) {
    const p = placePattern({ kind: 'origin', origin });
    if (p) allowed.add(p);
  }
  for (const g of grants) {
    if (g.tab !== tab || g.code !== undefined || !covers(g.capability, 'act')) continue;
    const p = placePattern({ kind: 'origin', origin: g.origin });
    if (p) allowed.add(p);
  }
  for (const r of rules) {
    if (r.effect !== 'allow' || !covers(r.capability, 'act')) continue;
    const p = placePattern(r.place);
    if (p) allowed.add(p);
  }
  if (!allowed.has('^https?://')) {
    add(BLOCK_ALL, 'block');
    for (const p of [...allowed].slice(0, MAX_ALLOWED)) add(ALLOW, 'allow', p);
  }
  // A denial of read or act covers act (../consent/rules.ts decide); one of exec alone does not.
  for (const r of rules) {
    if (r.effect !== 'deny' || !covers('act', r.capability)) continue;
    const p = placePattern(r.place);
    if (p) add(DENY, 'block', p);
  }
  return out;
}

/**
 * Whether `rules` block a top-level navigation to `url`, as the browser decides it: the matching rule of highest
 * priority acts, and an allow wins a tie
 * (https://developer.chrome.com/docs/extensions/reference/api/declarativeNetRequest#matching-algorithm).
 * Returns the deciding rule's priority (3: the person always denies it), or 0 when the navigation passes.
 */
export function blockedBy(rules: readonly GuardRule[], url: string): number {
  let best: GuardRule | undefined;
  for (const r of rules) {
    if (r.condition.regexFilter !== undefined && !new RegExp(r.condition.regexFilter).test(url)) continue;
    if (!best || r.priority > best.priority || (r.priority === best.priority && r.action.type === 'allow')) best = r;
  }
  return best?.action.type === 'block' ? best.priority : 0;
}

/**
 * The rules that stay on a tab for a while after an agent's call ends (docs/architecture.md, "Consent"): only the
 * origins the person always denies, so that a redirect the page makes a moment after the call (a timer, a fetch that
 * completes) still sends nothing there, while every other navigation — the person's own included — is free again.
 */
export function lingeringRules(rules: readonly GuardRule[]): GuardRule[] {
  return rules.filter((r) => r.priority === DENY && r.action.type === 'block');
}

/** {@link blockedBy}'s answer for a navigation to an origin the person always denies. */
export const DENIED = DENY;
