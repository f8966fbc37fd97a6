// The person's consent as data, and the one function that judges a need against it (docs/architecture.md, "Consent").
// Pure: no browser APIs. The background keeps the stores (extension/background/grants.ts) and asks here; the popup and
// the options page show these shapes (extension/ui).
import { z } from 'zod';
import { ANSWERS, APP_ANSWERS, AnswerSchema, type Answer, type AppAnswer } from '../../shared/ask-in-app.js';

/** The capabilities a person grants, weakest first: a grant of one covers the weaker ones (act lets an agent read). */
export const GRANTABLE = ['read', 'act', 'exec'] as const;
export type Grantable = (typeof GRANTABLE)[number];
export const GrantableSchema = z.enum(GRANTABLE);

const RANK: Readonly<Record<Grantable, number>> = { read: 1, act: 2, exec: 3 };

/** True when holding `held` lets a call that needs `needed` through. */
export function covers(held: Grantable, needed: Grantable): boolean {
  return RANK[held] >= RANK[needed];
}

/**
 * The origin of a URL, serialised: scheme, host and port, never path, query, fragment or credentials
 * (https://html.spec.whatwg.org/multipage/browsers.html#ascii-serialisation-of-an-origin); "null" for opaque origins
 * (data:, file: and unparsable URLs).
 */
export function originOf(url: string | undefined): string {
  try {
    return url ? new URL(url).origin : 'null';
  } catch {
    return 'null';
  }
}

/** Only http(s) origins may be remembered; opaque ones (data:, file:, sandboxed frames) get one-time answers. */
export function isRememberable(origin: string): boolean {
  return /^https?:\/\/[^/]+$/.test(origin);
}

/**
 * A host without its one trailing dot. `localhost.` and `localhost` are one host to DNS (a name ending in a dot is the
 * fully qualified form, RFC 1034 §3.1) and reach the same server, although the URL Standard keeps the dot and so makes
 * them two origins; consent treats them as one, so a person's denial of `localhost` holds for `localhost.` too.
 */
export function canonicalHost(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** `origin` with its host in {@link canonicalHost} form; opaque origins unchanged. */
export function canonicalOrigin(origin: string): string {
  if (!isRememberable(origin)) return origin;
  try {
    const url = new URL(origin);
    return `${url.protocol}//${canonicalHost(url.hostname)}${url.port ? `:${url.port}` : ''}`;
  } catch {
    return origin;
  }
}

/** Where a remembered rule applies: one origin, one scheme and host on any port, or every http(s) origin. */
export const PlaceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('origin'), origin: z.string().max(300) }),
  z.object({ kind: z.literal('host'), scheme: z.enum(['http', 'https']), host: z.string().max(260) }),
  z.object({ kind: z.literal('any') }),
]);
export type Place = z.infer<typeof PlaceSchema>;

/**
 * Whether `place` covers `origin`, hosts compared in {@link canonicalHost} form. Opaque origins are never covered by a
 * remembered place.
 */
export function placeMatches(place: Place, origin: string): boolean {
  if (!isRememberable(origin)) return false;
  if (place.kind === 'any') return true;
  if (place.kind === 'origin') return canonicalOrigin(place.origin) === canonicalOrigin(origin);
  const url = new URL(origin);
  return url.protocol === `${place.scheme}:` && canonicalHost(url.hostname) === canonicalHost(place.host);
}

/** A remembered rule (kept in storage.local, so it survives browser restarts; listed and revocable in the options). */
export const RuleSchema = z.object({
  id: z.string().max(40),
  effect: z.enum(['allow', 'deny']),
  capability: GrantableSchema,
  place: PlaceSchema,
  /** When the person made it, ms since the Unix epoch. */
  created: z.number(),
});
export type Rule = z.infer<typeof RuleSchema>;

/**
 * A grant that lasts as long as one session (a shared tab; kept in storage.session): the one sharing gives (read and
 * act on the origin the tab was shared at) and the person's exec answers "in this session". `code` is the SHA-256 (hex)
 * of the one expression allowed; absent, any code is.
 */
export const SessionGrantSchema = z.object({
  id: z.string().max(40),
  tab: z.number().int(),
  origin: z.string().max(300),
  capability: GrantableSchema,
  source: z.enum(['share', 'answer']),
  code: z.string().max(64).optional(),
  /** The first characters of the allowed code, to show the person what the grant is for. */
  preview: z.string().max(200).optional(),
  /** The tab's title (page content) when the tab was shared or the person answered: what the grant was asked for. */
  title: z.string().max(200).optional(),
  created: z.number(),
});
export type SessionGrant = z.infer<typeof SessionGrantSchema>;

/** What one call needs: a capability on the origin of a frame of a tab (`top` when that frame is the tab's top frame). */
export interface Need {
  capability: Grantable;
  origin: string;
  tab: number;
  top: boolean;
  /** For exec: the SHA-256 (hex) of the code to run. */
  code?: string;
}

/** The judgement on a need: let it through (and by what), refuse it (by which rule), or ask the person. */
export type Verdict = { kind: 'allow'; by: 'share' | 'session' | 'rule' } | { kind: 'deny'; rule: Rule } | { kind: 'ask' };

function grantCovers(grant: SessionGrant, need: Need): boolean {
  if (grant.tab !== need.tab || canonicalOrigin(grant.origin) !== canonicalOrigin(need.origin) || !covers(grant.capability, need.capability)) return false;
  // An opaque origin ("null") is unique to its document: only the frame the tab was shared at is covered.
  if (!isRememberable(need.origin) && !need.top) return false;
  // A grant for one expression lets that expression run, and nothing else.
  if (grant.code !== undefined) return need.capability === 'exec' && grant.code === need.code;
  return true;
}

