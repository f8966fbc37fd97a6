// The Oriel half of the benchmark, in one Chromium with the built extension (test/e2e/harness.ts launchRig):
// per page size the floor (a) and the in-page snapshot (b) through the bundled bench/inpage.ts, then the snapshot
// tool end to end through `oriel mcp` over stdio (c); and on the 1k page the latency of click, type and extract.
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { CHROMIUM_EXTENSION_ID } from '../shared/extension-ids.js';
import { call, handleOf, launchRig, until, type Rig } from '../test/e2e/harness.js';
import type { BenchApi, FloorRun, OrielRun } from './inpage.js';
import { timedCall } from './mcp.js';
import { checkCoverage, type Coverage } from './outline.js';
import { profileBreakdown, type Breakdown } from './profile.js';
import type { GeneratedPage } from './pages.js';
import { latency, repeat, summary, type Latency, type Summary } from './stats.js';

export interface Plan {
  warmup: number;
  runs: number;
  /** Fewer runs for the largest page. */
  runsLarge: number;
  actionCalls: number;
  actionWarmup: number;
}

export interface OrielPageResult {
  floor: Summary & { elements: number };
  /** Where the in-page time of a whole reading goes (10k page only). */
  breakdown?: Breakdown;
  /** (a) and the (b) walk when every element's style was invalidated just before. */
  afterStyleChange: { floor: Summary; walk: Summary };
  /**
   * Whole in-page readings (walk and lines) with and without the readings kept from earlier walks, on the page as it
   * is and right after one row changed, alternating with the floor run by run; `same`: the warm outline after a row
   * change equals the fresh one.
   */
  warm: { floor: Summary; fresh: Summary; reused: Summary; freshRow: Summary; reusedRow: Summary; same: boolean };
  inPage: { walk: Summary; total: Summary; chars: number; lines: number; visited: number };
  mcp: {
    firstCall: number;
    unbudgeted: Summary & { chars: number; truncated: boolean; cursor: boolean };
    defaultBudget: Summary & { chars: number; truncated: boolean };
    /** The first default-budget call (its hit tests are not reused from an earlier one). */
    defaultFirst: number;
    /** DOM nodes the default-budget page read. */
    defaultVisited: number;
  };
  /** The whole outline read through MCP page by page, following the cursor (max_chars 200000 each). */
  fullOutline: { pages: number; chars: number; ms: number; runs: number[] };
  /** One call that reads the whole page: `since` naming a snapshot that is not held (returns the first 200,000 characters). */
  wholeRead: Summary & { chars: number };
  /** Medians of the browser's own account of the max_chars 200000 snapshot (structured `timing`), ms. */
  timing: { content: number; browser: number };
  coverage: Coverage;
  visibleInteractiveInPage: number;
}

export interface OrielLatency {
  /** Clicks by a caller that took a whole snapshot first: every result carries the changes since it. */
  click: Latency;
  /** The same clicks by a caller that took no snapshot of the tab: results carry no changes (as before they did). */
  clickPlain?: Latency;
  type: Latency;
  extract: Latency;
  errors: number;
}

type Win = { __orielBench: BenchApi };

/**
 * Starts the rig and one MCP client (legacy era, like most clients today). One retry: on a loaded 2-core machine the
 * extension's service worker can miss the harness's 15 s start window.
 */
export async function startOriel(retry = true): Promise<{ rig: Rig; client: Client }> {
  let rig: Rig;
  try {
    rig = await launchRig('chromium', { hubIdleMs: 600_000 });
  } catch (err) {
    if (!retry) throw err;
    process.stderr.write(`[bench] Chromium with Oriel did not start (${String(err).slice(0, 200)}); trying once more\n`);
    return startOriel(false);
  }
  try {
    const client = await rig.client('legacy', 'bench');
    return { rig, client };
  } catch (err) {
    await rig.close();
    throw err;
  }
}

/**
 * Shares the tab showing `url` through the real popup, opened in a tab of its own and closed afterwards. The popup
 * re-renders its list as tabs change, so the switch is found and clicked inside one in-page poll rather than through a
 * puppeteer element handle that a re-render can detach (the harness's rig.share hit that here).
 */
