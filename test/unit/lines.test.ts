// The stdio relay's line splitter and line checks (broker/mcp/lines.ts): lines cut anywhere by the pipe come out
// whole and in order, the size bound counts bytes (not characters), an oversized line is reported once with its
// request id when it can be read, and every line that is not a JSON-RPC message gets the error a client expects.
import { describe, expect, it } from 'vitest';
import { LineSplitter, oversizedReply, type LineItem } from '../../broker/mcp/lines.js';
import { checkLine } from '../../broker/mcp/line-check.js';

const buf = (s: string) => Buffer.from(s, 'utf8');

/** Feeds `chunks` to a splitter and returns everything it yields. */
function feed(splitter: LineSplitter, chunks: Array<string | Buffer>): LineItem[] {
  return chunks.flatMap((c) => splitter.push(typeof c === 'string' ? buf(c) : c));
}

describe('LineSplitter', () => {
  it('gives whole lines in order, however the pipe cuts them, and keeps a partial line until its newline', () => {
    const s = new LineSplitter();
    expect(feed(s, ['{"a"', ':1}\n{"b":2}\n{"c"'])).toEqual([{ line: '{"a":1}' }, { line: '{"b":2}' }]);
    expect(feed(s, [':3}'])).toEqual([]);
    expect(feed(s, ['\n'])).toEqual([{ line: '{"c":3}' }]);
  });

  it('drops the carriage return of a CRLF line ending, and yields empty lines as they come', () => {
    expect(feed(new LineSplitter(), ['one\r\n\ntwo\r\n'])).toEqual([{ line: 'one' }, { line: '' }, { line: 'two' }]);
  });

  it('decodes a character whose bytes arrive in two reads', () => {
    const bytes = buf('"é€😀"\n');
    const s = new LineSplitter();
    const out = [...s.push(bytes.subarray(0, 2)), ...s.push(bytes.subarray(2, 5)), ...s.push(bytes.subarray(5))];
    expect(out).toEqual([{ line: '"é€😀"' }]);
  });

  it('bounds a line in bytes, not characters', () => {
    // 4 characters, 8 bytes: within a bound of 8, over a bound of 7.
    expect(feed(new LineSplitter(8), ['éééé\n'])).toEqual([{ line: 'éééé' }]);
    expect(feed(new LineSplitter(7), ['éééé\n'])).toEqual([{ oversized: true }]);
  });

  it('reports an oversized line once, with the request id read as it goes past, and carries on after it', () => {
    const s = new LineSplitter(64);
    const big = `{"jsonrpc":"2.0","id":"req-9","method":"tools/call","params":{"x":"${'y'.repeat(200)}"}}`;
    const out = feed(s, [big.slice(0, 50), big.slice(50, 120), big.slice(120), '\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n']);
    expect(out).toEqual([{ oversized: true, id: 'req-9' }, { line: '{"jsonrpc":"2.0","id":2,"method":"ping"}' }]);
  });

  it('reports an oversized line without an id when none can be read', () => {
    expect(feed(new LineSplitter(16), [`[${'1,'.repeat(50)}1]\n`])).toEqual([{ oversized: true }]);
  });
});

