// The broker's boundary pieces in isolation: reading a request's id from a line too long to parse (broker/mcp/line-id.ts),
// labels that tell same-named clients apart (broker/hub/clients.ts), when 2025-era HTTP sessions end
// (broker/mcp/http-sessions.ts) and which Host headers are plain (broker/mcp/http-target.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestIdScanner } from '../../broker/mcp/line-id.js';
import { LineSplitter } from '../../broker/mcp/lines.js';
import { ClientTable } from '../../broker/hub/clients.js';
import { SessionBook } from '../../broker/mcp/http-sessions.js';
import { canonicalHost, malformedTarget } from '../../broker/mcp/http-target.js';

function idOf(text: string, pieces = 1): string | number | undefined {
  const scanner = new RequestIdScanner();
  const bytes = Buffer.from(text);
  const step = Math.ceil(bytes.length / pieces);
  for (let i = 0; i < bytes.length; i += step) scanner.push(bytes.subarray(i, i + step));
  return scanner.id;
}

describe('the id of a line too long to parse', () => {
  it('is found first or last, as a number or a string, across any split', () => {
    const pad = 'x'.repeat(1000);
    for (const pieces of [1, 3, 7, 1001]) {
      expect(idOf(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"a":"${pad}"}}`, pieces)).toBe(42);
      expect(idOf(`{"method":"tools/call","params":{"a":"${pad}","id":"inner"},"jsonrpc":"2.0","id":"req-7"}`, pieces)).toBe('req-7');
      expect(idOf(`{ "params" : [ {"id": 1}, "\\"id\\": 2" ] , "id" : -3.5e2 }`, pieces)).toBe(-350);
    }
  });

  it('is not guessed: nested ids, escaped or over-long ids, non-objects and cut-off lines give none', () => {
    expect(idOf('{"params":{"id":5},"method":"x"}')).toBeUndefined();
    expect(idOf('{"id":"a\\"b","method":"x"}')).toBeUndefined();
    expect(idOf(`{"id":"${'y'.repeat(300)}"}`)).toBeUndefined();
    expect(idOf('[{"id":1}]')).toBeUndefined();
    expect(idOf('{"method":"x","params":{"a":"')).toBeUndefined();
    expect(idOf('{"id":null}')).toBeUndefined();
  });

  it('comes with the oversized report of the line splitter, which stays in step for the next line', () => {
    const splitter = new LineSplitter(64);
    const long = `{"method":"tools/call","params":{"pad":"${'z'.repeat(500)}"},"jsonrpc":"2.0","id":9}\n{"jsonrpc":"2.0","id":10}\n`;
    const bytes = Buffer.from(long);
    const out = [...splitter.push(bytes.subarray(0, 40)), ...splitter.push(bytes.subarray(40, 300)), ...splitter.push(bytes.subarray(300))];
    expect(out).toEqual([{ oversized: true, id: 9 }, { line: '{"jsonrpc":"2.0","id":10}' }]);
  });
});

describe('client labels', () => {
  it('tell apart clients that give the same name or none, and free a label when its client leaves', () => {
    const t = new ClientTable();
    expect(t.add('a', 'mcp').name).toBe('mcp');
    expect(t.add('b', 'mcp').name).toBe('mcp #2');
    expect(t.add('c', '').name).toBe('MCP client');
    expect(t.add('d', '  ').name).toBe('MCP client #2');
    t.remove('a');
    expect(t.add('e', 'mcp').name).toBe('mcp');
    t.rename('c', 'mcp');
    expect(t.get('c')?.name).toBe('mcp #3');
    // A client renaming itself to its own name keeps its label.
    t.rename('b', 'mcp');
    expect(t.get('b')?.name).toBe('mcp #2');
  });
});

describe('2025-era HTTP sessions', () => {
  afterEach(() => vi.useRealTimers());
  const book = (ended: string[]) => new SessionBook<string>({ max: 2, idleMs: 60_000, goneMs: 3_000 }, (id, _v, why) => ended.push(`${id}:${why}`));

  it('end a few seconds after their last stream closes, unless the client comes back', () => {
    vi.useFakeTimers();
    const ended: string[] = [];
    const b = book(ended);
    b.add('s1', 'one');
    const closed = b.streamOpened('s1');
    vi.advanceTimersByTime(120_000);
    expect(ended).toEqual([]); // an open stream is a client that is there, however quiet
    closed();
    vi.advanceTimersByTime(2_000);
    b.streamOpened('s1')(); // reopened (and closed again): the grace starts over
    vi.advanceTimersByTime(2_000);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(1_500);
    expect(ended).toEqual(['s1:gone']);
    b.stop();
  });

  it('end when idle without a stream, and make room at the cap from the one idle longest without a stream', () => {
    vi.useFakeTimers();
    const ended: string[] = [];
    const b = book(ended);
    b.add('s1', 'one');
    vi.advanceTimersByTime(10);
    b.add('s2', 'two');
    b.streamOpened('s1');
    expect(b.makeRoom()).toBe(true);
    expect(ended).toEqual(['s2:evicted']);
    b.add('s3', 'three');
    b.streamOpened('s3');
    expect(b.makeRoom()).toBe(false); // every session has its client there
    b.add('s4', 'four'); // (past the cap only in this test)
    vi.advanceTimersByTime(61_000 + 15_000);
    expect(ended).toEqual(['s2:evicted', 's4:idle']);
    b.stop();
  });
});

describe('Host headers and request targets', () => {
  it('accept only a plain host[:port] that no URL parser rewrites', () => {
    for (const ok of ['127.0.0.1:47823', 'localhost:1', '[::1]:80', 'localhost', 'rebound.example:9']) expect(canonicalHost(ok), ok).toBe(true);
    for (const bad of ['2130706433', '2130706433:47823', '127.1', '0x7f.0.0.1', 'x@evil.com', 'a:b@127.0.0.1', '127.0.0.1:99999', '127.0.0.1/x', 'LOCALHOST', '', 'a b', '127.0.0.1:47823#']) {
      expect(canonicalHost(bad), bad).toBe(false);
    }
  });

  it('refuse no Host, a doubled Host and targets that are not paths', () => {
    expect(malformedTarget({ rawHeaders: ['Host', '127.0.0.1:1'], url: '/mcp' })).toBeUndefined();
    expect(malformedTarget({ rawHeaders: [], url: '/mcp' })).toMatch(/no Host/);
    expect(malformedTarget({ rawHeaders: ['Host', '127.0.0.1:1', 'host', 'evil.example'], url: '/mcp' })).toMatch(/more than one/);
    expect(malformedTarget({ rawHeaders: ['Host', '127.0.0.1:1'], url: 'http://evil.example/mcp' })).toMatch(/origin form/);
    expect(malformedTarget({ rawHeaders: ['Host', '127.0.0.1:1'], url: '//evil.example/mcp' })).toMatch(/origin form/);
  });
});
