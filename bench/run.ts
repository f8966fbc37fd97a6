// `npm run bench`: Oriel's snapshot and actions against the floor and Playwright MCP, on generated pages, in one run
// on the system Chromium. Writes bench/results/latest.json and the tables in docs/BENCHMARKS.md (see that file for
// the method). ORIEL_BENCH_QUICK=1: fewer runs, no 50k page, results to bench/results/quick.json, docs untouched.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { ROOT, serveFixtures, type Rig } from '../test/e2e/harness.js';
import { bundleInPage } from './bundle.js';
import { CHROMIUM, killStragglers, startPlaywrightMcp, type PlaywrightMcp } from './mcp.js';
import {
  measureBudgetPair,
  measureOrielFlatPage,
  measureOrielLatency,
  measureOrielLoop,
  measureOrielPage,
  measureOrielRows,
  openShared,
  startOriel,
  type BudgetPair,
  type LoopResult,
  type OrielFlatResult,
  type OrielPageResult,
  type Plan,
  type RowsResult,
} from './oriel.js';
import { generateFlatPage, generatePage, type GeneratedPage } from './pages.js';
import { measurePlaywrightLatency, measurePlaywrightLoop, measurePlaywrightPage, type PlaywrightLoopResult, type PlaywrightPageResult } from './playwright.js';
import { markdown, ratios, targets, writeResults, type FlatRow, type LoopRow, type PageRow, type Results } from './report.js';
import { round } from './stats.js';
import { loadMarkdown, runLoad, type LoadPlan } from './load.js';
import { measureToolLists, toolListMarkdown, writeToolListResults } from './toollist.js';
import { loopMarkdown, measureActLoop, writeLoopResults } from './actloop.js';
import { abMachine, abMarkdown, buildAt, runAb, writeAbResults, type AbPlan } from './ab.js';

const QUICK = process.env.ORIEL_BENCH_QUICK === '1';
/**
 * `load` runs only the load benchmark (bench/load.ts) and rewrites only its part of docs/BENCHMARKS.md; `tools` only
 * the tool-list sizes (bench/toollist.ts), likewise; `ab` only the before/after comparison (bench/ab.ts).
 */
const PART = process.env.ORIEL_BENCH_PART;
const LOAD_PLAN: LoadPlan = QUICK
  ? { clients: 4, tabs: 8, inFlightPerClient: 8, mixedCalls: 1_000, extractCalls: 2_000, memoryCalls: 4_000, churnElements: 40_000, churnBatch: 500, restarts: 2 }
  : { clients: 4, tabs: 8, inFlightPerClient: 8, mixedCalls: 8_000, extractCalls: 20_000, memoryCalls: 100_000, churnElements: 1_000_000, churnBatch: 1_000, restarts: 3 };
const SIZES = QUICK ? [1_000, 10_000] : [1_000, 10_000, 50_000];
/** Rows of the flat pages (four elements a row), Oriel only. */
const FLAT_ROWS = QUICK ? [1_000, 10_000] : [1_000, 5_000, 10_000, 25_000];
const PLAN: Plan = QUICK
  ? { warmup: 1, runs: 3, runsLarge: 2, actionCalls: 40, actionWarmup: 5 }
  : { warmup: 2, runs: 7, runsLarge: 5, actionCalls: 200, actionWarmup: 10 };
/** Pages of the agent-loop table, and loops per tool and page. */
const LOOP_SIZES = [1_000, 10_000];
const LOOP_RUNS = QUICK ? 2 : 5;
/** Playwright MCP's click waits for the page to settle (about 0.6 s a call), so it gets fewer calls. */
const PW_CALLS = QUICK ? { clickCalls: 10, typeCalls: 20 } : { clickCalls: 50, typeCalls: 200 };
/** The before/after comparison: pages, rounds (each measures both builds once) and action calls per build. */
const AB_PLAN: AbPlan = QUICK
  ? { sizes: [1_000, 10_000], warmup: 1, runs: 5, runsLarge: 3, actionCalls: 20 }
  : { sizes: [1_000, 10_000], warmup: 2, runs: 15, runsLarge: 9, actionCalls: 60 };
/** The whole run is abandoned (and cleaned up) after this long. */
const DEADLINE_MS = (QUICK ? 10 : PART === 'load' ? 20 : 45) * 60_000;

