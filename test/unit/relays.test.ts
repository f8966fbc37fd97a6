// The two relays' decisions, without their processes: what `oriel mcp` remembers of a conversation so that a hub
// that goes away leaves no request unanswered and a new hub gets the handshake again (broker/mcp/relay.ts), and what
// `oriel native-host` does with each frame from the browser (broker/native-host/relay.ts).
import { describe, expect, it } from 'vitest';
import { Conversation, orphanAnswer, REPLAY_PREFIX } from '../../broker/mcp/relay.js';
import { callerId, judgeBrowserFrame } from '../../broker/native-host/relay.js';
import { encodeFrame, INBOUND_MAX_BYTES } from '../../shared/framing.js';

const line = (v: unknown) => JSON.stringify(v);

describe('oriel mcp: the conversation it keeps', () => {
  it('remembers requests until the hub answers or the client cancels them', () => {
    const talk = new Conversation();
    talk.fromClient(line({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'snapshot' } }));
    talk.fromClient(line({ jsonrpc: '2.0', id: 'b', method: 'tools/list' }));
    talk.fromClient(line({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} }));
    expect([...talk.pending.keys()]).toEqual([1, 'b', 3]);
    expect(talk.fromHub(line({ jsonrpc: '2.0', id: 'b', result: { tools: [] } }))).toBe(true);
    talk.fromClient(line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } }));
    expect([...talk.pending.entries()]).toEqual([[1, { method: 'tools/call', line: line({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'snapshot' } }) }]]);
  });

  it('keeps the legacy handshake to replay, and hides the answer to its replay from the client', () => {
    const talk = new Conversation();
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18' } };
    talk.fromClient(line(init));
    talk.fromClient(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(talk.initialize).toEqual(init);
    expect(talk.initialized).toBe(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(talk.fromHub(line({ jsonrpc: '2.0', id: `${REPLAY_PREFIX}1`, result: {} }))).toBe(false);
    // Notifications and requests from the hub go through untouched, as does anything that is not JSON.
    expect(talk.fromHub(line({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }))).toBe(true);
    expect(talk.fromHub('not json')).toBe(true);
  });

  it('ignores what it cannot read instead of failing', () => {
    const talk = new Conversation();
    for (const bad of ['', '[]', 'null', '{"id":null,"method":"x"}', '{"method":"tools/call"}']) talk.fromClient(bad);
    expect(talk.pending.size).toBe(0);
    expect(talk.initialize).toBeUndefined();
  });

  it('answers a request the hub can no longer answer: a failed tool result for a tool call, else a JSON-RPC error', () => {
    const tool = JSON.parse(orphanAnswer(7, 'tools/call'));
    expect(tool).toMatchObject({ jsonrpc: '2.0', id: 7, result: { isError: true, structuredContent: { error: { code: 'browser_disconnected' } } } });
    expect(tool.result.content[0].text).toMatch(/^Error browser_disconnected: The Oriel hub stopped while this call was running; it was not replayed\./);
    expect(JSON.parse(orphanAnswer('x', 'tools/list'))).toEqual({ jsonrpc: '2.0', id: 'x', error: { code: -32603, message: expect.stringContaining('The Oriel hub stopped') } });
  });
});

describe('oriel native-host: each frame from the browser', () => {
  it('forwards a valid message as it came, framed for the hub', () => {
    const result = { t: 'result', id: 4, ok: true, value: { extra: [1, 2] } };
    expect(judgeBrowserFrame({ kind: 'frame', value: result, bytes: 20 })).toEqual({ forward: encodeFrame(result, INBOUND_MAX_BYTES) });
  });

  it('refuses oversized, non-JSON and unknown frames, saying why', () => {
    expect(judgeBrowserFrame({ kind: 'oversized', bytes: INBOUND_MAX_BYTES + 1 })).toEqual({ reject: `frame of ${INBOUND_MAX_BYTES + 1} bytes exceeds the ${INBOUND_MAX_BYTES}-byte limit` });
    expect(judgeBrowserFrame({ kind: 'invalid_json', bytes: 3, reason: 'Unexpected token' })).toEqual({ reject: 'frame is not UTF-8 JSON (Unexpected token)' });
    for (const value of [null, 42, 'x', { t: 'nope' }, { t: 'result' }, { t: 'result', id: 1.5, ok: true }]) {
      expect(judgeBrowserFrame({ kind: 'frame', value, bytes: 10 })).toEqual({ reject: 'unknown or malformed message type' });
    }
  });

  it('settles the call of a malformed result at once, as an internal error', () => {
    expect(judgeBrowserFrame({ kind: 'frame', value: { t: 'result', id: 12, ok: 'yes' }, bytes: 30 })).toEqual({
      reject: 'unknown or malformed message type',
      settle: { t: 'result', id: 12, ok: false, error: expect.objectContaining({ code: 'internal', message: 'The extension sent a malformed result for this call.' }) },
    });
  });

  it('refuses a frame nested too deeply to pass on, without throwing', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(judgeBrowserFrame({ kind: 'frame', value: { t: 'result', id: 3, ok: true, value: deep }, bytes: 1 })).toEqual({ reject: expect.stringMatching(/^frame could not be checked \(/) });
  });

  it('reads the caller\'s extension id as each browser passes it', () => {
    expect(callerId(['chrome-extension://abcdefghijklmnopabcdefghijklmnop/'])).toBe('abcdefghijklmnopabcdefghijklmnop');
    expect(callerId(['/home/u/.mozilla/native-messaging-hosts/oriel.json', 'oriel@example.org'])).toBe('oriel@example.org');
    expect(callerId(['chrome-extension://not-an-id/'])).toBeUndefined();
    expect(callerId(['oriel@example.org'])).toBeUndefined();
  });
});
