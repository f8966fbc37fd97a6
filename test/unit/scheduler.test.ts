// The hub's scheduler (broker/hub/scheduler.ts) and lease table: arrival order, bounds, leases that hold a session for
// one client while others wait, expiry (inactivity and hard maximum, on a fake clock), a client leaving, suspension.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_CLIENT_INFLIGHT, MAX_QUEUE_DEPTH, Scheduler, type Ticket } from '../../broker/hub/scheduler.js';
import { MAX_LEASE_MS } from '../../broker/hub/leases.js';

const A = { id: 'ca', name: 'agent A' };
const B = { id: 'cb', name: 'agent B' };
const S = 'inst01-7';

function ticket(caller = A, extra: Partial<Ticket> = {}): Ticket {
  return { session: S, caller, deadline: Date.now() + 60_000, label: 'click', ...extra };
}

/** A task that records its start and finishes when told. */
function gated(log: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return {
    task: async () => {
      log.push(name);
      await done;
      return name;
    },
    open: () => open(),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

afterEach(() => {
  vi.useRealTimers();
});

describe('Scheduler without leases', () => {
  it('runs calls one at a time in arrival order and goes on after a failure', async () => {
    const s = new Scheduler();
    const log: string[] = [];
    const a = gated(log, 'a');
    const pa = s.run(ticket(A), a.task);
    const pb = s.run(ticket(B), () => Promise.reject(new Error('b failed')));
    const pc = s.run(ticket(A), async () => log.push('c'));
    await tick();
    expect(log).toEqual(['a']);
    a.open();
    await expect(pa).resolves.toBe('a');
    await expect(pb).rejects.toThrow('b failed');
    await pc;
    expect(log).toEqual(['a', 'c']);
    expect(s.depth(S)).toBe(0);
    expect(s.inFlight(A.id)).toBe(0);
  });

  it('does not start a queued call whose turn comes with almost no time left, and says it never ran; a short call that need not wait runs', async () => {
    vi.useFakeTimers();
    const s = new Scheduler();
    const log: string[] = [];
    const a = gated(log, 'a');
    const pa = s.run(ticket(A), a.task);
    const late = s.run(ticket(B, { deadline: Date.now() + 1_000 }), async () => log.push('late')).catch((e: { data: { code: string; message: string } }) => e.data);
    await vi.advanceTimersByTimeAsync(900);
    a.open();
    await pa;
    const refused = await late;
    expect(refused).toMatchObject({ code: 'timeout' });
    expect((refused as { message: string }).message).toMatch(/had \d+ ms left when it came, too little to run; it did not run/);
    expect(log).toEqual(['a']);
    // Arriving at a free tab, a call with a short budget runs.
    await s.run(ticket(B, { deadline: Date.now() + 100 }), async () => log.push('short'));
    expect(log).toEqual(['a', 'short']);
  });

  it('answers busy (retryable, nothing done) past the session depth, and past one client\'s in-flight bound', async () => {
    const s = new Scheduler();
    const log: string[] = [];
    const g = gated(log, 'g');
    // Different clients fill one session.
    const runs = Array.from({ length: MAX_QUEUE_DEPTH }, (_, i) => s.run(ticket({ id: `c${i}`, name: 'x' }), g.task));
    let ran = false;
    const refused = await s.run(ticket(B), async () => (ran = true)).catch((e: unknown) => e);
    expect(refused).toMatchObject({ data: { code: 'busy', retryable: true } });
    g.open();
    await Promise.all(runs);
    expect(ran).toBe(false);

    // One client over many sessions.
    const h = gated(log, 'h');
    const mine = Array.from({ length: MAX_CLIENT_INFLIGHT }, (_, i) => s.run(ticket(A, { session: `inst01-${i}` }), h.task));
    const over = await s.run(ticket(A, { session: 'inst01-999' }), async () => 1).catch((e: unknown) => e);
    expect(over).toMatchObject({ data: { code: 'busy', retryable: true } });
    expect((over as { data: { message: string } }).data.message).toMatch(/this client already has 32 calls/i);
    // Another client is not affected by A's bound.
    await expect(s.run(ticket(B, { session: 'inst01-999' }), async () => 'b')).resolves.toBe('b');
    h.open();
    await Promise.all(mine);
  });

  it('a waiting call leaves with timeout at its deadline and with cancelled when its client cancels', async () => {
    vi.useFakeTimers();
    const s = new Scheduler();
    const log: string[] = [];
    const g = gated(log, 'g');
    const first = s.run(ticket(A), g.task);
    const late = s.run(ticket(B, { deadline: Date.now() + 1_000 }), async () => log.push('late'));
    const ac = new AbortController();
    const cancelled = s.run(ticket(B, { signal: ac.signal }), async () => log.push('cancelled'));
    ac.abort();
    await expect(cancelled).rejects.toMatchObject({ data: { code: 'cancelled' } });
    vi.advanceTimersByTime(1_001);
    await expect(late).rejects.toMatchObject({ data: { code: 'timeout' } });
    g.open();
    await first;
    expect(log).toEqual(['g']);
  });
});

describe('Scheduler with leases', () => {
  it('runs only the holder\'s leased calls while others wait, then the others in arrival order after release', async () => {
    const s = new Scheduler();
    const log: string[] = [];
    const lease = await s.acquire(ticket(A));
    const b1 = s.run(ticket(B), async () => log.push('b1'));
    // The holder's own call without the lease waits too: only quoting the lease runs under it.
    const aPlain = s.run(ticket(A), async () => log.push('a-plain'));
    const a1 = gated(log, 'a1');
    const pa1 = s.run(ticket(A, { lease: lease.id }), a1.task);
    const pa2 = s.run(ticket(A, { lease: lease.id }), async () => log.push('a2'));
    await tick();
    expect(log).toEqual(['a1']);
    a1.open();
    await pa1;
    await pa2;
    await tick();
    expect(log).toEqual(['a1', 'a2']);
    expect(s.leases.info(S)?.holder).toEqual(A);
    s.release(lease.id, A);
    await Promise.all([b1, aPlain]);
    expect(log).toEqual(['a1', 'a2', 'b1', 'a-plain']);
    // Released: quoting it again says so.
    await expect(s.run(ticket(A, { lease: lease.id }), async () => 1)).rejects.toMatchObject({ data: { code: 'lease_expired', next: expect.stringMatching(/acquire_lease/) } });
  });

  it('refuses a foreign, made-up or other-session lease with lease_invalid', async () => {
    const s = new Scheduler();
    const lease = await s.acquire(ticket(A));
    await expect(s.run(ticket(B, { lease: lease.id }), async () => 1)).rejects.toMatchObject({ data: { code: 'lease_invalid', retryable: false } });
    await expect(s.run(ticket(A, { lease: 'lease_madeup' }), async () => 1)).rejects.toMatchObject({ data: { code: 'lease_invalid' } });
    await expect(s.run(ticket(A, { lease: lease.id, session: 'inst01-8' }), async () => 1)).rejects.toMatchObject({ data: { code: 'lease_invalid' } });
    expect(() => s.release(lease.id, B)).toThrow(expect.objectContaining({ data: expect.objectContaining({ code: 'lease_invalid' }) }));
    // The foreign attempt changed nothing.
    expect(s.leases.info(S)?.holder).toEqual(A);
  });

  it('expires after its TTL of inactivity; each call under it renews it; waiting calls then run', async () => {
    vi.useFakeTimers();
    const s = new Scheduler();
    const log: string[] = [];
    const lease = await s.acquire(ticket(A), 2_000);
    const waiting = s.run(ticket(B, { deadline: Date.now() + 60_000 }), async () => log.push('b'));
    vi.advanceTimersByTime(1_500);
    await s.run(ticket(A, { lease: lease.id }), async () => log.push('a'));
    // 1.5 s after the renewal it still holds (3 s after acquisition, past the first TTL).
    vi.advanceTimersByTime(1_500);
    await flush();
    expect(s.leases.info(S)?.holder).toEqual(A);
    expect(log).toEqual(['a']);
    vi.advanceTimersByTime(600);
    await waiting;
    expect(log).toEqual(['a', 'b']);
    await expect(s.run(ticket(A, { lease: lease.id }), async () => 1)).rejects.toMatchObject({ data: { code: 'lease_expired', message: expect.stringMatching(/TTL/) } });
  });

  it('does not lapse while a call under it runs, but ends at its hard maximum whatever the activity', async () => {
    vi.useFakeTimers();
    const s = new Scheduler();
    const log: string[] = [];
    const lease = await s.acquire(ticket(A), 1_000);
    const long = gated(log, 'long');
    const running = s.run(ticket(A, { lease: lease.id, deadline: Date.now() + MAX_LEASE_MS * 2 }), long.task);
    vi.advanceTimersByTime(5_000);
    expect(s.leases.info(S)?.holder).toEqual(A);
    vi.advanceTimersByTime(MAX_LEASE_MS);
    expect(s.leases.info(S)).toBeUndefined();
    long.open();
    await running;
    await expect(s.run(ticket(A, { lease: lease.id }), async () => 1)).rejects.toMatchObject({ data: { code: 'lease_expired', message: expect.stringMatching(/hard maximum/) } });
  });

  it('ends the leases of a client that leaves at once; its waiting calls are dropped, others run', async () => {
    const s = new Scheduler();
    const log: string[] = [];
    const lease = await s.acquire(ticket(A));
    const b = s.run(ticket(B), async () => log.push('b'));
    const aWaiting = s.run(ticket(A), async () => log.push('a'));
    await tick();
    expect(log).toEqual([]);
    s.clientGone(A.id);
    await expect(aWaiting).rejects.toMatchObject({ data: { code: 'cancelled' } });
    await b;
    expect(log).toEqual(['b']);
    expect(s.leases.info(S)).toBeUndefined();
    expect(() => s.release(lease.id, A)).toThrow(expect.objectContaining({ data: expect.objectContaining({ code: 'lease_expired' }) }));
  });

  it('queues a second acquire until the first lease ends, in turn with other calls; the wait is bounded by its deadline', async () => {
    vi.useFakeTimers();
    const s = new Scheduler();
    const first = await s.acquire(ticket(A));
    const tooShort = s.acquire(ticket(B, { deadline: Date.now() + 500 }));
    vi.advanceTimersByTime(501);
    const refused = await tooShort.catch((e: unknown) => e);
    expect(refused).toMatchObject({ data: { code: 'timeout', details: { leased_by: 'agent A' } } });
    expect((refused as { data: { message: string } }).data.message).toMatch(/agent A.*lease/);
    const second = s.acquire(ticket(B));
    s.release(first.id, A);
    const granted = await second;
    expect(s.leases.info(S)?.holder).toEqual(B);
    expect(granted.id).not.toBe(first.id);
    // Quoting one's own lease renews it rather than queueing behind it.
    await expect(s.acquire(ticket(B, { lease: granted.id }))).resolves.toBe(granted);
  });

  it('fails the holder\'s calls still waiting under a lease when it ends: they must not run unprotected', async () => {
    const s = new Scheduler();
    const log: string[] = [];
    const lease = await s.acquire(ticket(A));
    const g = gated(log, 'g');
    const p1 = s.run(ticket(A, { lease: lease.id }), g.task);
    const p2 = s.run(ticket(A, { lease: lease.id }), async () => log.push('second'));
    await tick();
    s.release(lease.id, A);
    await expect(p2).rejects.toMatchObject({ data: { code: 'lease_expired' } });
    g.open();
    await p1;
    expect(log).toEqual(['g']);
  });

  it('a session that ends takes its lease and waiting calls with it', async () => {
    const s = new Scheduler();
    const lease = await s.acquire(ticket(A));
    const waiting = s.run(ticket(B), async () => 1);
    s.sessionEnded(S);
    await expect(waiting).rejects.toMatchObject({ data: { code: 'session_gone' } });
    await expect(s.run(ticket(A, { lease: lease.id }), async () => 1)).rejects.toMatchObject({ data: { code: 'lease_expired', message: expect.stringMatching(/session/) } });
  });
  it("tells a holder whose own unquoted call waited out its deadline that its own lease held the tab, and how to run under it", async () => {
    vi.useFakeTimers();
    const s = new Scheduler();
    const lease = await s.acquire(ticket(A), 60_000);
    const plain = s.run(ticket(A, { deadline: Date.now() + 2_000 }), async () => 'ran').catch((e: { data: { code: string; message: string } }) => e.data);
    await vi.advanceTimersByTimeAsync(2_100);
    const refused = await plain;
    expect(refused).toMatchObject({ code: 'timeout' });
    expect((refused as { message: string }).message).toMatch(/your own lease holds this tab .* pass its id as `lease`/);
    s.release(lease.id, A);
  });
});

describe('Scheduler suspension', () => {
  it('a running call that suspends lets the next run, then takes its turn back ahead of later arrivals', async () => {
    const s = new Scheduler();
    const log: string[] = [];
    let resumeNow!: () => void;
    const prompt = new Promise<void>((r) => (resumeNow = r));
    const first = s.run(ticket(A), async (slot) => {
      log.push('a: asks the person');
      const resume = slot.suspend();
      await prompt;
      await resume();
      log.push('a: acts');
    });
    const b = gated(log, 'b');
    const pb = s.run(ticket(B), b.task);
    await tick();
    expect(log).toEqual(['a: asks the person', 'b']);
    resumeNow();
    const pc = s.run(ticket(B), async () => log.push('c'));
    await tick();
    // a waits for b (which runs) but goes before c (which came later).
    expect(log).toEqual(['a: asks the person', 'b']);
    b.open();
    await Promise.all([first, pb, pc]);
    expect(log).toEqual(['a: asks the person', 'b', 'a: acts', 'c']);
  });
});
