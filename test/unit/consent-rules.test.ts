// The consent rules (extension/consent/rules.ts): origins are scheme+host+port, places match one origin, one host on
// any port or every http(s) origin; opaque origins are never remembered; grants of a capability cover the weaker ones;
// exec grants bind to one expression or any code, in one session; a remembered denial wins.
import { describe, expect, it } from 'vitest';
import { answersFor, decide, effectOf, isRememberable, originOf, placeMatches, type Need, type Rule, type SessionGrant } from '../../extension/consent/rules.js';

const A = 'https://a.example';
const need = (over: Partial<Need> = {}): Need => ({ capability: 'read', origin: A, tab: 1, top: true, ...over });
const share = (tab = 1, origin = A): SessionGrant[] => [
  { id: 's1', tab, origin, capability: 'read', source: 'share', created: 0 },
  { id: 's2', tab, origin, capability: 'act', source: 'share', created: 0 },
];
/** Applies an answer to a need and returns the rules and grants it leaves. */
function answered(answer: Parameters<typeof effectOf>[0], n: Need): { rules: Rule[]; grants: SessionGrant[]; allow: boolean } {
  const e = effectOf(answer, n, 'id1', 1);
  return { rules: e.rule ? [e.rule] : [], grants: e.grant ? [e.grant] : [], allow: e.allow };
}

describe('origins', () => {
  it('are scheme, host and port: never path, query, fragment or credentials', () => {
    expect(originOf('https://user:pw@a.example:443/p/q?x=1#f')).toBe('https://a.example');
    expect(originOf('http://a.example:8080/x')).toBe('http://a.example:8080');
    expect(originOf('data:text/html,hi')).toBe('null');
    expect(originOf('not a url')).toBe('null');
    expect(originOf(undefined)).toBe('null');
  });

  it('only http(s) origins are rememberable', () => {
    expect(isRememberable('https://a.example')).toBe(true);
    expect(isRememberable('http://127.0.0.1:8080')).toBe(true);
    for (const o of ['null', 'file://', 'chrome-extension://abc', 'moz-extension://x', 'https://a.example/path']) expect(isRememberable(o), o).toBe(false);
  });

  it('places: exact origin, same scheme and host on any port, any http(s) origin', () => {
    expect(placeMatches({ kind: 'origin', origin: A }, A)).toBe(true);
    expect(placeMatches({ kind: 'origin', origin: A }, 'https://a.example:8443')).toBe(false);
    expect(placeMatches({ kind: 'origin', origin: A }, 'http://a.example')).toBe(false);
    const host = { kind: 'host', scheme: 'http', host: 'localhost' } as const;
    expect(placeMatches(host, 'http://localhost:3000')).toBe(true);
    expect(placeMatches(host, 'http://localhost')).toBe(true);
    expect(placeMatches(host, 'https://localhost:3000')).toBe(false);
    expect(placeMatches(host, 'http://localhost.evil.example')).toBe(false);
    expect(placeMatches({ kind: 'any' }, 'http://b.example')).toBe(true);
    expect(placeMatches({ kind: 'any' }, 'null')).toBe(false);
  });
});

