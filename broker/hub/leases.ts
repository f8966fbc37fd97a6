// Leases: one client holding one session across calls (docs/architecture.md, "Leases"). The table mints opaque ids,
// keeps the inactivity TTL and the hard maximum, and remembers recently ended ids so a late call hears `lease_expired`
// rather than `lease_invalid`. The scheduler (./scheduler.ts) decides what a lease means for the queue.
import { randomBytes } from 'node:crypto';
import { errorData, OrielError } from '../../shared/errors.js';
import type { Caller } from '../../shared/call.js';

/** Inactivity TTL when acquire_lease gives none, ms. */
export const DEFAULT_LEASE_TTL_MS = 30_000;
/** Shortest inactivity TTL, ms. */
export const MIN_LEASE_TTL_MS = 1_000;
/** No lease outlives this, counted from its acquisition, whatever its activity, ms. */
export const MAX_LEASE_MS = 10 * 60_000;
/** How many ended lease ids are remembered for `lease_expired` answers. */
const ENDED_MEMORY = 1000;

/** Why a lease ended (said in `lease_expired` messages). */
export type LeaseEnd = 'released' | 'inactive' | 'max_age' | 'holder_gone' | 'session_gone';

const END_WORDS: Record<LeaseEnd, string> = {
  released: 'was released',
  inactive: 'expired: no call quoted it for its TTL',
  max_age: `reached its hard maximum of ${MAX_LEASE_MS / 60_000} minutes`,
  holder_gone: "ended when its client's connection closed",
  session_gone: 'ended with its session (the tab was unshared or closed)',
};

/** One lease. `active` counts the calls under it not yet settled: the inactivity clock runs only at 0. */
export interface Lease {
  /** Opaque id the holder quotes (`lease` argument); 128 random bits. */
  id: string;
  session: string;
  holder: Caller;
  ttlMs: number;
  acquiredAt: number;
  /** The hard end, ms since the Unix epoch. */
  maxUntil: number;
  /** When the inactivity clock last restarted, ms since the Unix epoch. */
  lastActivity: number;
  active: number;
}

/** What others may know of a lease (never its id). */
export interface LeaseInfo {
  holder: Caller;
  /** When it lapses if no call quotes it again, ms since the Unix epoch (its hard end at the latest). */
  expiresAt: number;
  maxUntil: number;
}

/** When `lease` lapses as things stand: its hard end, or `ttlMs` after its last activity (from now while calls run). */
export function expiresAt(lease: Lease, now = Date.now()): number {
  const from = lease.active > 0 ? now : lease.lastActivity;
  return Math.min(from + lease.ttlMs, lease.maxUntil);
}

export class LeaseTable {
  private readonly byId = new Map<string, Lease>();
  private readonly bySession = new Map<string, Lease>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly ended = new Map<string, LeaseEnd>();

  /** @param onEnded - told after a lease ended (to fail the calls waiting under it and move the queue on). */
  constructor(private readonly onEnded: (lease: Lease, why: LeaseEnd) => void) {}

  /** The lease on `session`, if any. */
  onSession(session: string): Lease | undefined {
    return this.bySession.get(session);
  }

  /** Every lease `clientId` holds. */
  heldBy(clientId: string): Lease[] {
    return [...this.byId.values()].filter((l) => l.holder.id === clientId);
  }

  /** Public facts of the lease on `session`. */
  info(session: string, now = Date.now()): LeaseInfo | undefined {
    const l = this.bySession.get(session);
    return l && { holder: { ...l.holder }, expiresAt: expiresAt(l, now), maxUntil: l.maxUntil };
  }

  /**
   * Grants `session` to `holder`. The caller (the scheduler) has checked the session is free.
   * @param ttlMs - inactivity TTL, clamped to [{@link MIN_LEASE_TTL_MS}, {@link MAX_LEASE_MS}].
   */
  grant(session: string, holder: Caller, ttlMs = DEFAULT_LEASE_TTL_MS, now = Date.now()): Lease {
    if (this.bySession.has(session)) throw new Error(`session ${session} is already leased`);
    const lease: Lease = {
      id: `lease_${randomBytes(16).toString('base64url')}`,
      session,
      holder: { ...holder },
      ttlMs: Math.min(Math.max(Math.round(ttlMs), MIN_LEASE_TTL_MS), MAX_LEASE_MS),
      acquiredAt: now,
      maxUntil: now + MAX_LEASE_MS,
      lastActivity: now,
      active: 0,
    };
    this.byId.set(lease.id, lease);
    this.bySession.set(session, lease);
    this.arm(lease);
    return lease;
  }

  /**
   * The live lease `id` if `caller` holds it and it covers `session` (when given).
   * @throws OrielError `lease_expired` (it ended; says how), `lease_invalid` (never issued, another client's, or for
   *   another session).
   */
  check(id: string, caller: Caller, session?: string): Lease {
    const lease = this.byId.get(id);
    if (!lease) {
      const ended = this.endedError(id);
      if (ended) throw ended;
      throw new OrielError(errorData('lease_invalid', 'This lease was never issued (check the id acquire_lease returned).'));
    }
    if (lease.holder.id !== caller.id) throw new OrielError(errorData('lease_invalid', 'This lease belongs to another client; quote only a lease your own acquire_lease returned.'));
    if (session !== undefined && lease.session !== session) {
      throw new OrielError(errorData('lease_invalid', `This lease is for session ${lease.session}, not ${session}. Omit session (the lease names it) or acquire a lease for ${session}.`));
    }
    return lease;
  }

  /** The `lease_expired` error for a lease that ended recently (undefined for an id never issued or long gone). */
  endedError(id: string): OrielError | undefined {
    const end = this.ended.get(id);
    return end && new OrielError(errorData('lease_expired', `The lease ${END_WORDS[end]}; calls since then were not protected from other clients.`));
  }

  /** A call under `lease` starts: the inactivity clock stops until every such call settled. */
  begin(lease: Lease): void {
    lease.active++;
    this.arm(lease);
  }

  /** A call under `lease` settled: the inactivity clock restarts from now. */
  finish(lease: Lease, now = Date.now()): void {
    if (this.byId.get(lease.id) !== lease) return;
    lease.active = Math.max(0, lease.active - 1);
    lease.lastActivity = now;
    this.arm(lease);
  }

  /** Ends `lease` (idempotent). */
  end(lease: Lease, why: LeaseEnd): void {
    if (this.byId.get(lease.id) !== lease) return;
    this.byId.delete(lease.id);
    if (this.bySession.get(lease.session) === lease) this.bySession.delete(lease.session);
    clearTimeout(this.timers.get(lease.id));
    this.timers.delete(lease.id);
    this.ended.set(lease.id, why);
    while (this.ended.size > ENDED_MEMORY) this.ended.delete(this.ended.keys().next().value as string);
    this.onEnded(lease, why);
  }

  /** Sets the one timer of `lease`: the hard end while calls run, else the earlier of TTL lapse and hard end. */
  private arm(lease: Lease): void {
    clearTimeout(this.timers.get(lease.id));
    const now = Date.now();
    const at = lease.active > 0 ? lease.maxUntil : expiresAt(lease, now);
    const why: LeaseEnd = at >= lease.maxUntil ? 'max_age' : 'inactive';
    this.timers.set(
      lease.id,
      setTimeout(() => this.end(lease, why), Math.max(0, at - now)).unref(),
    );
  }
}
