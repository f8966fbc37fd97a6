// The framer shared by native messaging and the hub socket: partial reads, bytes vs characters, size limits.
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, HOST_TO_BROWSER_MAX_BYTES } from '../../shared/framing.js';

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.byteLength;
  }
  return out;
};

describe('framing', () => {
  it('prefixes the UTF-8 byte length, not the character count', () => {
    const frame = encodeFrame({ s: 'é😀' });
    const body = new TextEncoder().encode(JSON.stringify({ s: 'é😀' }));
    expect(new DataView(frame.buffer).getUint32(0, true)).toBe(body.byteLength);
    expect(body.byteLength).toBeGreaterThan(JSON.stringify({ s: 'é😀' }).length);
  });

  it('decodes frames split at every byte boundary', () => {
    const bytes = concat(encodeFrame({ a: 1 }), encodeFrame({ b: 'ü' }));
    const d = new FrameDecoder();
    const got: unknown[] = [];
    for (const b of bytes) for (const f of d.push(Uint8Array.of(b))) got.push(f.kind === 'frame' ? f.value : f.kind);
    expect(got).toEqual([{ a: 1 }, { b: 'ü' }]);
    expect(d.pendingBytes).toBe(0);
  });

  it('skips an oversized frame and stays in sync for the next one', () => {
    const big = new Uint8Array(4 + 100);
    new DataView(big.buffer).setUint32(0, 100, true);
    const d = new FrameDecoder(50);
    const out = d.push(concat(big.subarray(0, 30)));
    expect(out).toEqual([{ kind: 'oversized', bytes: 100 }]);
    const rest = d.push(concat(big.subarray(30), encodeFrame({ ok: true })));
    expect(rest).toEqual([{ kind: 'frame', value: { ok: true }, bytes: 11 }]);
  });

  it('reports a body that is not JSON and goes on', () => {
    const junk = new TextEncoder().encode('not json');
    const head = new Uint8Array(4);
    new DataView(head.buffer).setUint32(0, junk.byteLength, true);
    const out = new FrameDecoder().push(concat(head, junk, encodeFrame([1])));
    expect(out.map((f) => f.kind)).toEqual(['invalid_json', 'frame']);
  });

  it('reports invalid UTF-8 as invalid, not as mangled text', () => {
    const head = new Uint8Array(4);
    new DataView(head.buffer).setUint32(0, 3, true);
    const out = new FrameDecoder().push(concat(head, Uint8Array.of(0x22, 0xff, 0x22)));
    expect(out[0]?.kind).toBe('invalid_json');
  });

  it('keeps a truncated frame pending so end of stream can report it', () => {
    const frame = encodeFrame({ long: 'x'.repeat(20) });
    const d = new FrameDecoder();
    expect(d.push(frame.subarray(0, 10))).toEqual([]);
    expect(d.pendingBytes).toBe(10);
  });

  it('refuses to encode more than the browser accepts', () => {
    expect(() => encodeFrame({ s: 'x'.repeat(HOST_TO_BROWSER_MAX_BYTES) })).toThrow(RangeError);
  });

  it('stops after the requested number of frames and hands back the rest', () => {
    const d = new FrameDecoder();
    const tail = new TextEncoder().encode('{"jsonrpc":"2.0"}\n');
    const out = d.push(concat(encodeFrame({ hello: 1 }), tail), 1);
    expect(out).toHaveLength(1);
    expect(new TextDecoder().decode(d.detach())).toBe('{"jsonrpc":"2.0"}\n');
  });
});
