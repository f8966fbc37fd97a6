// The load half of `npm run bench` (docs/BENCHMARKS.md, "Load"): several MCP clients on several shared tabs of one
// Chromium through the real chain; calls/s and latency per tool, and a check that every answer came from the tab asked
// (0 lost, 0 misrouted); the hub's memory across many calls; the content script's registry memory across many
// elements created and removed; the time a stopped service worker takes to be usable again.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { FIXTURES, call, launchRig, serveFixtures, until, type Rig } from '../test/e2e/harness.js';
import { timedCall } from './mcp.js';
import { latency, percentile, round, type Latency } from './stats.js';

export interface LoadPlan {
  clients: number;
  tabs: number;
  /** Calls each client keeps in flight at once. */
  inFlightPerClient: number;
  mixedCalls: number;
  extractCalls: number;
  /** Calls between the two hub memory readings. */
  memoryCalls: number;
  /** Elements created (and removed again) in the registry churn. */
  churnElements: number;
  churnBatch: number;
  restarts: number;
}

export interface PhaseResult {
  calls: number;
  seconds: number;
  callsPerSecond: number;
  perTool: Record<string, Latency>;
  lost: number;
  misrouted: number;
  load: string;
}

export interface LoadResults {
  plan: LoadPlan;
  mixed: PhaseResult;
  extract: PhaseResult;
  hubMemory: { calls: number; rssMiB: number[]; at: number[]; lost: number };
  registry: { elements: number; heapMiB: number[]; at: number[] };
  restart: { runs: number; failedAfterMs: number[]; usableAfterMs: number[] };
}

type Op = 'extract' | 'snapshot' | 'click';
const loadavg = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const mib = (bytes: number) => round(bytes / 1024 / 1024, 1);

/** Resident memory of a process, bytes (Linux /proc). */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

interface Tabs {
  /** Session id of tab k (1-based). */
  session: string[];
  clicks: number[];
}

/**
 * Runs `total` calls spread over the clients (each keeping `inFlight` going) and the tabs, checking each answer: an
 * error is lost; an answer naming another tab is misrouted. Clicks are counted per tab for the final check.
 */
async function drive(clients: Client[], tabs: Tabs, total: number, inFlight: number, pick: (i: number) => Op): Promise<PhaseResult & { times: Record<Op, number[]> }> {
  const times: Record<Op, number[]> = { extract: [], snapshot: [], click: [] };
  let next = 0;
  let lost = 0;
  let misrouted = 0;
  const load = loadavg();
  const t0 = performance.now();
  const worker = async (client: Client) => {
    for (let i = next++; i < total; i = next++) {
      const op = pick(i);
      const k = 1 + (i % tabs.session.length);
      const session = tabs.session[k - 1]!;
      const args: Record<string, unknown> = op === 'extract' ? { session, selector: '#who' } : op === 'click' ? { session, selector: '#add' } : { session };
      try {
        const r = await timedCall(client, op, args);
        times[op].push(r.ms);
        if (r.isError) lost++;
        else if (op === 'extract' && r.structured.value !== `Counter of tab ${k}`) misrouted++;
        else if (op === 'snapshot' && !namesOnly(r.text, k)) misrouted++;
        else if (op === 'click') tabs.clicks[k - 1]!++;
      } catch {
        lost++;
      }
    }
  };
  await Promise.all(clients.flatMap((c) => Array.from({ length: inFlight }, () => worker(c))));
  const seconds = (performance.now() - t0) / 1000;
  const perTool = Object.fromEntries(Object.entries(times).filter(([, v]) => v.length > 0).map(([k, v]) => [k, latency(v)]));
  return { calls: total, seconds: round(seconds, 1), callsPerSecond: round(total / seconds, 0), perTool, lost, misrouted, load, times };
}

/** Whether an outline names tab `k` and no other tab. */
function namesOnly(text: string, k: number): boolean {
  const named = [...text.matchAll(/Counter of tab (\d+)/g)].map((m) => m[1]);
  return named.length > 0 && named.every((n) => n === String(k));
}

/** After a phase: each tab's counter must equal the clicks that phase and earlier ones sent it. */
async function checkCounts(client: Client, tabs: Tabs): Promise<number> {
  let wrong = 0;
  for (let k = 1; k <= tabs.session.length; k++) {
    const r = await call(client, 'extract', { session: tabs.session[k - 1], selector: '#count' });
    if (Number(r.structured.value) !== tabs.clicks[k - 1]) wrong++;
  }
  return wrong;
}

