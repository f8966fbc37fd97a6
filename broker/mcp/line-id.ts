// Finds the `id` of a JSON-RPC request in a line too long to parse, so the refusal can answer that request (a client
// waits for an answer with its id; one with `id: null` leaves it waiting out its timeout). Reads the bytes as they
// come, keeping only a few bytes of state: the nesting depth, whether it is inside a string, and the top-level key it
// is reading. The `id` may come last (SDKs build `{ ...request, jsonrpc, id }`), so every byte is read once.
// https://www.jsonrpc.org/specification#response_object: "If there was an error in detecting the id in the Request
// object (e.g. Parse error/Invalid Request), it MUST be Null." Used by ./lines.ts.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Longest id kept, bytes (MCP ids are short strings or numbers; a longer one is not echoed). */
const MAX_ID_BYTES = 200;

/** Scans one JSON text in pieces for the value of its top-level `"id"` member. */
export class RequestIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1, whether the next string is a member name. */
  private expectKey = false;
  /** What is being recorded: the current top-level member name, or the id's value. */
  private recording: 'key' | 'id-string' | 'id-number' | undefined;
  private buf: number[] = [];
  private lastKey: string | undefined;
  private valueOfId = false;
  private found: string | number | undefined;
  private broken = false;

  /** The id once read whole (a string or a finite number), else undefined. */
  get id(): string | number | undefined {
    return this.broken ? undefined : this.found;
  }

  /** Whether reading on cannot change {@link id} (found, or the text is not a JSON object). */
  get settled(): boolean {
    return this.broken || this.found !== undefined;
  }

  push(bytes: Buffer): void {
    let i = 0;
    while (i < bytes.length && !this.settled) {
      if (this.inString) {
        i = this.readString(bytes, i);
        continue;
      }
      const c = bytes[i]!;
      if (this.recording === 'id-number') {
        if (/[-+.\deE]/.test(String.fromCharCode(c))) {
          if (this.buf.length < MAX_ID_BYTES) this.buf.push(c);
          i++;
          continue;
        }
        const n = Number(Buffer.from(this.buf).toString('latin1'));
        if (Number.isFinite(n) && this.buf.length < MAX_ID_BYTES) this.found = n;
        else this.broken = true;
        this.recording = undefined;
        continue;
      }
      i++;
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
      if (this.depth === 0 && c !== 0x7b) {
        this.broken = true; // not an object: no id to find
        continue;
      }
      if (c === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.expectKey) this.start('key');
        else if (this.depth === 1 && this.valueOfId) this.start('id-string');
        this.valueOfId = false;
      } else if (c === 0x7b || c === 0x5b) {
        this.depth++;
        this.expectKey = this.depth === 1 && c === 0x7b;
        this.valueOfId = false;
      } else if (c === 0x7d || c === 0x5d) {
        this.depth--;
        if (this.depth <= 0) this.broken = this.found === undefined;
      } else if (this.depth === 1 && c === 0x3a) {
        this.expectKey = false;
        this.valueOfId = this.lastKey === 'id';
      } else if (this.depth === 1 && c === 0x2c) {
        this.expectKey = true;
        this.valueOfId = false;
      } else if (this.depth === 1 && this.valueOfId && (c === 0x2d || (c >= 0x30 && c <= 0x39))) {
        this.start('id-number');
        this.buf.push(c);
        this.valueOfId = false;
      } else this.valueOfId = false;
    }
  }

  private start(what: 'key' | 'id-string' | 'id-number'): void {
    this.recording = what;
    this.buf = [];
  }

  /** Reads string bytes from `i` up to and including the closing quote; returns where reading stopped. */
  private readString(bytes: Buffer, i: number): number {
    if (this.escaped) {
      this.escaped = false;
      this.record(bytes, i, i + 1);
      return i + 1;
    }
    const quote = bytes.indexOf(QUOTE, i);
    const slash = bytes.indexOf(BACKSLASH, i);
    if (slash !== -1 && (quote === -1 || slash < quote)) {
      this.record(bytes, i, slash + 1);
      this.escaped = true;
      return slash + 1;
    }
    if (quote === -1) {
      this.record(bytes, i, bytes.length);
      return bytes.length;
    }
    this.record(bytes, i, quote);
    this.inString = false;
    this.close();
    return quote + 1;
  }

  private record(bytes: Buffer, from: number, to: number): void {
    if (this.recording === undefined || this.recording === 'id-number') return;
    for (let k = from; k < to && this.buf.length <= MAX_ID_BYTES; k++) this.buf.push(bytes[k]!);
  }

  private close(): void {
    if (this.recording === 'key') this.lastKey = this.buf.length <= 8 ? Buffer.from(this.buf).toString('utf8') : undefined;
    else if (this.recording === 'id-string') {
      if (this.buf.length > MAX_ID_BYTES || this.buf.includes(BACKSLASH)) this.broken = true;
      else this.found = Buffer.from(this.buf).toString('utf8');
    }
    this.recording = undefined;
  }
}
