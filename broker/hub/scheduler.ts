// The hub's scheduler: who runs next on each session (docs/architecture.md, "Ordering and leases"). Calls on one
// session run one at a time in arrival order; a session under a lease runs only the calls that quote it, and every
// other call waits (never refused) until the lease ends or the call's own deadline passes. Bounds: calls waiting per
// session, calls in flight per client. A running call may step aside while it waits on something that is not the
// page (a person's answer) and take its turn back after. Leases themselves: ./leases.ts.
import { errorData, OrielError } from '../../shared/errors.js';
import { remainingMs, type Caller } from '../../shared/call.js';
import { LeaseTable, type Lease, type LeaseEnd } from './leases.js';
import { ENDED_BY_USER } from './sessions.js';

/** Most calls queued or running on one session. */
export const MAX_QUEUE_DEPTH = 64;
/** Most calls (page calls and waiting lease requests) one client may have queued or running, over all sessions. */
export const MAX_CLIENT_INFLIGHT = 32;

/** Who asks for a turn on which session, under which lease, until when. */
export interface Ticket {
  session: string;
  caller: Caller;
  /** The lease the call quotes (checked against the caller and the session). */
  lease?: string;
  /** Absolute deadline, ms since the Unix epoch: a call still waiting then leaves the queue with `timeout`. */
  deadline: number;
  /** Aborted when the client cancels: a waiting call leaves the queue with `cancelled`. */
  signal?: AbortSignal;
  /** What the call is, for messages (an operation name). */
  label: string;
}

/** A call whose turn comes with less time than this left is refused as not run rather than started, ms. */
const MIN_TURN_MS = 250;

/**
 * Handed to a running task. `suspend()` frees the session for other calls while this one waits on something outside
 * the page (for example a permission prompt); it returns `resume`, which waits until the call has the session again
 * (ahead of calls that arrived later) and rejects with `lease_expired` if the lease it ran under ended meanwhile.
 */
export interface Slot {
  suspend(): () => Promise<void>;
}

interface Entry {
  ticket: Ticket;
  lease?: Lease;
  /** An acquire_lease request: granted when its turn comes, without holding the session. */
  acquire: boolean;
  /** Called when the entry's turn comes. */
  go(): void;
  fail(error: OrielError): void;
  cleanup(): void;
}

interface Lane {
  running?: Entry;
  waiting: Entry[];
}

export class Scheduler {
  readonly leases = new LeaseTable((lease, why) => this.leaseEnded(lease, why));
  private readonly lanes = new Map<string, Lane>();
  private readonly inflight = new Map<string, number>();

  /** Calls queued or running on `session`. */
  depth(session: string): number {
    const lane = this.lanes.get(session);
    return lane ? lane.waiting.length + (lane.running ? 1 : 0) : 0;
  }

  /** Calls `clientId` has queued or running. */
  inFlight(clientId: string): number {
    return this.inflight.get(clientId) ?? 0;
  }