const CHURN_PAGE = `<!doctype html><title>Churn</title><h1>Churn</h1><div id="box"></div>
<script>
  // Replaces the box's content with n new buttons: the elements of the previous round become garbage.
  window.churn = (n) => document.getElementById('box').replaceChildren(...Array.from({ length: n }, (_, i) => {
    const b = document.createElement('button');
    b.textContent = 'Item ' + i;
    return b;
  }));
</script>`;

/** The page's heap after garbage collection (the content script's isolated world shares the page's heap), bytes. */
async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.createCDPSession();
  try {
    for (let i = 0; i < 3; i++) {
      await cdp.send('HeapProfiler.collectGarbage');
      // FinalizationRegistry callbacks run in a later task.
      await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
    }
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize;
  } finally {
    await cdp.detach();
  }
}

/** Runs the whole load benchmark on a fresh Chromium rig; `log` reports progress. */
export async function runLoad(plan: LoadPlan, log: (s: string) => void): Promise<LoadResults> {
  const site = await serveFixtures(path.join(FIXTURES, 'leases'), {
    '/churn.html': (_q, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(CHURN_PAGE),
  });
  let rig: Rig | undefined;
  try {
    rig = await launchRig('chromium', { hubIdleMs: 600_000 });
    const r = rig;
    log(`load: sharing ${plan.tabs} counter tabs`);
    for (let k = 1; k <= plan.tabs; k++) {
      await r.open(`${site.url}/counter.html?tab=${k}`);
      // The popup's switch can miss its 5 s window on a loaded machine: one more try.
      await r.share(`counter.html?tab=${k}`).catch(() => r.share(`counter.html?tab=${k}`));
    }
    const clients: Client[] = [];
    for (let c = 0; c < plan.clients; c++) clients.push(await r.client(c % 2 === 0 ? 'legacy' : 'modern', `load-${c + 1}`));
    const sessions = await until(async () => {
      const list = (await call(clients[0]!, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }> | undefined;
      return list && list.length === plan.tabs ? list : undefined;
    }, 30_000, 'every tab to become a session');
    const tabs: Tabs = { session: [], clicks: Array.from({ length: plan.tabs }, () => 0) };
    for (const s of sessions) tabs.session[Number(new URL(s.url).searchParams.get('tab')) - 1] = s.id;

    log(`load: mixed phase, ${plan.mixedCalls} calls`);
    // Three extracts, one snapshot, one click in every five calls.
    const mixed = await drive(clients, tabs, plan.mixedCalls, plan.inFlightPerClient, (i) => (['extract', 'extract', 'extract', 'snapshot', 'click'] as const)[i % 5]!);
    mixed.misrouted += await checkCounts(clients[0]!, tabs);
    log(`load: extract phase, ${plan.extractCalls} calls`);
    const extract = await drive(clients, tabs, plan.extractCalls, plan.inFlightPerClient, () => 'extract');

    const hubPid = Number(readFileSync(path.join(r.env.ORIEL_RUNTIME_DIR!, 'hub.pid'), 'utf8'));
    log(`load: hub memory over ${plan.memoryCalls} calls`);
    const rssMiB = [mib(rss(hubPid))];
    const at = [0];
    let memoryLost = 0;
    const steps = 4;
    for (let s = 1; s <= steps; s++) {
      const phase = await drive(clients, tabs, plan.memoryCalls / steps, plan.inFlightPerClient, () => 'extract');
      memoryLost += phase.lost + phase.misrouted;
      rssMiB.push(mib(rss(hubPid)));
      at.push((plan.memoryCalls / steps) * s);
    }

    log(`load: registry churn, ${plan.churnElements} elements`);
    const page = await r.open(`${site.url}/churn.html`);
    await r.share('churn.html');
    const churnSession = await until(async () => {
      const list = (await call(clients[0]!, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>;
      return list.find((s) => s.url.includes('churn.html'))?.id;
    }, 30_000, 'the churn tab to become a session');
    await page.bringToFront();
    const heapMiB = [mib(await heapAfterGc(page))];
    const heapAt = [0];
    const rounds = plan.churnElements / plan.churnBatch;
    for (let round_ = 1; round_ <= rounds; round_++) {
      await page.evaluate((n) => (window as unknown as { churn(n: number): void }).churn(n), plan.churnBatch);
      const snap = await call(clients[0]!, 'snapshot', { session: churnSession, max_chars: 200_000 });
      if (snap.isError) throw new Error(`churn snapshot failed: ${snap.error?.code} ${snap.error?.message}`);
      if (round_ % (rounds / 4) === 0) {
        heapMiB.push(mib(await heapAfterGc(page)));
        heapAt.push(round_ * plan.churnBatch);
      }
    }

    log(`load: ${plan.restarts} service-worker restarts`);
    const failedAfterMs: number[] = [];
    const usableAfterMs: number[] = [];
    const session = tabs.session[0]!;
    for (let i = 0; i < plan.restarts; i++) {
      const pending = call(clients[0]!, 'wait_for', { session, text: 'never on this page', timeout_ms: 50_000 });
      await until(() => {
        const status = JSON.parse(r.cli(['status', '--json'])) as { sessions?: Array<{ id: string; queued?: number }> };
        return (status.sessions?.find((s) => s.id === session)?.queued ?? 0) >= 1 || undefined;
      }, 20_000, 'the pending call');
      const stoppedAt = performance.now();
      const failed = pending.then(() => performance.now() - stoppedAt);
      await r.stopBackground();
      failedAfterMs.push(round(await failed, 0));
      await until(async () => !(await call(clients[1]!, 'extract', { session, selector: '#who' })).isError || undefined, 30_000, 'the session to answer again');
      usableAfterMs.push(round(performance.now() - stoppedAt, 0));
    }

    const strip = (p: Awaited<ReturnType<typeof drive>>): PhaseResult => {
      const { times: _times, ...rest } = p;
      return rest;
    };
    return {
      plan,
      mixed: strip(mixed),
      extract: strip(extract),
      hubMemory: { calls: plan.memoryCalls, rssMiB, at, lost: memoryLost },
      registry: { elements: plan.churnElements, heapMiB, at: heapAt },
      restart: { runs: plan.restarts, failedAfterMs, usableAfterMs },
    };
  } finally {
    await rig?.close();
    await site.close();
  }
}

/** The markdown of a load run: the tables docs/BENCHMARKS.md shows between its load markers. */
export function loadMarkdown(r: LoadResults, facts: { date: string; command: string; machine: Record<string, string>; versions: Record<string, string>; loadAtEnd: string; seconds: number }): string {
  const tools = (p: PhaseResult) => Object.entries(p.perTool).map(([t, l]) => `${t} ${l.p50} / ${l.p99} (n=${l.n})`).join('; ');
  const lines = [
    `Run of ${facts.date}, ${facts.seconds} s in all. Command: \`${facts.command}\`.`,
    '',
    ...Object.entries({ ...facts.machine, ...facts.versions, 'load average at end (1/5/15 min)': facts.loadAtEnd }).map(([k, v]) => `- ${k}: ${v}`),
    `- plan: ${r.plan.clients} MCP clients (legacy and 2026-07-28 eras alternating) × ${r.plan.tabs} shared tabs, ${r.plan.inFlightPerClient} calls in flight per client`,
    '',
    '| phase | calls | calls/s | p50 / p99 ms per tool | lost | misrouted | load average at phase start |',
    '|---|---|---|---|---|---|---|',
    `| mixed (3 extract : 1 snapshot, default budget : 1 click) | ${r.mixed.calls} | ${r.mixed.callsPerSecond} | ${tools(r.mixed)} | ${r.mixed.lost} | ${r.mixed.misrouted} | ${r.mixed.load} |`,
    `| extract only | ${r.extract.calls} | ${r.extract.callsPerSecond} | ${tools(r.extract)} | ${r.extract.lost} | ${r.extract.misrouted} | ${r.extract.load} |`,
    '',
    `Hub resident memory (MiB) over ${r.hubMemory.calls} more extract calls: ${r.hubMemory.rssMiB.map((m, i) => `${m} after ${r.hubMemory.at[i]}`).join(', ')} (lost or misrouted among them: ${r.hubMemory.lost}).`,
    '',
    `Page heap after garbage collection (MiB; the content script's registry lives in it) while ${r.registry.elements} buttons are created, given handles by a snapshot and removed: ${r.registry.heapMiB.map((m, i) => `${m} at ${r.registry.at[i]}`).join(', ')}.`,
    '',
    `Service-worker restarts (${r.restart.runs}, stopped through CDP): a pending call failed with browser_disconnected after ${r.restart.failedAfterMs.join(', ')} ms; the session answered again after ${r.restart.usableAfterMs.join(', ')} ms (median ${round(percentile(r.restart.usableAfterMs, 50), 0)} ms).`,
    '',
  ];
  return lines.join('\n');
}
