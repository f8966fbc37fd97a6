// The 2025-era Streamable HTTP sessions of the HTTP transport, and when each ends. A session is one client; it ends
// on the client's `DELETE`, when the client goes away (its standalone SSE stream, which the official SDKs open after
// initialize, closes and is not reopened within a short grace), or after an idle time without requests and without
// an open stream. At the cap, a new session takes the place of the one idle longest that has no open stream.
// https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management. Wired in ./http.ts.

/** Bounds and clocks of a {@link SessionBook}, ms. */
export interface SessionLimits {
  /** Most sessions open at once. */
  max: number;
  /** A session without requests and without an open stream this long ends. */
  idleMs: number;
  /** A session whose last stream closed ends this long after, unless a stream reopens or a request comes. */
  goneMs: number;
}

/** Why a session ended (logged). */
export type SessionEnd = 'idle' | 'gone' | 'evicted';

interface Entry<T> {
  value: T;
  lastSeen: number;
  streams: number;
  gone?: NodeJS.Timeout;
}

/**
 * Book of open sessions: id → what the transport keeps for it. The book never closes a transport itself: it calls
 * `end` and the owner closes, then {@link SessionBook.delete}s.
 */
export class SessionBook<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly end: (id: string, value: T, why: SessionEnd) => void,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(30_000, Math.max(1_000, limits.idleMs / 4))).unref();
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  /** A session opened (its initialize succeeded). */
  add(id: string, value: T): void {
    this.entries.set(id, { value, lastSeen: Date.now(), streams: 0 });
  }

  /** Forgets `id` (its transport closed). */
  delete(id: string): void {
    const e = this.entries.get(id);
    if (e) clearTimeout(e.gone);
    this.entries.delete(id);
  }

  /** A request came in session `id`: it is not idle, and not gone. */
  touch(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    e.lastSeen = Date.now();
    clearTimeout(e.gone);
    e.gone = undefined;
  }

  /** A stream of session `id` opened; returns what to call when it closes. */
  streamOpened(id: string): () => void {
    const e = this.entries.get(id);
    if (!e) return () => undefined;
    e.streams++;
    clearTimeout(e.gone);
    e.gone = undefined;
    let closed = false;
    return () => {
      if (closed || this.entries.get(id) !== e) return;
      closed = true;
      e.streams--;
      e.lastSeen = Date.now();
      if (e.streams === 0) e.gone = setTimeout(() => this.finish(id, 'gone'), this.limits.goneMs).unref();
    };
  }

  /**
   * Makes room for one more session: nothing when below the cap, else ends the session idle longest among those
   * without an open stream. Returns false when every session has an open stream (all clients are there).
   */
  makeRoom(): boolean {
    if (this.entries.size < this.limits.max) return true;
    let oldest: [string, Entry<T>] | undefined;
    for (const pair of this.entries) if (pair[1].streams === 0 && (!oldest || pair[1].lastSeen < oldest[1].lastSeen)) oldest = pair;
    if (!oldest) return false;
    this.finish(oldest[0], 'evicted');
    return true;
  }

  /** Every session, for closing them all. */
  values(): T[] {
    return [...this.entries.values()].map((e) => e.value);
  }

  /** Stops the clocks (serving stops). */
  stop(): void {
    clearInterval(this.sweeper);
    for (const e of this.entries.values()) clearTimeout(e.gone);
  }

  private sweep(now = Date.now()): void {
    for (const [id, e] of this.entries) if (e.streams === 0 && now - e.lastSeen > this.limits.idleMs) this.finish(id, 'idle');
  }

  private finish(id: string, why: SessionEnd): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.delete(id);
    this.end(id, e.value, why);
  }
}
