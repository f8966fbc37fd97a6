// The navigation guard's rules (extension/consent/nav-rules.ts), judged as the browser matches them: a tab's top-level
// navigations reach the origins where act is granted (sharing, a session grant, a remembered allowance of act or exec)
// and the origins the call was allowed; a remembered denial of read or act wins over every allowance; an allowance of
// one exact code or of read only opens nothing; credentials or a longer host never pass for an allowed origin.
import { describe, expect, it } from 'vitest';
import { blockedBy, DENIED, guardRules, placePattern } from '../../extension/consent/nav-rules.js';
import type { Rule, SessionGrant } from '../../extension/consent/rules.js';

const A = 'http://127.0.0.1:8080';
const share: SessionGrant[] = [
  { id: 's1', tab: 7, origin: A, capability: 'read', source: 'share', created: 0 },
  { id: 's2', tab: 7, origin: A, capability: 'act', source: 'share', created: 0 },
];
const rule = (effect: Rule['effect'], capability: Rule['capability'], place: Rule['place']): Rule => ({ id: `${effect}${capability}`, effect, capability, place, created: 0 });
const verdict = (rules: Rule[], grants: SessionGrant[], url: string, extra: string[] = []) => blockedBy(guardRules(7, extra, rules, grants, 1), url);

describe('navigation guard rules', () => {
  it('lets the tab reach the origin it was shared at and blocks any other', () => {
    expect(verdict([], share, `${A}/next?x=1`)).toBe(0);
    expect(verdict([], share, 'http://localhost:8080/')).toBeGreaterThan(0);
    expect(verdict([], share, 'https://elsewhere.example/')).toBeGreaterThan(0);
  });

  it("never takes credentials, another port or a longer host for the allowed origin", () => {
    expect(verdict([], share, 'http://127.0.0.1:8080@evil.example/')).toBeGreaterThan(0);
    expect(verdict([], share, 'http://127.0.0.1:80801/')).toBeGreaterThan(0);
    expect(verdict([], share, 'http://127.0.0.1/')).toBeGreaterThan(0);
    expect(verdict([rule('allow', 'act', { kind: 'host', scheme: 'https', host: 'a.example' })], [], 'https://a.example.evil.example/')).toBeGreaterThan(0);
  });

  it('opens origins by act or exec allowances and by the call itself, not by read or one exact code', () => {
    expect(verdict([rule('allow', 'act', { kind: 'host', scheme: 'https', host: 'a.example' })], [], 'https://a.example:444/p')).toBe(0);
    expect(verdict([rule('allow', 'exec', { kind: 'origin', origin: 'https://b.example' })], [], 'https://b.example/')).toBe(0);
    expect(verdict([rule('allow', 'read', { kind: 'origin', origin: 'https://b.example' })], [], 'https://b.example/')).toBeGreaterThan(0);
    const code: SessionGrant = { id: 'c', tab: 7, origin: 'https://c.example', capability: 'exec', source: 'answer', code: 'ab'.repeat(32), created: 0 };
    expect(verdict([], [code], 'https://c.example/')).toBeGreaterThan(0);
    expect(verdict([], [], 'https://once.example/', ['https://once.example'])).toBe(0);
    // Another tab's grants open nothing here.
    expect(verdict([], share.map((g) => ({ ...g, tab: 8 })), `${A}/`)).toBeGreaterThan(0);
  });

  it('a remembered denial of read or act wins over every allowance, "any site" included; one of exec alone does not', () => {
    const any = rule('allow', 'act', { kind: 'any' });
    expect(verdict([any], [], 'https://anything.example/')).toBe(0);
    expect(verdict([any, rule('deny', 'act', { kind: 'origin', origin: 'https://d.example' })], [], 'https://d.example/x')).toBe(DENIED);
    expect(verdict([rule('deny', 'read', { kind: 'host', scheme: 'http', host: '127.0.0.1' })], share, `${A}/`, [A])).toBe(DENIED);
    expect(verdict([any, rule('deny', 'exec', { kind: 'origin', origin: 'https://d.example' })], [], 'https://d.example/')).toBe(0);
  });

  it('escapes the host in its patterns and leaves opaque origins out', () => {
    expect(placePattern({ kind: 'origin', origin: 'https://a.example' })).toBe('^https://a\\.example\\.?/');
    expect(placePattern({ kind: 'origin', origin: 'null' })).toBeUndefined();
    expect(guardRules(7, ['null'], [], [], 1).map((r) => r.action.type)).toEqual(['block']);
  });

  it('a denial of localhost blocks localhost. (the same host, with its trailing dot) and the other way round', () => {
    const deny = (place: Parameters<typeof placePattern>[0]) => [rule('deny', 'act', place)];
    expect(verdict(deny({ kind: 'host', scheme: 'http', host: 'localhost' }), [], 'http://localhost.:8080/')).toBe(DENIED);
    expect(verdict(deny({ kind: 'origin', origin: 'http://localhost:8080' }), [], 'http://localhost.:8080/x')).toBe(DENIED);
    expect(verdict(deny({ kind: 'origin', origin: 'http://localhost.:8080' }), [], 'http://localhost:8080/')).toBe(DENIED);
    // Still not a longer host, nor another port (blocked there only as any navigation under the guard is).
    expect(verdict(deny({ kind: 'origin', origin: 'http://localhost:8080' }), [], 'http://localhost.evil.example:8080/')).not.toBe(DENIED);
    expect(verdict(deny({ kind: 'origin', origin: 'http://localhost:8080' }), [], 'http://localhost.:8081/')).not.toBe(DENIED);
  });
});
