// Before and after: the end-to-end snapshot (c) and the actions (click, type, extract) of two Oriel builds in one run
// — this checkout's dist/ ("after") and another checkout's dist/ ("before", ORIEL_BENCH_BASELINE) — each in its own
// Chromium with its own native host, hub and MCP relay, measured in alternation call by call so that the machine's
// load meets both alike. `ORIEL_BENCH_PART=ab npm run bench` (bench/run.ts); docs/BENCHMARKS.md, "Before and after".
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { call, handleOf, launchRig, ROOT, serveFixtures, type Rig } from '../test/e2e/harness.js';
import { killStragglers } from './mcp.js';
import { timedCall } from './mcp.js';
import { actionTargets, openShared } from './oriel.js';
import { generatePage, type GeneratedPage } from './pages.js';
import { percentile, round } from './stats.js';

/** One build to measure: a checkout whose `npm run build` output is in `<root>/dist`. */
export interface Build {
  /** `after` (this checkout) or `before` (the baseline). */
  label: 'after' | 'before';
  root: string;
  /** Its commit, short, with a note when its sources differ from it. */
  commit: string;
  /** When its dist/ was built (the Chromium manifest's mtime), ISO 8601. */
  built: string;
}

export interface AbPlan {
  sizes: number[];
  /** Untimed rounds before each case, and timed rounds (each round measures both builds once). */
  warmup: number;
  runs: number;
  /** Fewer rounds on pages of 10k elements and more. */
  runsLarge: number;
  /** Timed calls per action and build on the 1k page. */
  actionCalls: number;
}

/** One case, both builds: each call's time in ms, in the order taken. */
export interface AbCase {
  name: string;
  page: number;
  after: number[];
  before: number[];
  /** The outline's characters in each build's last answer (snapshots only): the same page should read alike. */
  chars?: { after: number; before: number };
  errors: { after: number; before: number };
}

export interface AbResults {
  date: string;
  command: string;
  builds: Build[];
  plan: AbPlan;
  machine: Record<string, string>;
  loadAtStart: string;
  loadAtEnd: string;
  durationSeconds: number;
  cases: AbCase[];
}

interface Side {
  build: Build;
  rig: Rig;
  client: Client;
}

