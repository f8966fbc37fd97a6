// The MCP clients the hub knows: each connection is its own caller (id minted by the hub, name from the client's
// `clientInfo`), so calls, leases and message cursors can name who asked. Connections: broker/mcp/connection.ts.
import type { Caller } from '../../shared/call.js';

/** Longest client name kept, characters (names are the client's own words). */
const MAX_NAME_CHARS = 200;

export class ClientTable {
  private readonly clients = new Map<string, Caller & { since: Date }>();

  get size(): number {
    return this.clients.size;
  }

  /** Registers a new connection under `id`; `name` may be refined later by {@link rename}. */
  add(id: string, name: string): Caller {
    const caller = { id, name: name.slice(0, MAX_NAME_CHARS), since: new Date() };
    this.clients.set(id, caller);
    return { id, name: caller.name };
  }

  /** Sets the name a client gave in its `clientInfo` (first seen on initialize or on a request's envelope). */
  rename(id: string, name: string): void {
    const c = this.clients.get(id);
    if (c && name) c.name = name.slice(0, MAX_NAME_CHARS);
  }

  /** The caller with `id`, or undefined once it disconnected. */
  get(id: string): Caller | undefined {
    const c = this.clients.get(id);
    return c && { id: c.id, name: c.name };
  }

  /** Forgets `id`; returns the caller it was. */
  remove(id: string): Caller | undefined {
    const c = this.clients.get(id);
    this.clients.delete(id);
    return c && { id: c.id, name: c.name };
  }

  all(): Array<Caller & { since: Date }> {
    return [...this.clients.values()].map((c) => ({ ...c }));
  }
}
