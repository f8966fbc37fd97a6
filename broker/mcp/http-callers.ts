// Who calls over HTTP in the 2026-07-28 revision. That revision has no session and no connection a server may rely on:
// a request carries all it needs, and state spanning requests is named by an explicit identifier the client passes
// (https://modelcontextprotocol.io/specification/2026-07-28/basic#statelessness). The client's name is a label only.
// So each HTTP exchange is its own caller, and a lease (an unguessable id shown only to the client that acquired it)
// is the identifier that carries a hold across requests: an exchange quoting a lease acquired in this era runs as its
// holder. Counterpart of the 2025-era sessions (./http-sessions.ts); wired in ./http.ts.
import { randomBytes } from 'node:crypto';
import type { Hub } from '../hub/hub.js';
import type { Caller } from '../../shared/call.js';
import { orielError } from '../../shared/errors.js';

/** The callers of one HTTP exchange: the one it acts as, made when a tool first needs it. */
export interface Exchange {
  /** The caller a tool call of this exchange acts as: the holder of `lease` when that is a live 2026-era lease, else the exchange's own caller. */
  callerFor(lease: string | undefined, name: string | undefined): Caller;
  /** The exchange ended (answered, or its client went away): its own caller leaves unless it now holds a lease. */
  end(): void;
}

/** The 2026-07-28-era callers the hub knows through the HTTP transport, and their bounds. */
export class ModernCallers {
  /** Callers of exchanges in flight: id → caller. */
  private readonly open = new Map<string, Caller>();
  /** Callers whose exchange ended while they held a lease: id → caller, kept until their last lease ends. */
  private readonly holders = new Map<string, Caller>();

  /** @param maxOpen - most exchanges acting at once (each a caller); more fail with `busy`. */
  constructor(
    private readonly hub: Hub,
    private readonly maxOpen: number,
  ) {}

  /** How many callers are known (in flight plus lease holders). */
  get size(): number {
    return this.open.size + this.holders.size;
  }

  /** Starts the books of one HTTP exchange. */
  exchange(): Exchange {
    let own: Caller | undefined;
    let held: Caller | undefined;
    return {
      callerFor: (lease, name) => {
        if (lease !== undefined) {
          const holder = this.holderOf(lease);
          if (holder) return (held = holder);
        }
        if (own) return own;
        if (this.open.size >= this.maxOpen) {
          throw orielError('busy', `Too many HTTP calls at once (${this.maxOpen}); nothing was done.`);
        }
        const caller = this.hub.clients.add(`m${randomBytes(6).toString('hex')}`, name ?? '');
        this.hub.events.emit('client_connected', caller);
        this.open.set(caller.id, caller);
        return (own = caller);
      },
      end: () => {
        if (own && this.open.delete(own.id)) {
          if (this.holds(own.id)) this.holders.set(own.id, own);
          else this.leave(own.id);
        }
        if (held && !this.holds(held.id) && this.holders.delete(held.id)) this.leave(held.id);
      },
    };
  }

  /** Forgets holders whose leases all ended (released, lapsed, or their session gone). */
  sweep(): void {
    for (const id of this.holders.keys()) {
      if (!this.holds(id)) {
        this.holders.delete(id);
        this.leave(id);
      }
    }
  }

  /** Every caller leaves (serving stops): their leases end. */
  clear(): void {
    for (const id of [...this.open.keys(), ...this.holders.keys()]) this.leave(id);
    this.open.clear();
    this.holders.clear();
  }

  private holderOf(lease: string): Caller | undefined {
    for (const caller of this.holders.values()) if (this.hub.scheduler.leases.heldBy(caller.id).some((l) => l.id === lease)) return caller;
    for (const caller of this.open.values()) if (this.hub.scheduler.leases.heldBy(caller.id).some((l) => l.id === lease)) return caller;
    return undefined;
  }

  private holds(id: string): boolean {
    return this.hub.scheduler.leases.heldBy(id).length > 0;
  }

  private leave(id: string): void {
    const gone = this.hub.clients.remove(id);
    if (gone) this.hub.events.emit('client_gone', gone);
  }
}