const log = (s: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0)}s] ${s}\n`);
const started = performance.now();
/** Other work on the machine skews a 2-core benchmark: the load when the run began is part of the record. */
const loadAtStart = os.loadavg().map((l) => l.toFixed(2)).join(' ');

function sh(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

function machine(): Record<string, string> {
  const mem = sh('free', ['-h']).split('\n').find((l) => l.startsWith('Mem:'))?.split(/\s+/)[1] ?? 'unknown';
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  return { nproc: sh('nproc', []), 'load average at start (1/5/15 min)': loadAtStart, memory: `${mem} (free -h total)`, cpu, os: `${os.type()} ${os.release()}` };
}

function versions(): Record<string, string> {
  const pkg = (name: string) => (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  const dirty = sh('git', ['-C', ROOT, 'status', '--porcelain', '--', 'extension', 'shared', 'broker']).split('\n').filter(Boolean).length;
  const built = (f: string) => {
    try {
      return statSync(path.join(ROOT, f)).mtime.toISOString();
    } catch {
      return 'unknown';
    }
  };
  return {
    node: process.version,
    chromium: sh(CHROMIUM, ['--version']).split('\n').pop() ?? 'unknown',
    'mcp client': `@modelcontextprotocol/client ${pkg('@modelcontextprotocol/client')}`,
    'puppeteer-core': pkg('puppeteer-core'),
    'oriel commit': `${sh('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'])}${dirty ? ` (+${dirty} uncommitted files under extension/shared/broker)` : ''}`,
    'oriel build used for (c) and actions': `dist/ as built at ${built('dist/chrome/manifest.json')}; (b) bundles the working tree`,
  };
}

/** Closes the rig (browser, MCP relays, hub), then ends any process of its profile that outlived it. */
async function closeOriel(rig: Rig): Promise<void> {
  const tmp = rig.tmp;
  await rig.close();
  killStragglers(tmp);
}

const PREAMBLE = readFileSync(path.join(import.meta.dirname, 'preamble.md'), 'utf8');

/** Runs the load benchmark and writes bench/results/load.json and its part of docs/BENCHMARKS.md (unless quick). */
async function mainLoad(facts: Record<string, string>): Promise<void> {
  const t0 = performance.now();
  const results = await runLoad(LOAD_PLAN, log);
  const text = loadMarkdown(results, {
    date: new Date().toISOString(),
    command: `${os.getPriority() < 0 ? `nice -n ${os.getPriority()} ` : ''}${QUICK ? 'ORIEL_BENCH_QUICK=1 ' : ''}${PART === 'load' ? 'ORIEL_BENCH_PART=load ' : ''}npm run bench`,
    machine: machine(),
    versions: facts,
    loadAtEnd: os.loadavg().map((l) => l.toFixed(2)).join(' '),
    seconds: Math.round((performance.now() - t0) / 1000),
  });
  process.stdout.write(text + '\n');
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(path.join(ROOT, `bench/results/${QUICK ? 'load-quick' : 'load'}.json`), JSON.stringify(results, null, 2) + '\n');
  if (!QUICK || process.env.ORIEL_BENCH_WRITE_DOCS === '1') {
    writeLoadSection(text);
    log('wrote bench/results/load.json and the load section of docs/BENCHMARKS.md');
  }
}

const LOAD_BEGIN = '<!-- bench-load:begin (generated by npm run bench; edit outside these markers) -->';
const LOAD_END = '<!-- bench-load:end -->';

function writeLoadSection(text: string): void {
  const doc = path.join(ROOT, 'docs/BENCHMARKS.md');
  const old = readFileSync(doc, 'utf8');
  const a = old.indexOf(LOAD_BEGIN);
  const b = old.indexOf(LOAD_END);
  const block = `${LOAD_BEGIN}\n${text}${LOAD_END}`;
  writeFileSync(doc, a >= 0 && b > a ? old.slice(0, a) + block + old.slice(b + LOAD_END.length) : `${old.trimEnd()}\n\n## Load: latest results\n\n${block}\n`);
}

/** The command that reproduces this run, as recorded with its results. */
function commandLine(): string {
  return `${os.getPriority() < 0 ? `nice -n ${os.getPriority()} ` : ''}${QUICK ? 'ORIEL_BENCH_QUICK=1 ' : ''}${PART ? `ORIEL_BENCH_PART=${PART} ` : ''}npm run bench`;
}

/** Measures the tool lists and writes bench/results/tools.json and their part of docs/BENCHMARKS.md (unless quick). */
async function mainToolLists(facts: Record<string, string>): Promise<void> {
  const results = await measureToolLists(commandLine(), log);
  const pw = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@playwright/mcp/package.json'), 'utf8')) as { version: string };
  const text = toolListMarkdown(results, { 'oriel commit': facts['oriel commit'] ?? 'unknown', 'playwright mcp': `@playwright/mcp ${pw.version}`, 'mcp client': facts['mcp client'] ?? 'unknown' });
  process.stdout.write(text + '\n');
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  if (!QUICK || process.env.ORIEL_BENCH_WRITE_DOCS === '1') {
    writeToolListResults(results, text);
    log('wrote bench/results/tools.json and the tool-list section of docs/BENCHMARKS.md');
  }
}