async function share(rig: Rig, url: string): Promise<void> {
  const popup = await rig.browser.newPage();
  try {
    await popup.goto(`chrome-extension://${CHROMIUM_EXTENSION_ID}/extension/ui/popup.html`, { waitUntil: 'load' });
    await popup.waitForFunction(
      (u: string) => {
        const box = Array.from(document.querySelectorAll<HTMLLabelElement>('label.tab')).find((l) => l.dataset.url === u)?.querySelector('input');
        if (!box) return false;
        if (!box.checked && !box.dataset.benchClicked) {
          box.dataset.benchClicked = '1';
          box.click();
        }
        return box.checked;
      },
      { timeout: 15_000, polling: 100 },
      url,
    );
  } finally {
    await popup.close().catch(() => undefined);
  }
}

/** Opens `url`, shares it through the popup, and returns the page and its session id. */
export async function openShared(rig: Rig, client: Client, url: string): Promise<{ page: Page; session: string }> {
  const page = await rig.open(url);
  await page.setViewport({ width: 1280, height: 800 });
  await share(rig, url);
  const session = await until(async () => {
    const list = (await call(client, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>;
    return list.find((s) => s.url === url)?.id;
  }, 15_000, `session for ${url}`);
  return { page, session };
}

export async function measureOrielPage(page: Page, client: Client, session: string, gen: GeneratedPage, bundle: string, plan: Plan): Promise<OrielPageResult> {
  const runs = gen.target >= 50_000 ? plan.runsLarge : plan.runs;
  const snap = (args: Record<string, unknown>) => async () => {
    const r = await timedCall(client, 'snapshot', { session, ...args });
    if (r.isError) throw new Error(`snapshot failed on ${gen.target}: ${r.text.slice(0, 500)}`);
    return r;
  };
  // The first snapshot of the freshly loaded page, before anything of the benchmark runs in it.
  const first = await snap({ max_chars: 200_000 })();
  await page.addScriptTag({ content: bundle });

  const floors = await repeat(plan.warmup, runs, () => page.evaluate(() => (window as unknown as Win).__orielBench.floor(false)) as Promise<FloorRun>);
  const inPage = await repeat(plan.warmup, runs, () => page.evaluate(() => (window as unknown as Win).__orielBench.oriel(false, false)) as Promise<OrielRun>);
  // The same two right after a style change (the page has just changed, as it has after most actions).
  const floorsChanged = await repeat(plan.warmup, runs, () => page.evaluate(() => (window as unknown as Win).__orielBench.floor(true)) as Promise<FloorRun>);
  const inPageChanged = await repeat(plan.warmup, runs, () => page.evaluate(() => (window as unknown as Win).__orielBench.oriel(false, true)) as Promise<OrielRun>);
  const warm = await measureWarm(page, plan.warmup, runs);
  const visibleInteractiveInPage = await page.evaluate(() => (window as unknown as Win).__orielBench.visibleInteractive());

  const breakdown = gen.target === 10_000 ? await profileBreakdown(page, '__orielBench.reading(Number.MAX_SAFE_INTEGER, true)', runs, bundle) : undefined;

  // The first default-budget snapshot after a change of the page (a style property on the root: hit tests are not reused).
  await page.evaluate(() => document.documentElement.style.setProperty('--oriel-bench-first', String(Math.random())));
  const defaultFirst = await snap({})();
  const unbudgeted = await repeat(1, runs, snap({ max_chars: 200_000 }));
  const byDefault = await repeat(0, runs, snap({}));
  // A whole-page read (`since` must read all of the page; naming a snapshot that is not held makes it show the
  // outline), and the whole outline by following cursors (also the coverage check and the character count of a large
  // page). The two alternate, run by run, so that a change in the machine's load meets both alike.
  const wholeRead = snap({ max_chars: 200_000, since: 'sbenchnone0' });
  await wholeRead();
  const whole: Awaited<ReturnType<typeof timedCall>>[] = [];
  const follows: number[] = [];
  let text = '';
  let pages = 0;
  for (let i = 0; i < runs; i++) {
    whole.push(await wholeRead());
    const t0 = performance.now();
    ({ text, pages } = await wholeOutline(snap));
    follows.push(performance.now() - t0);
  }

  const cov = (x: { structured: Record<string, unknown> }) => (x.structured.coverage ?? {}) as { truncated?: boolean };
  return {
    floor: { ...summary(floors.map((f) => f.ms)), elements: floors[0]!.elements },
    afterStyleChange: { floor: summary(floorsChanged.map((f) => f.ms)), walk: summary(inPageChanged.map((r) => r.walkMs)) },
    warm,
    inPage: {
      walk: summary(inPage.map((r) => r.walkMs)),
      total: summary(inPage.map((r) => r.totalMs)),
      chars: inPage[0]!.chars,
      lines: inPage[0]!.lines,
      visited: inPage[0]!.visited,
    },
    mcp: {
      firstCall: Math.round(first.ms),
      unbudgeted: { ...summary(unbudgeted.map((r) => r.ms)), chars: first.text.length, truncated: cov(first).truncated === true, cursor: typeof first.structured.cursor === 'string' },
      defaultBudget: { ...summary(byDefault.map((r) => r.ms)), chars: byDefault[0]!.text.length, truncated: cov(byDefault[0]!).truncated === true },
      defaultFirst: Math.round(defaultFirst.ms),
      defaultVisited: Number((byDefault[0]!.structured.coverage as { visited?: number } | undefined)?.visited ?? 0),
    },
    fullOutline: { pages, chars: text.length, ms: Math.round(summary(follows).median), runs: follows.map((m) => Math.round(m)) },
    wholeRead: { ...summary(whole.map((r) => r.ms)), chars: whole[0]!.text.length },
    timing: {
      content: summary(unbudgeted.map((r) => Number((r.structured.timing as { content_ms?: number } | undefined)?.content_ms ?? NaN))).median,
      browser: summary(unbudgeted.map((r) => Number((r.structured.timing as { browser_ms?: number } | undefined)?.browser_ms ?? NaN))).median,
    },
    ...(breakdown ? { breakdown } : {}),
    coverage: checkCoverage(text, gen.interactive),
    visibleInteractiveInPage,
  };
}

/**
 * Warm against fresh whole readings, and the floor, in one alternation per run (after `warmup` untimed rounds), so that
 * a change in the machine's load meets all alike; then whether a warm outline after a row change equals a fresh one.
 */
async function measureWarm(page: Page, warmup: number, runs: number): Promise<OrielPageResult['warm']> {
  const bench = () => page.evaluateHandle(() => (window as unknown as Win).__orielBench);
  const api = await bench();
  const run = (fresh: boolean, change: 'none' | 'row') => api.evaluate((b, f, c) => b.warm(f, c).ms, fresh, change);
  const t = { floor: [] as number[], fresh: [] as number[], reused: [] as number[], freshRow: [] as number[], reusedRow: [] as number[] };
  for (let i = 0; i < warmup + runs; i++) {
    const floor = await api.evaluate((b) => b.floor(false).ms);
    const fresh = await run(true, 'none');
    const reused = await run(false, 'none');
    const freshRow = await run(true, 'row');
    const reusedRow = await run(false, 'row');
    if (i < warmup) continue;
    t.floor.push(floor);
    t.fresh.push(fresh);
    t.reused.push(reused);
    t.freshRow.push(freshRow);
    t.reusedRow.push(reusedRow);
  }
  const warmText = await api.evaluate((b) => b.warm(false, 'row', true).text);
  const freshText = await api.evaluate((b) => b.warm(true, 'none', true).text);
  await api.dispose();
  return { floor: summary(t.floor), fresh: summary(t.fresh), reused: summary(t.reused), freshRow: summary(t.freshRow), reusedRow: summary(t.reusedRow), same: warmText === freshText };
}

/** The whole outline of a page, following cursors at the hard cap (at most 50 pages), and how many pages it took. */
async function wholeOutline(
  snap: (args: Record<string, unknown>) => () => Promise<{ structured: Record<string, unknown>; text: string }>,
): Promise<{ text: string; pages: number }> {
  let text = '';
  let pages = 0;
  let cursor: string | undefined;
  do {
    const r = await snap({ max_chars: 200_000, ...(cursor ? { cursor } : {}) })();
    text += (text ? '\n' : '') + r.text;
    cursor = typeof r.structured.cursor === 'string' ? r.structured.cursor : undefined;
    pages++;
  } while (cursor && pages < 50);
  return { text, pages };
}

/** Targets on the 1k page that both Oriel and Playwright act on: Add buttons, Note textareas, section headings. */
export function actionTargets(gen: GeneratedPage): { buttons: string[]; fields: string[]; headings: string[] } {
  const buttons = gen.interactive.filter((n) => n.startsWith('Add to cart '));
  const fields = gen.interactive.filter((n) => n.startsWith('Note '));
  const headings = buttons.map((b) => `Section ${b.slice('Add to cart '.length)}`);
  return { buttons, fields, headings };
}

/**
 * Latency of click, type and extract on the 1k page by `client`, which took a whole snapshot first; with `plain` (a
 * client that never reads the tab), also the same clicks without the changes a result carries after a snapshot.
 */
export async function measureOrielLatency(client: Client, session: string, gen: GeneratedPage, plan: Plan, plain?: Client): Promise<OrielLatency> {
  const outline = (await call(client, 'snapshot', { session, max_chars: 200_000 })).text;
  const t = actionTargets(gen);
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const h = (role: string, name: string) => handleOf(outline, new RegExp(`${role} "${esc(name)}"`));
  const buttons = t.buttons.map((n) => h('button', n));
  const fields = t.fields.map((n) => h('textbox', n));
  const headings = t.headings.map((n) => h('heading', n));
  let errors = 0;
  const run = async (tool: string, args: (i: number) => Record<string, unknown>, by: Client = client) => {
    let i = 0;
    const samples = await repeat(plan.actionWarmup, plan.actionCalls, async () => {
      const r = await timedCall(by, tool, { session, ...args(i++) });
      if (r.isError) {
        errors++;
        if (errors <= 3) process.stderr.write(`oriel ${tool} failed: ${r.text.slice(0, 300)}\n`);
      }
      return r.ms;
    });
    return latency(samples);
  };
  const click = await run('click', (i) => ({ handle: buttons[i % buttons.length] }));
  const clickPlain = plain && (await run('click', (i) => ({ handle: buttons[i % buttons.length] }), plain));
  const type = await run('type', (i) => ({ handle: fields[i % fields.length], text: `note ${i}` }));
  const extract = await run('extract', (i) => ({ handle: headings[i % headings.length] }));
  return { click, ...(clickPlain && { clickPlain }), type, extract, errors };
}

export interface OrielFlatResult {
  /** The first snapshot of the freshly loaded page, max_chars 200000 (one call). */
  firstCall: number;
  /** Later snapshots of the same page, max_chars 200000 and the default budget. */
  again: Summary;
  defaultBudget: Summary & { chars: number };
  /** (b) in the page: the walker's first walk there (the main world meets each element for the first time), then later walks. */
  inPage: { firstWalk: number; walk: Summary };
  chars: number;
  coverage: Coverage;
}

/** The flat page (bench/pages.ts generateFlatPage): first and later snapshots through MCP, and the in-page walk. */
export async function measureOrielFlatPage(page: Page, client: Client, session: string, gen: GeneratedPage, bundle: string, plan: Plan): Promise<OrielFlatResult> {
  const runs = gen.target >= 10_000 ? plan.runsLarge : plan.runs;
  const snap = (args: Record<string, unknown>) => async () => {
    const r = await timedCall(client, 'snapshot', { session, ...args });
    if (r.isError) throw new Error(`snapshot failed on the flat page of ${gen.target} rows: ${r.text.slice(0, 500)}`);
    return r;
  };
  const first = await snap({ max_chars: 200_000 })();
  const again = await repeat(0, runs, snap({ max_chars: 200_000 }));
  const byDefault = await repeat(0, runs, snap({}));
  await page.addScriptTag({ content: bundle });
  const walk = () => page.evaluate(() => (window as unknown as Win).__orielBench.oriel(false, false)) as Promise<OrielRun>;
  const firstWalk = await walk();
  const walks = await repeat(plan.warmup, runs, walk);
  // The whole outline, following cursors, for the coverage check.
  const { text } = await wholeOutline(snap);
  return {
    firstCall: Math.round(first.ms),
    again: summary(again.map((r) => r.ms)),
    defaultBudget: { ...summary(byDefault.map((r) => r.ms)), chars: byDefault[0]!.text.length },
    inPage: { firstWalk: Math.round(firstWalk.walkMs * 10) / 10, walk: summary(walks.map((r) => r.walkMs)) },
    chars: text.length,
    coverage: checkCoverage(text, gen.interactive),
  };
}

export interface LoopResult {
  /** The first read: a whole snapshot (max_chars 200000). */
  first: Summary & { chars: number };
  /** click on one checkbox (one row of the page changes). */
  click: Summary;
  /** The second read: the whole snapshot again, or only what changed (`since` the first). */
  again: Summary & { chars: number };
  since: Summary & { chars: number };
}

/**
 * The agent's loop on a generated page: snapshot, click one "Gift wrap" checkbox (one row changes), read again —
 * the whole outline, or `since` the first snapshot. Each run uses another checkbox.
 */
export async function measureOrielLoop(client: Client, session: string, gen: GeneratedPage, runs: number): Promise<LoopResult> {
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await timedCall(client, tool, { session, ...args });
    if (r.isError) throw new Error(`${tool} failed in the loop: ${r.text.slice(0, 300)}`);
    return r;
  };
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const boxes = gen.interactive.filter((n) => n.startsWith('Gift wrap '));
  const first: number[] = [], firstChars: number[] = [], click: number[] = [], again: number[] = [], againChars: number[] = [], since: number[] = [], sinceChars: number[] = [];
  for (let i = 0; i < runs * 2; i++) {
    const s0 = await call('snapshot', { max_chars: 200_000 });
    first.push(s0.ms);
    firstChars.push(s0.text.length);
    const box = handleOf(s0.text, new RegExp(`checkbox "${esc(boxes[i % boxes.length]!)}"`));
    click.push((await call('click', { handle: box })).ms);
    // Alternate: half the runs read the whole outline again, half only what changed.
    if (i % 2 === 0) {
      const d = await call('snapshot', { max_chars: 200_000, since: s0.structured.snapshot });
      since.push(d.ms);
      sinceChars.push(d.text.length);
    } else {
      const a = await call('snapshot', { max_chars: 200_000 });
      again.push(a.ms);
      againChars.push(a.text.length);
    }
  }
  const med = (v: number[]) => summary(v).median;
  return {
    first: { ...summary(first), chars: med(firstChars) },
    click: summary(click),
    again: { ...summary(again), chars: med(againChars) },
    since: { ...summary(since), chars: med(sinceChars) },
  };
}

export interface RowsResult {
  rows: number;
  columns: string[];
  ms: Summary;
}

/** extract_rows of the whole 3,000-row table (test/fixtures/snapshot/big-table.html) in one call, with link URLs. */
export async function measureOrielRows(client: Client, session: string, runs: number): Promise<RowsResult> {
  const outline = (await call(client, 'snapshot', { session, max_chars: 2000 })).text;
  const table = handleOf(outline, /table "Orders"/);
  const results = await repeat(1, runs, async () => {
    const r = await timedCall(client, 'extract_rows', { session, handle: table, max_rows: 5000, link_urls: true });
    if (r.isError) throw new Error(`extract_rows failed: ${r.text.slice(0, 300)}`);
    return r;
  });
  const last = results[results.length - 1]!.structured as { rows?: unknown[]; columns?: string[] };
  return { rows: last.rows?.length ?? 0, columns: last.columns ?? [], ms: summary(results.map((r) => r.ms)) };
}

/** The default-budget snapshot of two pages shared in two tabs at once, measured in alternation. */
export interface BudgetPair {
  small: { target: number } & Summary;
  large: { target: number } & Summary;
}

/**
 * The default-budget snapshot (later calls) of a small and a large page, each in a tab of its own, call for call in
 * alternation (after `warmup` untimed pairs), so that a change in the machine's load meets both pages alike.
 */
export async function measureBudgetPair(
  client: Client,
  small: { target: number; session: string },
  large: { target: number; session: string },
  warmup: number,
  runs: number,
): Promise<BudgetPair> {
  const times: Record<'small' | 'large', number[]> = { small: [], large: [] };
  for (let i = 0; i < warmup + runs; i++) {
    for (const [key, s] of [['small', small], ['large', large]] as const) {
      const r = await timedCall(client, 'snapshot', { session: s.session });
      if (r.isError) throw new Error(`default-budget snapshot failed on ${s.target}: ${r.text.slice(0, 500)}`);
      if (i >= warmup) times[key].push(r.ms);
    }
  }
  return { small: { target: small.target, ...summary(times.small) }, large: { target: large.target, ...summary(times.large) } };
}
