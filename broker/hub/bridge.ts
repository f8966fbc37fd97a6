// The bridge's buffers in the hub: per session, the messages the page posted (docs/bridge.md), numbered, bounded in
// count and bytes, oldest dropped first. Reading does not consume, so every agent keeps its own cursor; a read after
// the end waits (long poll). Fed by `page_message` events (broker/hub/hub.ts); read by await_message
// (broker/mcp/tools/bridge.ts).
import { BRIDGE_LIMITS, type BridgeMessage, type BridgeRead } from '../../shared/bridge.js';
import { errorData, OrielError } from '../../shared/errors.js';
import { ENDED_BY_USER } from './sessions.js';

/** One stored message and its size (bytes of its JSON text). */
interface Stored {
  message: BridgeMessage;
  bytes: number;
}

/** One session's stream. `last` is the highest number given out (messages refused in the page count too). */
interface Stream {
  stored: Stored[];
  bytes: number;
  last: number;
  /** Readers waiting for a message after their cursor. */
  waiters: Set<(ended?: OrielError) => void>;
}

/** What a message adds to a stream: who posted it and its JSON text. */
export interface Incoming {
  document: string;
  origin: string;
  /** JSON text of the page's data. */
  data: string;
  /** Messages refused in the page before this one: their numbers are skipped. */
  skipped: number;
}

/** Bounds of one stream (defaults: {@link BRIDGE_LIMITS}). */
export interface BridgeBounds {
  messages: number;
  bytes: number;
  messageBytes: number;
}

export class BridgeBuffers {
  private readonly streams = new Map<string, Stream>();
  private readonly bounds: BridgeBounds;

  constructor(bounds: Partial<BridgeBounds> = {}) {
    this.bounds = { messages: BRIDGE_LIMITS.bufferMessages, bytes: BRIDGE_LIMITS.bufferBytes, messageBytes: BRIDGE_LIMITS.messageBytes, ...bounds };
  }

  /**
   * Appends one message to `session`'s stream and wakes its readers.
   * @returns the stored message, or a reason it was refused (over the size bound, not JSON); a refused message still
   *   takes its number, so readers see it as dropped.
   */
  append(session: string, incoming: Incoming, now = new Date()): BridgeMessage | { refused: string } {
    const stream = this.stream(session);
    stream.last += incoming.skipped + 1;
    const seq = stream.last;
    const bytes = Buffer.byteLength(incoming.data, 'utf8');
    let refused: string | undefined;
    let data: unknown;
    if (bytes > this.bounds.messageBytes) refused = `message of ${bytes} bytes is over ${this.bounds.messageBytes}`;
    else {
      try {
        data = JSON.parse(incoming.data);
      } catch {
        refused = 'message is not JSON';
      }
    }
    if (refused) {
      this.wake(stream);
      return { refused };
    }
    const message: BridgeMessage = { seq, document: incoming.document, origin: incoming.origin, at: now.toISOString(), data };
    stream.stored.push({ message, bytes });
    stream.bytes += bytes;
    while (stream.stored.length > this.bounds.messages || stream.bytes > this.bounds.bytes) {
      const oldest = stream.stored.shift()!;
      stream.bytes -= oldest.bytes;
    }
    this.wake(stream);
    return message;
  }

  /**
   * The messages of `session` after cursor `after` (at most `max`), without waiting.
   * @throws OrielError `invalid_argument` when `after` is past the end of the stream (a cursor from another session,
   *   or from before the hub restarted).
   */
  read(session: string, after: number, max: number): Omit<BridgeRead, 'timed_out' | 'document'> {
    const stream = this.streams.get(session);
    const last = stream?.last ?? 0;
    if (after > last) {
      throw new OrielError(
        errorData('invalid_argument', `The cursor ${after} is past the end of this session's messages (${last}): it belongs to another session or to a broker that has since restarted. Call await_message without "after" to read from the oldest message kept.`, {
          details: { last },
        }),
      );
    }
    const messages = (stream?.stored ?? []).filter((s) => s.message.seq > after).slice(0, max).map((s) => s.message);
    const next = messages.length > 0 ? messages[messages.length - 1]!.seq : last;
    // Every number between the cursor and `next` that is not returned was dropped (evicted, or refused in the page).
    return { messages, next, dropped: next - after - messages.length };
  }

  /**
   * Like {@link read}, but when nothing follows `after`, waits up to `timeoutMs` for a message.
   * @throws OrielError `invalid_argument` (see {@link read}), `session_gone` when the session ends meanwhile,
   *   `cancelled` when `signal` aborts.
   */
  async wait(session: string, after: number, max: number, timeoutMs: number, signal?: AbortSignal): Promise<Omit<BridgeRead, 'document'>> {
    const first = this.read(session, after, max);
    if (first.next > after || timeoutMs <= 0) return { ...first, timed_out: first.messages.length === 0 };
    const stream = this.stream(session);
    const ended = await new Promise<OrielError | undefined | 'timeout'>((resolve) => {
      const done = (value?: OrielError | 'timeout') => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        stream.waiters.delete(waiter);
        resolve(value);
      };
      const waiter = (gone?: OrielError) => done(gone);
      const onAbort = () => done(new OrielError(errorData('cancelled', 'await_message was cancelled by the client.')));
      const timer = setTimeout(() => done('timeout'), timeoutMs);
      stream.waiters.add(waiter);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    if (ended instanceof OrielError) throw ended;
    const later = this.read(session, after, max);
    return { ...later, timed_out: later.messages.length === 0 };
  }

  /** Forgets the streams of sessions that ended (`why`, in words); their waiting readers fail with `session_gone`. */
  end(sessions: string[], why = ENDED_BY_USER): void {
    for (const id of sessions) {
      const stream = this.streams.get(id);
      if (!stream) continue;
      this.streams.delete(id);
      const gone = new OrielError(errorData('session_gone', `Session ${id} ended while waiting for messages: ${why}.`));
      for (const waiter of [...stream.waiters]) waiter(gone);
    }
  }

  /** What a session's stream holds now (for `oriel status` and tests). */
  stats(session: string): { messages: number; bytes: number; last_seq: number } | undefined {
    const stream = this.streams.get(session);
    return stream && { messages: stream.stored.length, bytes: stream.bytes, last_seq: stream.last };
  }

  private stream(session: string): Stream {
    let stream = this.streams.get(session);
    if (!stream) this.streams.set(session, (stream = { stored: [], bytes: 0, last: 0, waiters: new Set() }));
    return stream;
  }

  private wake(stream: Stream): void {
    for (const waiter of [...stream.waiters]) waiter();
  }
}
