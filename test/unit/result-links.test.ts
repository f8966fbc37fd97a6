// The book of result links (broker/mcp/resources.ts): which MCP revisions have resource links, a link readable only by
// the connection that made it and only for its lifetime, and the bounds on count and bytes held.
import { describe, expect, it } from 'vitest';
import { MAX_HELD_BYTES, MAX_RESULTS, MAX_RESULTS_PER_CLIENT, RESULT_TTL_MS, ResultLinks, supportsLinks } from '../../broker/mcp/resources.js';
import { OrielError } from '../../shared/errors.js';

const entry = (bytes = 10) => ({ name: 'shot.png', mimeType: 'image/png', size: bytes, session: 'b1-1', origin: 'http://a.test', source: { kind: 'bytes' as const, data: Buffer.alloc(bytes) } });

/** The error code and reason `fn` throws. */
function failure(fn: () => unknown): { code: string; reason: unknown } | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(OrielError);
    const data = (err as OrielError).data;
    return { code: data.code, reason: data.details?.reason };
  }
}

const UNKNOWN = { code: 'invalid_argument', reason: 'unknown_resource' };

describe('result links', () => {
  it('exist from MCP 2025-06-18 on', () => {
    expect(supportsLinks('2025-03-26')).toBe(false);
    expect(supportsLinks('2024-11-05')).toBe(false);
    expect(supportsLinks(undefined)).toBe(false);
    expect(supportsLinks('2025-06-18')).toBe(true);
    expect(supportsLinks('2025-11-25')).toBe(true);
    expect(supportsLinks('2026-07-28')).toBe(true);
    expect(supportsLinks('DRAFT-2026-v1')).toBe(false);
  });

  it('are read only by the connection that made them, and only until they expire', () => {
    let now = 1_000;
    const links = new ResultLinks(() => now);
    const link = links.add('c1', entry());
    expect(link).toEqual({ uri: expect.stringMatching(/^oriel:\/\/result\/[\w-]{22}$/), name: 'shot.png', mimeType: 'image/png', size: 10 });
    expect(links.get('c1', link.uri).source).toMatchObject({ kind: 'bytes' });
    // Another connection hears what it would of a link that never was.
    expect(failure(() => links.get('c2', link.uri))).toEqual(UNKNOWN);
    expect(failure(() => links.get('c1', 'oriel://result/AAAAAAAAAAAAAAAAAAAAAA'))).toEqual(UNKNOWN);
    expect(failure(() => links.get('c1', 'file:///etc/passwd'))).toEqual(UNKNOWN);
    now += RESULT_TTL_MS - 1;
    expect(links.get('c1', link.uri).uri).toBe(link.uri);
    now += 1;
    expect(failure(() => links.get('c1', link.uri))).toEqual(UNKNOWN);
    expect(links.size).toEqual({ count: 0, bytes: 0 });
  });

  it('go with their connection', () => {
    const links = new ResultLinks();
    const mine = links.add('c1', entry());
    const theirs = links.add('c2', entry());
    links.dropOwner('c1');
    expect(failure(() => links.get('c1', mine.uri))).toEqual(UNKNOWN);
    expect(links.get('c2', theirs.uri).uri).toBe(theirs.uri);
  });

  it('keep at most their count per connection and in all, and their bytes in all, dropping the oldest', () => {
    const links = new ResultLinks();
    const first = links.add('c1', entry());
    for (let i = 1; i < MAX_RESULTS_PER_CLIENT; i++) links.add('c1', entry());
    expect(links.get('c1', first.uri).uri).toBe(first.uri);
    links.add('c1', entry());
    expect(failure(() => links.get('c1', first.uri))).toEqual(UNKNOWN);
    expect(links.size.count).toBe(MAX_RESULTS_PER_CLIENT);

    const all = new ResultLinks();
    const oldest = all.add('o0', entry());
    for (let i = 1; i <= MAX_RESULTS; i++) all.add(`o${i}`, entry());
    expect(all.size.count).toBe(MAX_RESULTS);
    expect(failure(() => all.get('o0', oldest.uri))).toEqual(UNKNOWN);

    const big = new ResultLinks();
    const share = MAX_HELD_BYTES / 4;
    const early = big.add('b1', entry(share));
    for (let i = 0; i < 4; i++) big.add('b2', entry(share));
    expect(big.size.bytes).toBe(MAX_HELD_BYTES);
    expect(failure(() => big.get('b1', early.uri))).toEqual(UNKNOWN);
  });
});