  /**
   * Runs `task` when its turn comes on `ticket.session`.
   * @throws OrielError `busy` (a bound is reached; nothing was done), `lease_expired`, `lease_invalid`, `timeout` (the
   *   deadline passed while waiting), `cancelled` (the client cancelled or left while waiting), `session_gone`; or what
   *   `task` throws.
   */
  run<T>(ticket: Ticket, task: (slot: Slot) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const lease = this.admit(ticket, reject);
      if (lease === false) return;
      const session = ticket.session;
      let resumeWaiter: { resolve(): void; reject(e: OrielError): void } | undefined;
      const queued = Date.now();
      /** Set once the call is queued: a turn given before that is given at arrival, with the call's whole budget. */
      let waited = false;
      const entry: Entry = this.entry(ticket, lease, false, reject, () => {
        if (resumeWaiter) {
          this.lane(session).running = entry;
          const w = resumeWaiter;
          resumeWaiter = undefined;
          w.resolve();
          return;
        }
        const left = remainingMs(ticket.deadline);
        if (waited && left < MIN_TURN_MS) {
          // Too little time left to do anything: say the call never ran, rather than start it and time out at once.
          this.done(entry);
          reject(
            new OrielError(
              errorData('timeout', `"${ticket.label}" waited ${Date.now() - queued} ms for its turn on this tab and had ${left} ms left when it came, too little to run; it did not run.`, {
                next: 'retry, with a longer timeout_ms if the tab is busy; list_sessions shows who holds each tab',
              }),
            ),
          );
          return;
        }
        this.lane(session).running = entry;
        const slot: Slot = {
          suspend: () => {
            const lane = this.lanes.get(session);
            if (lane?.running !== entry) throw new Error('only the running call can suspend');
            lane.running = undefined;
            this.pump(session);
            return () =>
              new Promise<void>((res, rej) => {
                if (entry.lease && this.leases.onSession(session) !== entry.lease) {
                  rej(this.leases.endedError(entry.lease.id) ?? new OrielError(errorData('lease_expired', 'The lease this call ran under ended while it waited.')));
                  return;
                }
                resumeWaiter = { resolve: res, reject: rej };
                this.lane(session).waiting.unshift(entry);
                this.pump(session);
              });
          },
        };
        let out: Promise<T>;
        try {
          out = task(slot);
        } catch (err) {
          out = Promise.reject(err);
        }
        // The books are settled before the caller hears: its next call finds the lease clock and the queue up to date.
        const settle = () => {
          const lane = this.lanes.get(session);
          if (lane) {
            this.remove(lane, entry);
            if (lane.running === entry) lane.running = undefined;
          }
          this.done(entry);
          this.pump(session);
        };
        out.then(
          (value) => {
            settle();
            resolve(value);
          },
          (err: unknown) => {
            settle();
            reject(err);
          },
        );
      });
      entry.fail = (error) => {
        if (resumeWaiter) {
          // A suspended call whose lease ended: its task hears it through resume and settles itself.
          const w = resumeWaiter;
          resumeWaiter = undefined;
          w.reject(error);
          return;
        }
        entry.cleanup();
        this.done(entry);
        reject(error);
      };
      this.lane(session).waiting.push(entry);
      this.pump(session);
      waited = true;
    });
  }

  /**
   * Grants the session's lease to `ticket.caller` when its turn comes: at once if the session is not leased, else
   * after the lease ends (in arrival order with the session's other calls), unless the ticket's deadline passes first.
   * Quoting a lease the caller holds on the session renews it instead.
   * @throws like {@link run}.
   */
  acquire(ticket: Ticket, ttlMs?: number): Promise<Lease> {
    if (ticket.lease !== undefined) {
      try {
        const lease = this.leases.check(ticket.lease, ticket.caller, ticket.session);
        this.leases.begin(lease);
        this.leases.finish(lease);
        return Promise.resolve(lease);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return new Promise<Lease>((resolve, reject) => {
      if (this.admit(ticket, reject) === false) return;
      const entry = this.entry(ticket, undefined, true, reject, () => {
        this.done(entry);
        resolve(this.leases.grant(ticket.session, ticket.caller, ttlMs));
      });
      this.lane(ticket.session).waiting.push(entry);
      this.pump(ticket.session);
    });
  }

  /**
   * Ends the lease `id` held by `caller`.
   * @throws OrielError `lease_expired`, `lease_invalid`.
   */
  release(id: string, caller: Caller): Lease {
    const lease = this.leases.check(id, caller);
    this.leases.end(lease, 'released');
    return lease;
  }

  /** A client left: its leases end at once and its waiting calls leave the queues. */
  clientGone(clientId: string): void {
    for (const lease of this.leases.heldBy(clientId)) this.leases.end(lease, 'holder_gone');
    for (const [session, lane] of this.lanes) {
      for (const entry of lane.waiting.filter((e) => e.ticket.caller.id === clientId)) {
        this.remove(lane, entry);
        entry.fail(new OrielError(errorData('cancelled', 'The client disconnected before its call ran.')));
      }
      this.pump(session);
    }
  }

  /** A session ended (`why`, in words for the agent): its lease ends and its waiting calls fail with `session_gone`. */
  sessionEnded(session: string, why = ENDED_BY_USER): void {
    const lane = this.lanes.get(session);
    for (const entry of lane?.waiting.splice(0) ?? []) {
      entry.fail(new OrielError(errorData('session_gone', `Session ${session} ended before "${entry.ticket.label}" ran: ${why}.`)));
    }
    if (lane && !lane.running) this.lanes.delete(session);
    const lease = this.leases.onSession(session);
    if (lease) this.leases.end(lease, 'session_gone');
  }

  /** Checks the lease and the bounds; returns the lease (or undefined) or false after rejecting. */
  private admit(ticket: Ticket, reject: (e: OrielError) => void): Lease | undefined | false {
    let lease: Lease | undefined;
    try {
      if (ticket.lease !== undefined) lease = this.leases.check(ticket.lease, ticket.caller, ticket.session);
    } catch (err) {
      reject(err as OrielError);
      return false;
    }
    if (ticket.signal?.aborted) {
      reject(new OrielError(errorData('cancelled', `"${ticket.label}" was cancelled by the client.`)));
      return false;
    }
    if (this.depth(ticket.session) >= MAX_QUEUE_DEPTH) {
      reject(new OrielError(errorData('busy', `This tab is busy: ${MAX_QUEUE_DEPTH} calls are already queued on it. Nothing was done; wait for earlier calls to finish, then retry.`)));
      return false;
    }
    if (this.inFlight(ticket.caller.id) >= MAX_CLIENT_INFLIGHT) {
      reject(
        new OrielError(
          errorData('busy', `This client already has ${MAX_CLIENT_INFLIGHT} calls queued or running. Nothing was done; wait for some to finish, then retry.`, {
            next: 'wait for your earlier calls to finish, then retry the same call',
          }),
        ),
      );
      return false;
    }
    return lease;
  }

  /** Builds a waiting entry: counted for its client, under its lease's clock, leaving at its deadline or abort. */
  private entry(ticket: Ticket, lease: Lease | undefined, acquire: boolean, reject: (e: OrielError) => void, go: () => void): Entry {
    this.inflight.set(ticket.caller.id, this.inFlight(ticket.caller.id) + 1);
    if (lease) this.leases.begin(lease);
    const waitingSince = Date.now();
    const leave = (error: OrielError) => {
      const lane = this.lanes.get(ticket.session);
      if (!lane || !this.remove(lane, entry)) return;
      entry.fail(error);
      this.pump(ticket.session);
    };
    const timer = setTimeout(() => leave(this.waitedTooLong(ticket, waitingSince)), remainingMs(ticket.deadline));
    const onAbort = () => leave(new OrielError(errorData('cancelled', `"${ticket.label}" was cancelled by the client before it ran.`)));
    ticket.signal?.addEventListener('abort', onAbort, { once: true });
    const entry: Entry = {
      ticket,
      ...(lease && { lease }),
      acquire,
      go: () => {
        entry.cleanup();
        go();
      },
      fail: (error) => {
        entry.cleanup();
        this.done(entry);
        reject(error);
      },
      cleanup: () => {
        clearTimeout(timer);
        ticket.signal?.removeEventListener('abort', onAbort);
      },
    };
    return entry;
  }

  /** The `timeout` for a call whose deadline passed before its turn, saying who held the session. */
  private waitedTooLong(ticket: Ticket, since: number): OrielError {
    const held = this.leases.info(ticket.session);
    const waited = Date.now() - since;
    const why = held?.holder.id === ticket.caller.id
      ? `your own lease holds this tab until ${new Date(held.expiresAt).toISOString()} at the latest, and this call did not quote it: pass its id as \`lease\` to run under it, or release_lease`
      : held
      ? `client ${JSON.stringify(held.holder.name)} holds this tab under a lease until ${new Date(held.expiresAt).toISOString()} at the latest (or until it is released)`
      : 'earlier calls on this tab were still running';
    return new OrielError(
      errorData('timeout', `"${ticket.label}" waited ${waited} ms for its turn and did not run: ${why}.`, {
        next: 'retry later, or with a longer timeout_ms; list_sessions shows who holds each tab',
        ...(held && { details: { leased_by: held.holder.name, lease_expires_at: new Date(held.expiresAt).toISOString() } }),
      }),
    );
  }

  /** An entry leaves the books: its client's count drops and its lease's clock may restart. */
  private done(entry: Entry): void {
    const id = entry.ticket.caller.id;
    const n = this.inFlight(id) - 1;
    if (n > 0) this.inflight.set(id, n);
    else this.inflight.delete(id);
    if (entry.lease) this.leases.finish(entry.lease);
  }

  private lane(session: string): Lane {
    let lane = this.lanes.get(session);
    if (!lane) this.lanes.set(session, (lane = { waiting: [] }));
    return lane;
  }

  private remove(lane: Lane, entry: Entry): boolean {
    const at = lane.waiting.indexOf(entry);
    if (at < 0) return false;
    lane.waiting.splice(at, 1);
    return true;
  }

  /** Starts what may run now on `session`: under a lease only its calls; otherwise the first in arrival order. */
  private pump(session: string): void {
    const lane = this.lanes.get(session);
    if (!lane) return;
    while (!lane.running) {
      const lease = this.leases.onSession(session);
      const at = lane.waiting.findIndex((e) => (lease ? e.lease === lease : true));
      if (at < 0) break;
      const [entry] = lane.waiting.splice(at, 1);
      entry!.go();
    }
    if (!lane.running && lane.waiting.length === 0) this.lanes.delete(session);
  }

  /** A lease ended: calls waiting under it fail (they must not run unprotected), and the queue moves on. */
  private leaseEnded(lease: Lease, why: LeaseEnd): void {
    const lane = this.lanes.get(lease.session);
    if (!lane) return;
    for (const entry of lane.waiting.filter((e) => e.lease === lease)) {
      this.remove(lane, entry);
      entry.fail(this.leases.endedError(lease.id) ?? new OrielError(errorData('lease_expired', `The lease ended (${why}) before this call ran.`)));
    }
    this.pump(lease.session);
  }
}