describe('checkLine', () => {
  const reply = (code: number, message: string | RegExp, id?: string | number) => ({ kind: 'reply', error: { code, message: typeof message === 'string' ? message : expect.stringMatching(message) }, ...(id !== undefined && { id }) });

  it('lets JSON-RPC requests, notifications and responses through, and skips blank lines', () => {
    for (const m of [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 'a', result: {} }, { jsonrpc: '2.0', id: 2, error: { code: 1, message: 'x' } }]) {
      const line = JSON.stringify(m);
      expect(checkLine(line)).toEqual({ kind: 'message', line, value: m });
    }
    expect(checkLine('   ')).toBeUndefined();
  });

  it('answers what is not a JSON-RPC 2.0 message with the JSON-RPC error for it', () => {
    expect(checkLine('{nope')).toEqual(reply(-32700, 'Parse error: the line is not JSON'));
    expect(checkLine('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toEqual(reply(-32600, /batches are not supported/));
    expect(checkLine('"text"')).toEqual(reply(-32600, 'Invalid request: not a JSON-RPC 2.0 message'));
  });

  it('echoes a readable id when the "jsonrpc" member is wrong or missing, and answers id null only when it is not', () => {
    const wrong = 'Invalid request: not a JSON-RPC 2.0 message ("jsonrpc" must be "2.0")';
    expect(checkLine('{"id":1,"method":"ping"}')).toEqual(reply(-32600, wrong, 1));
    expect(checkLine('{"jsonrpc":"1.0","id":"a-7","method":"ping"}')).toEqual(reply(-32600, wrong, 'a-7'));
    expect(checkLine('{"jsonrpc":2,"id":0,"method":"tools/list"}')).toEqual(reply(-32600, wrong, 0));
    expect(checkLine('{"jsonrpc":"1.0","id":{"n":1},"method":"ping"}')).toEqual(reply(-32600, wrong));
    expect(checkLine('{"jsonrpc":"1.0","method":"notifications/initialized"}')).toEqual(reply(-32600, wrong));
  });

  it('answers a request whose numeric id has a fraction, echoing it (the SDK would drop it unanswered)', () => {
    expect(checkLine('{"jsonrpc":"2.0","id":1.5,"method":"ping"}')).toEqual(reply(-32600, /whole number/, 1.5));
    expect(checkLine('{"jsonrpc":"2.0","id":7,"method":"ping"}')?.kind).toBe('message');
  });

  it('answers a list or read request with parameters of the wrong type with invalid params (-32602), naming the field', () => {
    expect(checkLine('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":5}}')).toEqual(reply(-32602, /^Invalid params for tools\/list: params\.cursor: .*string/, 2));
    expect(checkLine('{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":{}}}')).toEqual(reply(-32602, /^Invalid params for resources\/read: params\.uri: /, 'r'));
    expect(checkLine('{"jsonrpc":"2.0","id":3,"method":"resources/read"}')).toEqual(reply(-32602, /^Invalid params for resources\/read: params/, 3));
    // What fits goes on to the SDK: a string cursor, no params at all, extra _meta, and methods not checked here.
    for (const m of [
      { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { cursor: 'abc' } },
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      { jsonrpc: '2.0', id: 6, method: 'resources/list', params: { _meta: { progressToken: 1, 'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' } } } },
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 5 } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: {} } },
    ]) {
      const line = JSON.stringify(m);
      expect(checkLine(line)).toEqual({ kind: 'message', line, value: m });
    }
  });

  it('refuses ids an answer could not echo, and malformed requests with their id', () => {
    expect(checkLine('{"jsonrpc":"2.0","id":null,"method":"ping"}')).toEqual(reply(-32600, 'Invalid request: "id" must be a string or a number, not null'));
    expect(checkLine('{"jsonrpc":"2.0","id":{},"method":"ping"}')).toEqual(reply(-32600, /not an object$/));
    expect(checkLine('{"jsonrpc":"2.0","id":[1],"method":"ping"}')).toEqual(reply(-32600, /not an array$/));
    expect(checkLine('{"jsonrpc":"2.0","id":4,"method":5}')).toEqual(reply(-32600, 'Invalid request: "method" must be a string', 4));
    expect(checkLine('{"jsonrpc":"2.0","id":"p","method":"x","params":3}')).toEqual(reply(-32600, 'Invalid request: "params" must be an object', 'p'));
    expect(checkLine('{"jsonrpc":"2.0","id":6}')).toEqual(reply(-32600, 'Invalid request: neither a request, a notification nor a response', 6));
  });

  it('answers an oversized line for its id, or for id null', () => {
    expect(JSON.parse(oversizedReply('req-9', 64))).toEqual({ jsonrpc: '2.0', id: 'req-9', error: { code: -32600, message: 'Invalid request: oversized message (over 64 bytes); it was dropped, nothing was done' } });
    expect(JSON.parse(oversizedReply(undefined)).id).toBeNull();
  });
});
