// Length-prefixed JSON frames: the native-messaging wire (Chrome/Firefox) and the hub socket use the same framer.
// https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging#native-messaging-host-protocol

/** Host→browser frames are capped at 1 MB by both browsers (bytes). */
export const HOST_TO_BROWSER_MAX_BYTES = 1024 * 1024;
/** What Oriel accepts from a browser or on the hub socket (bytes). Chrome allows 64 MiB; snapshots are budgeted far below. */
export const INBOUND_MAX_BYTES = 8 * 1024 * 1024;

/** Whether this machine is little-endian: native messaging uses the platform's native byte order. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Encodes one value as a frame: a 32-bit native-endian byte length, then UTF-8 JSON.
 * @throws RangeError when the JSON exceeds `maxBytes` (the caller turns that into `too_large`).
 */
export function encodeFrame(value: unknown, maxBytes: number = HOST_TO_BROWSER_MAX_BYTES): Uint8Array {
  const body = new TextEncoder().encode(JSON.stringify(value));
  if (body.byteLength > maxBytes) throw new RangeError(`frame of ${body.byteLength} bytes exceeds the ${maxBytes}-byte limit`);
  const out = new Uint8Array(4 + body.byteLength);
  new DataView(out.buffer).setUint32(0, body.byteLength, LITTLE_ENDIAN);
  out.set(body, 4);
  return out;
}

/** What {@link FrameDecoder.push} yields for each frame. */
export type DecodedFrame =
  | { kind: 'frame'; value: unknown; bytes: number }
  | { kind: 'oversized'; bytes: number }
  | { kind: 'invalid_json'; bytes: number; reason: string };

/**
 * Incremental decoder for a byte stream of frames. Survives bad input: an oversized frame's body is skipped
 * (the stream stays in sync), and a body that is not UTF-8 JSON is reported and dropped.
 * Call {@link FrameDecoder.end} at end of stream to learn whether a frame was cut short.
 */
export class FrameDecoder {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private skipRemaining = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  /** @param maxBytes - largest body accepted, in bytes. */
  constructor(private readonly maxBytes: number = INBOUND_MAX_BYTES) {}

  /**
   * Feeds bytes; returns every frame completed by them, in order, stopping after `limit` frames (the rest stays
   * buffered; see {@link detach}).
   */
  push(chunk: Uint8Array, limit = Infinity): DecodedFrame[] {
    const out: DecodedFrame[] = [];
    let data = chunk;
    if (this.skipRemaining > 0) {
      const skip = Math.min(this.skipRemaining, data.byteLength);
      this.skipRemaining -= skip;
      data = data.subarray(skip);
      if (data.byteLength === 0) return out;
    }
    this.chunks.push(data);
    this.buffered += data.byteLength;
    for (;;) {
      if (out.length >= limit || this.buffered < 4) return out;
      const header = this.peek(4);
      const length = new DataView(header.buffer, header.byteOffset, 4).getUint32(0, LITTLE_ENDIAN);
      if (length > this.maxBytes) {
        this.take(4);
        const skip = Math.min(length, this.buffered);
        this.take(skip);
        this.skipRemaining = length - skip;
        out.push({ kind: 'oversized', bytes: length });
        if (this.skipRemaining > 0) return out;
        continue;
      }
      if (this.buffered < 4 + length) return out;
      this.take(4);
      const body = this.take(length);
      try {
        out.push({ kind: 'frame', value: JSON.parse(this.decoder.decode(body)), bytes: length });
      } catch (err) {
        out.push({ kind: 'invalid_json', bytes: length, reason: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  /** Bytes of an incomplete frame still held (non-zero at end of stream means a truncated frame). */
  get pendingBytes(): number {
    return this.buffered + this.skipRemaining;
  }

  /**
   * Hands back the bytes buffered after the last complete frame and stops decoding: used when a connection switches
   * from frames to another encoding after its first frame (the hub's client connections).
   */
  detach(): Uint8Array {
    const rest = this.buffered ? this.concat().slice() : new Uint8Array(0);
    this.chunks = [];
    this.buffered = 0;
    return rest;
  }

  private peek(n: number): Uint8Array {
    const first = this.chunks[0];
    if (first && first.byteLength >= n) return first.subarray(0, n);
    return this.concat().subarray(0, n);
  }

  private take(n: number): Uint8Array {
    if (n === 0) return new Uint8Array(0);
    const all = this.concat();
    const taken = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.byteLength ? [rest] : [];
    this.buffered = rest.byteLength;
    return taken;
  }

  private concat(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0]!;
    const all = new Uint8Array(this.buffered);
    let offset = 0;
    for (const c of this.chunks) {
      all.set(c, offset);
      offset += c.byteLength;
    }
    this.chunks = [all];
    return all;
  }
}