describe('decide', () => {
  it('sharing grants read and act on the origin shared at, in that tab only', () => {
    expect(decide(need(), [], share())).toEqual({ kind: 'allow', by: 'share' });
    expect(decide(need({ capability: 'act' }), [], share()).kind).toBe('allow');
    expect(decide(need({ capability: 'exec' }), [], share()).kind).toBe('ask');
    expect(decide(need({ tab: 2 }), [], share()).kind).toBe('ask');
    expect(decide(need({ origin: 'https://b.example' }), [], share()).kind).toBe('ask');
    // A frame of another origin, even on the same host with another port, is another origin.
    expect(decide(need({ capability: 'act', origin: 'https://a.example:8443', top: false }), [], share()).kind).toBe('ask');
  });

  it('a grant covers the weaker capabilities, never the stronger', () => {
    const act = answered('allow_origin', need({ capability: 'act' }));
    expect(decide(need({ capability: 'read' }), act.rules, []).kind).toBe('allow');
    expect(decide(need({ capability: 'act' }), act.rules, []).kind).toBe('allow');
    expect(decide(need({ capability: 'exec' }), act.rules, []).kind).toBe('ask');
    const read = answered('allow_origin', need());
    expect(decide(need({ capability: 'act' }), read.rules, []).kind).toBe('ask');
  });

  it('remembered allowances: this origin, this host on any port, every origin', () => {
    const n = need({ origin: 'http://localhost:3000' });
    const origin = answered('allow_origin', n);
    expect(decide(n, origin.rules, []).kind).toBe('allow');
    expect(decide(need({ origin: 'http://localhost:3001' }), origin.rules, []).kind).toBe('ask');
    const host = answered('allow_host', n);
    expect(decide(need({ origin: 'http://localhost:3001', tab: 9 }), host.rules, []).kind).toBe('allow');
    expect(decide(need({ origin: 'https://localhost:3001' }), host.rules, []).kind).toBe('ask');
    const any = answered('allow_any', n);
    expect(decide(need({ origin: 'https://anything.example', tab: 5 }), any.rules, [])).toEqual({ kind: 'allow', by: 'rule' });
    expect(decide(need({ origin: 'null' }), any.rules, []).kind).toBe('ask');
  });

  it('a remembered denial wins over sharing and allowances, for its capability and the stronger ones', () => {
    const deny = answered('deny_origin', need({ capability: 'act' }));
    expect(deny.allow).toBe(false);
    const allowAny = answered('allow_any', need({ capability: 'exec' }));
    const rules = [...allowAny.rules, ...deny.rules];
    expect(decide(need({ capability: 'act' }), rules, share()).kind).toBe('deny');
    expect(decide(need({ capability: 'exec' }), rules, share()).kind).toBe('deny');
    expect(decide(need({ capability: 'read' }), rules, share()).kind).toBe('allow');
    expect(decide(need({ capability: 'act', origin: 'https://b.example' }), rules, []).kind).toBe('allow');
  });

  it('exec: this exact code in this session, any code in this session, any code in every session', () => {
    const run = (code: string, over: Partial<Need> = {}) => need({ capability: 'exec', code, ...over });
    const exact = answered('allow_code_session', run('h1'));
    expect(decide(run('h1'), [], exact.grants)).toEqual({ kind: 'allow', by: 'session' });
    expect(decide(run('h2'), [], exact.grants).kind).toBe('ask');
    expect(decide(run('h1', { tab: 2 }), [], exact.grants).kind).toBe('ask');
    expect(decide(run('h1', { origin: 'https://b.example' }), [], exact.grants).kind).toBe('ask');
    // A grant for one expression is not a grant to act or read.
    expect(decide(need({ capability: 'act' }), [], exact.grants).kind).toBe('ask');
    const session = answered('allow_session', run('h1'));
    expect(decide(run('h2'), [], session.grants).kind).toBe('allow');
    expect(decide(run('h2', { tab: 2 }), [], session.grants).kind).toBe('ask');
    const everywhere = answered('allow_origin', run('h1'));
    expect(decide(run('h3', { tab: 7 }), everywhere.rules, []).kind).toBe('allow');
  });

  it('opaque origins get one-time answers only, and a share of an opaque page covers its top frame only', () => {
    expect(answersFor('act', 'null')).toEqual(['allow_once', 'deny_once']);
    expect(answersFor('exec', 'null')).toEqual(['allow_once', 'deny_once']);
    expect(() => effectOf('allow_origin', need({ origin: 'null' }), 'x', 0)).toThrow();
    expect(() => effectOf('deny_origin', need({ origin: 'null' }), 'x', 0)).toThrow();
    const opaque = share(1, 'null');
    expect(decide(need({ origin: 'null' }), [], opaque).kind).toBe('allow');
    expect(decide(need({ origin: 'null', top: false, capability: 'act' }), [], opaque).kind).toBe('ask');
  });

  it('offers the exec scopes only for exec', () => {
    expect(answersFor('act', A)).toEqual(['allow_once', 'allow_origin', 'allow_host', 'allow_any', 'deny_once', 'deny_origin']);
    expect(answersFor('exec', A)).toEqual(['allow_once', 'allow_code_session', 'allow_session', 'allow_origin', 'allow_host', 'allow_any', 'deny_once', 'deny_origin']);
    expect(() => effectOf('allow_session', need({ capability: 'read' }), 'x', 0)).toThrow();
  });
});

describe('hosts with a trailing dot', () => {
  const deny = (place: Rule['place']): Rule => ({ id: 'd', effect: 'deny', capability: 'act', place, created: 0 });
  const need = (origin: string): Need => ({ capability: 'act', origin, tab: 1, top: true });
  it('a denial of localhost holds for localhost. (one host to DNS), as a place of either kind and either way round', () => {
    expect(decide(need('http://localhost.:8080'), [deny({ kind: 'host', scheme: 'http', host: 'localhost' })], []).kind).toBe('deny');
    expect(decide(need('http://localhost.:8080'), [deny({ kind: 'origin', origin: 'http://localhost:8080' })], []).kind).toBe('deny');
    expect(decide(need('http://localhost:8080'), [deny({ kind: 'origin', origin: 'http://localhost.:8080' })], []).kind).toBe('deny');
    expect(decide(need('http://localhost.evil.example'), [deny({ kind: 'host', scheme: 'http', host: 'localhost' })], []).kind).toBe('ask');
  });
});

