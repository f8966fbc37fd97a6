// Newline-delimited JSON-RPC between a client and the hub: splits lines and bounds their size, answering an oversized
// one with the JSON-RPC error a client expects. What a whole line holds is judged by ./line-check.ts (the hub's side).
// https://www.jsonrpc.org/specification#error_object
import { RequestIdScanner } from './line-id.js';

/** Longest line accepted from a client, in bytes. The SDK transport itself gives up at 10 MiB. */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

/** The JSON-RPC error for a line over `limit` bytes, which is dropped unparsed. */
export function oversizedError(limit: number = MAX_LINE_BYTES): { code: number; message: string } {
  return { code: -32600, message: `Invalid request: oversized message (over ${limit} bytes); it was dropped, nothing was done` };
}

/**
 * The JSON-RPC answer to an oversized line: an error for the request's `id` when it could be read from the line,
 * else with `id: null` (https://www.jsonrpc.org/specification#response_object).
 */
export function oversizedReply(id: string | number | undefined, limit: number = MAX_LINE_BYTES): string {
  return JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error: oversizedError(limit) });
}

/** One item a {@link LineSplitter} yields: a whole line, or the report of one too long (with its request id if read). */
export type LineItem = { line: string } | { oversized: true; id?: string | number };

/**
 * Incremental line splitter with a size bound. Feed bytes with {@link LineSplitter.push}; complete lines come back
 * in order. A line longer than `maxBytes` is not kept: its bytes are only scanned for the request's `id` up to its
 * newline, and it is reported once as `oversized`.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while skipping an oversized line. */
  private skipping: RequestIdScanner | undefined;

  constructor(private readonly maxBytes: number = MAX_LINE_BYTES) {}

  push(chunk: Buffer): LineItem[] {
    const out: LineItem[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      if (this.skipping) {
        if (!this.skipping.settled) this.skipping.push(chunk.subarray(start, end));
      } else {
        this.parts.push(chunk.subarray(start, end));
        this.size += end - start;
        if (this.size > this.maxBytes) {
          this.skipping = new RequestIdScanner();
          for (const part of this.parts) this.skipping.push(part);
          this.parts = [];
          this.size = 0;
        }
      }
      if (nl < 0) return out;
      if (this.skipping) {
        const id = this.skipping.id;
        out.push({ oversized: true, ...(id !== undefined && { id }) });
      } else out.push({ line: Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '') });
      this.parts = [];
      this.size = 0;
      this.skipping = undefined;
      start = nl + 1;
    }
  }
}