function git(root: string, args: string[]): string {
  try {
    return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * The build in checkout `root`.
 * @throws Error when `root` has no built dist/ (its CLI and Chromium extension).
 */
export function buildAt(root: string, label: Build['label']): Build {
  const cli = path.join(root, 'dist/broker/oriel.mjs');
  const manifest = path.join(root, 'dist/chrome/manifest.json');
  if (!existsSync(cli) || !existsSync(manifest)) throw new Error(`${root} has no built dist/ (run npm run build there first)`);
  const dirty = git(root, ['status', '--porcelain', '--', 'extension', 'shared', 'broker']).split('\n').filter(Boolean).length;
  return {
    label,
    root,
    commit: `${git(root, ['rev-parse', '--short', 'HEAD'])}${dirty ? ` (+${dirty} uncommitted files under extension/shared/broker)` : ''}`,
    built: statSync(manifest).mtime.toISOString(),
  };
}

/**
 * Starts Chromium with `build`'s extension and registers `build`'s own CLI as its native host, so its relay starts its
 * own hub (each rig has its own runtime folder); the MCP client runs that CLI's `oriel mcp`. One retry: on a loaded
 * 2-core machine the service worker can miss the harness's start window.
 */
async function start(build: Build, retry = true): Promise<Side> {
  let rig: Rig;
  try {
    rig = await launchRig('chromium', {
      hubIdleMs: 600_000,
      oriel: {
        command: path.join(build.root, 'dist/broker/oriel.mjs'),
        register: (profile) => ['install', '--browser', 'chromium', '--chromium-profile', profile],
        extension: () => path.join(build.root, 'dist/chrome'),
      },
    });
  } catch (err) {
    if (!retry) throw err;
    process.stderr.write(`[bench ab] Chromium with the ${build.label} build did not start (${String(err).slice(0, 200)}); trying once more\n`);
    return start(build, false);
  }
  try {
    return { build, rig, client: await rig.client('legacy', 'bench') };
  } catch (err) {
    await rig.close();
    throw err;
  }
}

async function stop(side: Side): Promise<void> {
  const tmp = side.rig.tmp;
  await side.rig.close().catch(() => undefined);
  killStragglers(tmp);
}

/**
 * Runs `measure` for both sides `warmup + runs` times, alternating which goes first (after, before; before, after; …)
 * so neither always follows the other; keeps the timed rounds.
 */
async function alternate(
  sides: readonly [Side, Side],
  warmup: number,
  runs: number,
  measure: (side: Side, i: number) => Promise<{ ms: number; ok: boolean; chars?: number }>,
): Promise<Pick<AbCase, 'after' | 'before' | 'errors'> & { chars: { after: number; before: number } }> {
  const out = { after: [] as number[], before: [] as number[], errors: { after: 0, before: 0 }, chars: { after: 0, before: 0 } };
  for (let i = 0; i < warmup + runs; i++) {
    const order = i % 2 === 0 ? sides : ([sides[1], sides[0]] as const);
    for (const side of order) {
      const r = await measure(side, i);
      const label = side.build.label;
      if (!r.ok) out.errors[label]++;
      if (r.chars !== undefined) out.chars[label] = r.chars;
      if (i >= warmup) out[label].push(r.ms);
    }
  }
  return out;
}

/** Shares `url` in both builds' browsers: per side its page and session. */
async function openBoth(sides: readonly [Side, Side], url: string): Promise<Map<Side, { page: Page; session: string }>> {
  const open = new Map<Side, { page: Page; session: string }>();
  for (const side of sides) open.set(side, await openShared(side.rig, side.client, url));
  return open;
}

/** Snapshot cases on one page: whole (max_chars 200000), default budget, and whole right after the page changed. */
async function snapshotCases(sides: readonly [Side, Side], open: Map<Side, { page: Page; session: string }>, n: number, plan: AbPlan, log: (s: string) => void): Promise<AbCase[]> {
  const runs = n >= 10_000 ? plan.runsLarge : plan.runs;
  const snap = (args: Record<string, unknown>, change = false) => async (side: Side) => {
    const { page, session } = open.get(side)!;
    // A style property on the root changes the page for every reading (nothing kept from an earlier one holds); untimed.
    if (change) await page.evaluate(() => document.documentElement.style.setProperty('--oriel-bench-ab', String(Math.random())));
    const r = await timedCall(side.client, 'snapshot', { session, ...args });
    if (r.isError) process.stderr.write(`[bench ab] ${side.build.label} snapshot failed: ${r.text.slice(0, 300)}\n`);
    return { ms: r.ms, ok: !r.isError, chars: r.text.length };
  };
  const cases: Array<[string, (side: Side) => Promise<{ ms: number; ok: boolean; chars: number }>]> = [
    ['snapshot (c), max_chars 200000', snap({ max_chars: 200_000 })],
    ['snapshot (c), default budget', snap({})],
    ['snapshot (c), max_chars 200000, page changed before each', snap({ max_chars: 200_000 }, true)],
  ];
  const out: AbCase[] = [];
  for (const [name, measure] of cases) {
    log(`before/after: ${name}, ${n} elements`);
    out.push({ name, page: n, ...(await alternate(sides, plan.warmup, runs, measure)) });
  }
  return out;
}

/**
 * click, type and extract on the 1k page, each build on handles from its own outline, call by call in alternation.
 * They run from a second MCP client that never took a snapshot, so no answer carries what the action changed (that
 * is compared with the caller's last snapshot, docs/tools.md "Results"): the path of the call alone. `click` runs
 * once more from the client that took the snapshot, as an agent's click does (there, where the build shows changes,
 * the diff is part of the time).
 */
async function actionCases(sides: readonly [Side, Side], open: Map<Side, { page: Page; session: string }>, gen: GeneratedPage, plan: AbPlan, log: (s: string) => void): Promise<AbCase[]> {
  const t = actionTargets(gen);
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const handles = new Map<Side, { buttons: string[]; fields: string[]; headings: string[] }>();
  const actors = new Map<Side, Client>();
  for (const side of sides) {
    const outline = (await call(side.client, 'snapshot', { session: open.get(side)!.session, max_chars: 200_000 })).text;
    const h = (role: string, name: string) => handleOf(outline, new RegExp(`${role} "${esc(name)}"`));
    handles.set(side, { buttons: t.buttons.map((b) => h('button', b)), fields: t.fields.map((f) => h('textbox', f)), headings: t.headings.map((x) => h('heading', x)) });
    actors.set(side, await side.rig.client('legacy', 'bench-actor'));
  }
  type Handles = { buttons: string[]; fields: string[]; headings: string[] };
  const act = (tool: string, args: (h: Handles, i: number) => Record<string, unknown>, viewer = false) => async (side: Side, i: number) => {
    const client = viewer ? side.client : actors.get(side)!;
    const r = await timedCall(client, tool, { session: open.get(side)!.session, ...args(handles.get(side)!, i) });
    if (r.isError) process.stderr.write(`[bench ab] ${side.build.label} ${tool} failed: ${r.text.slice(0, 300)}\n`);
    return { ms: r.ms, ok: !r.isError };
  };
  const cases: Array<[string, ReturnType<typeof act>]> = [
    ['click', act('click', (h, i) => ({ handle: h.buttons[i % h.buttons.length] }))],
    ['type', act('type', (h, i) => ({ handle: h.fields[i % h.fields.length], text: `note ${i}` }))],
    ['extract', act('extract', (h, i) => ({ handle: h.headings[i % h.headings.length] }))],
    ['click, by the client that took the snapshot', act('click', (h, i) => ({ handle: h.buttons[i % h.buttons.length] }), true)],
  ];
  const out: AbCase[] = [];
  for (const [name, measure] of cases) {
    log(`before/after: ${name}, ${gen.target} elements`);
    const { chars: _chars, ...r } = await alternate(sides, Math.max(2, Math.round(plan.actionCalls / 10)), plan.actionCalls, measure);
    out.push({ name, page: gen.target, ...r });
  }
  return out;
}

/**
 * Measures both builds: for each page size the snapshot cases, and on the 1k page the actions. The two browsers stay
 * open side by side for the whole run; only one call is in flight at any time.
 */
export async function runAb(after: Build, before: Build, plan: AbPlan, log: (s: string) => void): Promise<AbCase[]> {
  const pages = new Map<number, GeneratedPage>(plan.sizes.map((n) => [n, generatePage(n)]));
  const serve = (g: GeneratedPage) => (_q: unknown, res: import('node:http').ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(g.html);
  const server = await serveFixtures(path.join(ROOT, 'bench'), Object.fromEntries([...pages].map(([n, g]) => [`/bench-${n}.html`, serve(g)])));
  const started: Side[] = [];
  try {
    for (const build of [after, before]) {
      log(`starting Chromium with the ${build.label} build (${build.commit}, ${build.root})`);
      started.push(await start(build));
    }
    const sides = [started[0]!, started[1]!] as const;
    const cases: AbCase[] = [];
    for (const n of plan.sizes) {
      const open = await openBoth(sides, `${server.origin}/bench-${n}.html`);
      cases.push(...(await snapshotCases(sides, open, n, plan, log)));
      if (n === 1_000) cases.push(...(await actionCases(sides, open, pages.get(n)!, plan, log)));
      for (const { page } of open.values()) await page.close().catch(() => undefined);
    }
    return cases;
  } finally {
    for (const side of started) await stop(side);
    await server.close().catch(() => undefined);
  }
}

const fmt = (v: number) => (Number.isFinite(v) ? (v >= 100 ? String(Math.round(v)) : v.toFixed(1)) : '–');

/** The side-by-side table and the run's facts, as markdown. */
export function abMarkdown(r: AbResults): string {
  const rows = r.cases.map((c) => {
    const a50 = percentile(c.after, 50);
    const a90 = percentile(c.after, 90);
    const b50 = percentile(c.before, 50);
    const b90 = percentile(c.before, 90);
    const chars = c.chars ? `${c.chars.after.toLocaleString('en-US')} / ${c.chars.before.toLocaleString('en-US')}` : '';
    const errors = c.errors.after + c.errors.before > 0 ? ` (errors: after ${c.errors.after}, before ${c.errors.before})` : '';
    return `| ${c.name}${errors} | ${c.page.toLocaleString('en-US')} | ${c.after.length} | ${fmt(a50)} | ${fmt(a90)} | ${fmt(b50)} | ${fmt(b90)} | ${round(a50 / b50, 2).toFixed(2)} | ${round(a90 / b90, 2).toFixed(2)} | ${chars} |`;
  });
  const [after, before] = [r.builds.find((b) => b.label === 'after')!, r.builds.find((b) => b.label === 'before')!];
  return [
    `Run of ${r.date} (\`${r.command}\`, ${r.durationSeconds} s; load average ${r.loadAtStart} at the start, ${r.loadAtEnd} at the end; ${r.machine.nproc} cores, ${r.machine.cpu}).`,
    `After: ${after.commit}, dist/ built ${after.built}. Before: ${before.commit}, dist/ built ${before.built}.`,
    '',
    '| case | page (elements) | runs per build | after median ms | after p90 ms | before median ms | before p90 ms | after/before median | after/before p90 | outline chars after / before |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}

const BEGIN = '<!-- bench-ab:begin (generated by ORIEL_BENCH_PART=ab npm run bench; edit outside these markers) -->';
const END = '<!-- bench-ab:end -->';

/** Writes bench/results/ab.json and the table between this part's markers in docs/BENCHMARKS.md (a new section at the end the first time). */
export function writeAbResults(r: AbResults, text: string): void {
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(path.join(ROOT, 'bench/results/ab.json'), JSON.stringify(r, null, 2) + '\n');
  const doc = path.join(ROOT, 'docs/BENCHMARKS.md');
  const old = readFileSync(doc, 'utf8');
  const block = `${BEGIN}\n${text}${END}`;
  const a = old.indexOf(BEGIN);
  const b = old.indexOf(END);
  writeFileSync(doc, a >= 0 && b > a ? old.slice(0, a) + block + old.slice(b + END.length) : `${old.trimEnd()}\n\n## Before and after: latest results\n\n${block}\n`);
}

/** The machine the run had, for the record. */
export function abMachine(): Record<string, string> {
  return { nproc: String(os.availableParallelism()), cpu: os.cpus()[0]?.model ?? 'unknown', os: `${os.type()} ${os.release()}` };
}