/**
 * The ten-action loop and the cost of showing changes (bench/actloop.ts): bench/results/loop.json and its part of
 * docs/BENCHMARKS.md (unless quick).
 */
async function mainActLoop(facts: Record<string, string>): Promise<void> {
  const sizes = [1_000, 10_000];
  const pages = new Map<number, GeneratedPage>(sizes.map((n) => [n, generatePage(n)]));
  const serve = (g: GeneratedPage) => (_q: unknown, res: import('node:http').ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(g.html);
  const server = await serveFixtures(path.join(ROOT, 'bench'), Object.fromEntries([...pages].map(([n, g]) => [`/bench-${n}.html`, serve(g)])));
  const watchdog = setTimeout(() => {
    log(`stopping: over the ${DEADLINE_MS / 60_000} min deadline`);
    process.exit(1);
  }, DEADLINE_MS);
  try {
    const results = await measureActLoop(
      { sizes, clickCalls: QUICK ? 10 : 40 },
      pages,
      (n) => `${server.origin}/bench-${n}.html`,
      { oriel: () => startOriel(), closeOriel, playwright: () => startPlaywrightMcp() },
      log,
    );
    const pwVersion = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@playwright/mcp/package.json'), 'utf8')) as { version: string }).version;
    const r = {
      date: new Date().toISOString(),
      command: commandLine(),
      facts: {
        'oriel commit': facts['oriel commit'] ?? 'unknown',
        'oriel build': (facts['oriel build used for (c) and actions'] ?? 'unknown').split(';')[0]!,
        'playwright mcp': `@playwright/mcp ${pwVersion}`,
        'mcp client': facts['mcp client'] ?? 'unknown',
        'load average at start': loadAtStart,
      },
      pages: results,
    };
    const text = loopMarkdown(r);
    process.stdout.write(text + '\n');
    if (!QUICK || process.env.ORIEL_BENCH_WRITE_DOCS === '1') writeLoopResults(r, text);
  } finally {
    clearTimeout(watchdog);
    await server.close().catch(() => undefined);
  }
}

/**
 * Before and after (bench/ab.ts): this checkout's dist/ against the one in ORIEL_BENCH_BASELINE, in one run; writes
 * bench/results/ab.json and its part of docs/BENCHMARKS.md (unless quick).
 */
async function mainAb(): Promise<void> {
  const baseline = process.env.ORIEL_BENCH_BASELINE;
  if (!baseline) throw new Error('ORIEL_BENCH_PART=ab needs ORIEL_BENCH_BASELINE=<a checkout of the baseline, built with npm run build>');
  // ORIEL_BENCH_AFTER=<checkout> measures another build than this one as "after" (two older commits, say).
  const after = buildAt(process.env.ORIEL_BENCH_AFTER ? path.resolve(process.env.ORIEL_BENCH_AFTER) : ROOT, 'after');
  const before = buildAt(path.resolve(baseline), 'before');
  const watchdog = setTimeout(() => {
    log(`stopping: over the ${DEADLINE_MS / 60_000} min deadline`);
    process.exit(1);
  }, DEADLINE_MS);
  try {
    const cases = await runAb(after, before, AB_PLAN, log);
    const r = {
      date: new Date().toISOString(),
      command: `${commandLine().replace('npm run bench', '')}${process.env.ORIEL_BENCH_AFTER ? `ORIEL_BENCH_AFTER=<checkout of ${after.commit.split(' ')[0]}> ` : ''}ORIEL_BENCH_BASELINE=<checkout of ${before.commit.split(' ')[0]}> npm run bench`,
      builds: [after, before],
      plan: AB_PLAN,
      machine: abMachine(),
      loadAtStart,
      loadAtEnd: os.loadavg().map((l) => l.toFixed(2)).join(' '),
      durationSeconds: Math.round((performance.now() - started) / 1000),
      cases,
    };
    const text = abMarkdown(r);
    process.stdout.write(text + '\n');
    if (!QUICK || process.env.ORIEL_BENCH_WRITE_DOCS === '1') {
      writeAbResults(r, text);
      log('wrote bench/results/ab.json and the before/after section of docs/BENCHMARKS.md');
    }
  } finally {
    clearTimeout(watchdog);
  }
}

async function main(): Promise<void> {
  if (PART === 'ab') {
    await mainAb();
    return;
  }
  if (PART === 'tools') {
    await mainToolLists(versions());
    return;
  }
  if (PART === 'loop') {
    await mainActLoop(versions());
    return;
  }
  if (PART === 'load') {
    const watchdog = setTimeout(() => {
      log(`stopping: over the ${DEADLINE_MS / 60_000} min deadline`);
      process.exit(1);
    }, DEADLINE_MS);
    try {
      await mainLoad(versions());
    } finally {
      clearTimeout(watchdog);
    }
    return;
  }
  const pages = new Map<number, GeneratedPage>(SIZES.map((n) => [n, generatePage(n)]));
  const flatPages = new Map<number, GeneratedPage>(FLAT_ROWS.map((n) => [n, generateFlatPage(n)]));
  const serve = (g: GeneratedPage) => (_q: unknown, res: import('node:http').ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(g.html);
  const bigTable = readFileSync(path.join(ROOT, 'test/fixtures/snapshot/big-table.html'), 'utf8');
  const routes = Object.fromEntries([
    ...[...pages].map(([n, g]) => [`/bench-${n}.html`, serve(g)]),
    ...[...flatPages].map(([n, g]) => [`/flat-${n}.html`, serve(g)]),
    ['/big-table.html', (_q: unknown, res: import('node:http').ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(bigTable)],
  ]);
  const server = await serveFixtures(path.join(ROOT, 'bench'), routes);
  const url = (n: number) => `${server.origin}/bench-${n}.html`;
  const flatUrl = (n: number) => `${server.origin}/flat-${n}.html`;
  const bundle = await bundleInPage();
  const facts = versions();
  // The tool lists first: no browser, a few seconds.
  await mainToolLists(facts);

  let oriel: { rig: Rig; client: Client } | undefined;
  let pw: PlaywrightMcp | undefined;
  const cleanup = async () => {
    if (oriel) await closeOriel(oriel.rig).catch(() => undefined);
    oriel = undefined;
    await pw?.close().catch(() => undefined);
    pw = undefined;
    await server.close().catch(() => undefined);
  };
  const abort = (why: string) => {
    log(`stopping: ${why}`);
    void cleanup().finally(() => process.exit(1));
  };
  const watchdog = setTimeout(() => abort(`over the ${DEADLINE_MS / 60_000} min deadline`), DEADLINE_MS);
  process.once('SIGINT', () => abort('SIGINT'));
  process.once('SIGTERM', () => abort('SIGTERM'));

  try {
    // Oriel first, alone on the machine; then Playwright MCP alone (2 cores: nothing else runs at the same time).
    log('starting Chromium with Oriel');
    oriel = await startOriel();
    const orielPages = new Map<number, OrielPageResult>();
    const orielLoops = new Map<number, LoopResult>();
    let orielLatency: Awaited<ReturnType<typeof measureOrielLatency>> | undefined;
    for (const n of SIZES) {
      const { page, session } = await openShared(oriel.rig, oriel.client, url(n));
      log(`Oriel, ${n} elements`);
      orielPages.set(n, await measureOrielPage(page, oriel.client, session, pages.get(n)!, bundle, PLAN));
      if (n === 1_000) {
        log('Oriel actions on the 1k page');
        orielLatency = await measureOrielLatency(oriel.client, session, pages.get(n)!, PLAN, await oriel.rig.client('legacy', 'bench-plain'));
      }
      if (LOOP_SIZES.includes(n)) {
        log(`Oriel agent loop on the ${n / 1000}k page`);
        orielLoops.set(n, await measureOrielLoop(oriel.client, session, pages.get(n)!, LOOP_RUNS));
      }
      await page.close();
    }
    // The default-budget snapshot of the 1k and 50k pages, side by side in two tabs, in alternation.
    let budgetPair: BudgetPair | undefined;
    if (SIZES.includes(1_000) && SIZES.includes(50_000)) {
      const lo = 1_000;
      const hi = 50_000;
      log(`Oriel default-budget snapshots, ${lo} and ${hi} elements in alternation`);
      const a = await openShared(oriel.rig, oriel.client, url(lo));
      const b = await openShared(oriel.rig, oriel.client, url(hi));
      budgetPair = await measureBudgetPair(oriel.client, { target: lo, session: a.session }, { target: hi, session: b.session }, PLAN.warmup, PLAN.runs * 2);
      await a.page.close();
      await b.page.close();
    }
    let rows: RowsResult | undefined;
    {
      const { page, session } = await openShared(oriel.rig, oriel.client, `${server.origin}/big-table.html`);
      log('Oriel extract_rows on a 3,000-row table');
      rows = await measureOrielRows(oriel.client, session, PLAN.runs);
      await page.close();
    }
    const orielFlat = new Map<number, OrielFlatResult>();
    for (const n of FLAT_ROWS) {
      const { page, session } = await openShared(oriel.rig, oriel.client, flatUrl(n));
      log(`Oriel, flat page of ${n} rows`);
      orielFlat.set(n, await measureOrielFlatPage(page, oriel.client, session, flatPages.get(n)!, bundle, PLAN));
      await page.close();
    }
    await closeOriel(oriel.rig);
    oriel = undefined;

    // A fresh Playwright MCP (and browser) per page: its refs gain a frame prefix after a navigation (e31 → f1e31),
    // so each page is measured as its first load, the way Playwright MCP is cheapest.
    const pwPages = new Map<number, PlaywrightPageResult>();
    const pwLoops = new Map<number, PlaywrightLoopResult>();
    let pwVersion = '';
    for (const n of SIZES) {
      log(`Playwright MCP, ${n} elements`);
      pw = await startPlaywrightMcp();
      pwVersion = pw.version;
      pwPages.set(n, await measurePlaywrightPage(pw.client, url(n), pages.get(n)!, PLAN));
      if (LOOP_SIZES.includes(n)) {
        log(`Playwright MCP agent loop on the ${n / 1000}k page`);
        pwLoops.set(n, await measurePlaywrightLoop(pw.client, url(n), pages.get(n)!, LOOP_RUNS, pw.dir));
      }
      await pw.close();
      pw = undefined;
    }
    log('Playwright MCP actions on the 1k page');
    pw = await startPlaywrightMcp();
    const pwLatency = await measurePlaywrightLatency(pw.client, url(1_000), pages.get(1_000)!, { ...PLAN, ...PW_CALLS });
    await pw.close();
    pw = undefined;

    const pagesRows: PageRow[] = SIZES.map((n) => {
      const g = pages.get(n)!;
      const o = orielPages.get(n)!;
      const p = pwPages.get(n)!;
      return { target: n, elements: o.floor.elements, interactive: g.interactive.length, hiddenInteractive: g.hiddenInteractive, oriel: o, playwright: p, ratios: ratios(o, p, g.interactive.length) };
    });
    const flat: FlatRow[] = FLAT_ROWS.map((n) => ({ rows: n, elements: flatPages.get(n)!.elements, oriel: orielFlat.get(n)! }));
    const loops: LoopRow[] = LOOP_SIZES.filter((n) => orielLoops.has(n) && pwLoops.has(n)).map((n) => ({ target: n, oriel: orielLoops.get(n)!, playwright: pwLoops.get(n)! }));
    const latency = orielLatency && {
      page: 1_000,
      oriel: orielLatency,
      playwright: pwLatency,
      ratios: { click: round(orielLatency.click.p50 / pwLatency.click.p50, 3), type: round(orielLatency.type.p50 / pwLatency.type.p50, 3) },
    };
    const results: Results = {
      date: new Date().toISOString(),
      command: `${os.getPriority() < 0 ? `nice -n ${os.getPriority()} ` : ''}${QUICK ? 'ORIEL_BENCH_QUICK=1 ' : ''}npm run bench`,
      quick: QUICK,
      machine: machine(),
      versions: { ...facts, 'playwright mcp': `@playwright/mcp ${pwVersion.replace(/^Version /, '')}` },
      plan: { ...PLAN, playwrightClickCalls: PW_CALLS.clickCalls, playwrightTypeCalls: PW_CALLS.typeCalls },
      pages: pagesRows,
      flat,
      loops,
      ...(rows ? { rows } : {}),
      ...(budgetPair ? { budgetPair } : {}),
      ...(latency ? { latency } : {}),
      targets: targets(pagesRows, latency, flat, loops, rows, budgetPair),
      loadAtEnd: os.loadavg().map((l) => l.toFixed(2)).join(' '),
      durationSeconds: Math.round((performance.now() - started) / 1000),
    };
    process.stdout.write(markdown(results) + '\n');
    if (QUICK && process.env.ORIEL_BENCH_WRITE_DOCS !== '1') {
      mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
      writeFileSync(path.join(ROOT, 'bench/results/quick.json'), JSON.stringify(results, null, 2) + '\n');
      log('quick run: wrote bench/results/quick.json (docs/BENCHMARKS.md untouched)');
    } else {
      writeResults(ROOT, results, PREAMBLE);
      log('wrote bench/results/latest.json and docs/BENCHMARKS.md');
    }
    // The ten-action loop (its own browsers, one after the other), then, alone on the machine again, several
    // clients on several tabs.
    await mainActLoop(facts);
    await mainLoad(facts);
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