/**
 * Judges `need`: a remembered denial wins over everything; then the session's grants, then remembered allowances;
 * otherwise the person must be asked.
 */
export function decide(need: Need, rules: readonly Rule[], grants: readonly SessionGrant[]): Verdict {
  const denial = rules.find((r) => r.effect === 'deny' && placeMatches(r.place, need.origin) && covers(need.capability, r.capability));
  if (denial) return { kind: 'deny', rule: denial };
  const grant = grants.find((g) => grantCovers(g, need));
  if (grant) return { kind: 'allow', by: grant.source === 'share' ? 'share' : 'session' };
  if (rules.some((r) => r.effect === 'allow' && placeMatches(r.place, need.origin) && covers(r.capability, need.capability))) return { kind: 'allow', by: 'rule' };
  return { kind: 'ask' };
}

// The answers a prompt offers live with the messages that carry them (shared/ask-in-app.ts).
export { ANSWERS, AnswerSchema, type Answer };

/** The answers a prompt for `capability` on `origin` offers, in the order the popup shows them. */
export function answersFor(capability: Grantable, origin: string): Answer[] {
  if (!isRememberable(origin)) return ['allow_once', 'deny_once'];
  const exec: Answer[] = capability === 'exec' ? ['allow_code_session', 'allow_session'] : [];
  return ['allow_once', ...exec, 'allow_origin', 'allow_host', 'allow_any', 'deny_once', 'deny_origin'];
}

/**
 * The answers an agent's app may relay for a prompt offering `offered` (docs/architecture.md, "Asking in the agent's
 * app"): allow once, on this site (not for code: for exec it means any code), this exact code in this tab, deny once.
 */
export function appAnswersFor(capability: Grantable, offered: readonly Answer[]): AppAnswer[] {
  const narrow: readonly Answer[] = capability === 'exec' ? ['allow_once', 'allow_code_session', 'deny_once'] : ['allow_once', 'allow_origin', 'deny_once'];
  return APP_ANSWERS.filter((a) => narrow.includes(a) && offered.includes(a));
}

/** What an answer does: lets the waiting calls through or not, and what it leaves behind for later calls. */
export interface AnswerEffect {
  allow: boolean;
  rule?: Rule;
  grant?: SessionGrant;
}

/**
 * The effect of `answer` to a prompt for `need`. `id` names the rule or grant made; `now` is its time.
 * @throws Error when the answer is not offered for this need ({@link answersFor}).
 */
export function effectOf(answer: Answer, need: Need, id: string, now: number, preview?: string): AnswerEffect {
  if (!answersFor(need.capability, need.origin).includes(answer)) throw new Error(`"${answer}" is not an answer to this prompt`);
  const rule = (effect: Rule['effect'], place: Place): Rule => ({ id, effect, capability: need.capability, place, created: now });
  const session = (code?: string): SessionGrant => ({
    id,
    tab: need.tab,
    origin: need.origin,
    capability: need.capability,
    source: 'answer',
    ...(code !== undefined && { code, ...(preview !== undefined && { preview: preview.slice(0, 200) }) }),
    created: now,
  });
  switch (answer) {
    case 'allow_once':
      return { allow: true };
    case 'deny_once':
      return { allow: false };
    case 'allow_code_session':
      if (need.code === undefined) throw new Error('no code to allow');
      return { allow: true, grant: session(need.code) };
    case 'allow_session':
      return { allow: true, grant: session() };
    case 'allow_origin':
      return { allow: true, rule: rule('allow', { kind: 'origin', origin: need.origin }) };
    case 'allow_host': {
      const url = new URL(need.origin);
      return { allow: true, rule: rule('allow', { kind: 'host', scheme: url.protocol === 'https:' ? 'https' : 'http', host: url.hostname }) };
    }
    case 'allow_any':
      return { allow: true, rule: rule('allow', { kind: 'any' }) };
    case 'deny_origin':
      return { allow: false, rule: rule('deny', { kind: 'origin', origin: need.origin }) };
  }
}

/** How a place reads to a person: "https://a.example", "http://localhost on any port", "any website". */
export function describePlace(place: Place): string {
  if (place.kind === 'any') return 'any website';
  if (place.kind === 'origin') return place.origin;
  return `${place.scheme}://${place.host} on any port`;
}

/** The verb for a capability, as prompts and the options page say it. */
export const CAPABILITY_WORDS: Readonly<Record<Grantable, string>> = {
  read: 'read pages',
  act: 'click, type and navigate',
  exec: 'run code',
};

/**
 * Button labels; exec prompts name the code scopes (`operation`: the code is a page's own operation, called with given
 * arguments, rather than the agent's).
 */
export function answerLabel(answer: Answer, capability: Grantable, operation = false): string {
  const exec = capability === 'exec';
  switch (answer) {
    case 'allow_once':
      return 'Allow once';
    case 'allow_code_session':
      return operation ? 'Allow this exact call in this tab' : 'Allow this exact code in this tab';
    case 'allow_session':
      return 'Allow any code in this tab';
    case 'allow_origin':
      return exec ? 'Allow any code on this site, in every tab' : 'Allow on this site';
    case 'allow_host':
      return exec ? 'Allow any code on this host, any port' : 'Allow on this host, any port';
    case 'allow_any':
      return exec ? 'Allow any code on every site' : 'Allow on every site';
    case 'deny_once':
      return 'Deny';
    case 'deny_origin':
      return 'Always deny on this site';
  }
}
