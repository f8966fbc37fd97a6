// The MCP clients the hub knows: each connection is its own caller (id minted by the hub, name from the client's
// `clientInfo`), so calls, leases and message cursors can name who asked. A client's name is a label it chose, never
// an identity: two clients that give the same name (or none) get distinct labels, which prompts and `list_sessions`
// show. Connections: broker/mcp/connection.ts (stdio), broker/mcp/http.ts (HTTP).
import type { Caller } from '../../shared/call.js';

/** Longest client name kept, characters (names are the client's own words). */
const MAX_NAME_CHARS = 200;
/** The label of a client that gave no name. */
export const UNNAMED_CLIENT = 'MCP client';

export class ClientTable {
  private readonly clients = new Map<string, Caller & { since: Date; given: string }>();

  get size(): number {
    return this.clients.size;
  }

  /**
   * Registers a new connection under `id`; `name` may be refined later by {@link rename}. The caller's `name` is a
   * label distinct from every other client's: the name itself when no other client uses it, else the name followed by
   * ` #2`, ` #3`… (the smallest free number); an empty name is labelled {@link UNNAMED_CLIENT} alike.
   */
  add(id: string, name: string): Caller {
    const given = clean(name);
    const caller = { id, name: this.label(given, id), given, since: new Date() };
    this.clients.set(id, caller);
    return { id, name: caller.name };
  }

  /** Sets the name a client gave in its `clientInfo` (first seen on initialize or on a request's envelope). */
  rename(id: string, name: string): void {
    const c = this.clients.get(id);
    const given = clean(name);
    if (!c || !name || given === c.given) return;
    c.given = given;
    c.name = this.label(given, id);
  }

  /** The caller with `id`, or undefined once it disconnected. */
  get(id: string): Caller | undefined {
    const c = this.clients.get(id);
    return c && { id: c.id, name: c.name };
  }

  /** The name client `id` gave itself (trimmed, bounded; not made distinct), or undefined once it disconnected. */
  givenName(id: string): string | undefined {
    return this.clients.get(id)?.given;
  }

  /** Forgets `id`; returns the caller it was. */
  remove(id: string): Caller | undefined {
    const c = this.clients.get(id);
    this.clients.delete(id);
    return c && { id: c.id, name: c.name };
  }

  all(): Array<Caller & { since: Date }> {
    return [...this.clients.values()].map(({ id, name, since }) => ({ id, name, since }));
  }

  /** A label for `given` that no other client (but `self`) has now. */
  private label(given: string, self: string): string {
    const taken = new Set<string>();
    for (const c of this.clients.values()) if (c.id !== self) taken.add(c.name);
    if (!taken.has(given)) return given;
    for (let n = 2; ; n++) {
      const label = `${given.slice(0, MAX_NAME_CHARS - 8)} #${n}`;
      if (!taken.has(label)) return label;
    }
  }
}

function clean(name: string): string {
  const trimmed = name.trim().slice(0, MAX_NAME_CHARS);
  return trimmed === '' ? UNNAMED_CLIENT : trimmed;
}
