// The ten-action agent loop (`ORIEL_BENCH_PART=loop npm run bench`): every character an agent reads while it takes
// one snapshot and then ten actions on the 1k and 10k pages, for Oriel and for Playwright MCP — the tool list once per
// model request, the server's instructions once, the snapshot, and each result with what it shows of the page
// afterwards; and what showing the changes costs a click (p50 with and without them, same run). Writes bench/results/loop.json and its part of docs/BENCHMARKS.md.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { ROOT, handleOf, type Rig } from '../test/e2e/harness.js';
import { timedCall, type Timed } from './mcp.js';
import { openShared } from './oriel.js';
import type { GeneratedPage } from './pages.js';
import { latency, round, type Latency } from './stats.js';

/** One action of the loop, named by the accessible role and name both servers show for its element. */
interface Step {
  kind: 'click' | 'select' | 'type';
  role: string;
  name: string;
  /** The option to select, or the text to type. */
  value?: string;
}

/** Ten actions on the first two sections of a generated page (bench/pages.ts): every kind of control it has. */
export const STEPS: Step[] = [
  { kind: 'click', role: 'checkbox', name: 'Gift wrap 0' },
  { kind: 'select', role: 'combobox', name: 'Size 0', value: 'Large' },
  { kind: 'type', role: 'spinbutton', name: 'Quantity 0', value: '2' },
  { kind: 'type', role: 'textbox', name: 'Note 0', value: 'gift for Ann' },
  { kind: 'click', role: 'button', name: 'Add to cart 0' },
  { kind: 'click', role: 'checkbox', name: 'Gift wrap 1' },
  { kind: 'select', role: 'combobox', name: 'Size 1', value: 'Small' },
  { kind: 'type', role: 'spinbutton', name: 'Quantity 1', value: '3' },
  { kind: 'click', role: 'button', name: 'More about 1' },
  { kind: 'click', role: 'button', name: 'Add to cart 1' },
];

/** What the agent read in one loop. Model requests: one per tool call, and one after the last result. */
export interface LoopCount {
  requests: number;
  toolList: number;
  instructions: number;
  /** The first snapshot's text. */
  snapshot: number;
  /** The ten results, with what each shows of the page after it (Oriel: its diff; Playwright MCP: the linked snapshot file). */
  results: number;
  /** Of `results`, the part showing the page (diffs and notes, or the linked files). */
  pageAfter: number;
  /** Extra reads of the page (the "read again after each action" variant). */
  reads: number;
  total: number;
  /** Wall time of the ten actions (and reads), ms. */
  ms: number;
}

const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The tool list goes with every model request; the instructions once (at initialize), as docs/tools.md counts them. */
function total(c: Omit<LoopCount, 'total'>): LoopCount {
  return { ...c, total: c.requests * c.toolList + c.instructions + c.snapshot + c.results + c.reads };
}

/** The total when a client repeats the server's instructions in every request's system prompt. */
const totalRepeating = (c: LoopCount) => c.total + (c.requests - 1) * c.instructions;

/** Characters of the tool list as a client sends it (JSON of the tools/list result) and of the instructions. */
export async function listSizes(client: Client): Promise<{ toolList: number; instructions: number }> {
  return { toolList: JSON.stringify(await client.listTools()).length, instructions: client.getInstructions()?.length ?? 0 };
}

async function must(client: Client, tool: string, args: Record<string, unknown>): Promise<Timed> {
  const r = await timedCall(client, tool, args);
  if (r.isError) throw new Error(`${tool} failed in the loop: ${r.text.slice(0, 300)}`);
  return r;
}

/**
 * Oriel's loop: snapshot (the default budget, as an agent calls it), then the ten actions by handle; each result shows
 * what changed. `readAgain`: the agent instead reads the page again after each action (a default-budget snapshot),
 * and the changes in the results are not counted — the loop as agents ran it before actions showed them.
 */
export async function orielLoop(client: Client, session: string, readAgain: boolean): Promise<LoopCount> {
  const sizes = await listSizes(client);
  const snap = await must(client, 'snapshot', { session });
  const t0 = performance.now();
  let results = 0;
  let pageAfter = 0;
  let reads = 0;
  for (const step of STEPS) {
    const handle = handleOf(snap.text, new RegExp(`^ *${step.role} "${esc(step.name)}"`));
    const args = step.kind === 'select' ? { options: [step.value] } : step.kind === 'type' ? { text: step.value } : {};
    const r = await must(client, step.kind === 'select' ? 'select_options' : step.kind, { session, handle, ...args });
    const at = r.text.indexOf('\nchanges since ');
    const shown = at < 0 ? 0 : r.text.length - at;
    if (readAgain) {
      results += r.text.length - shown;
      reads += (await must(client, 'snapshot', { session })).text.length;
    } else {
      results += r.text.length;
      pageAfter += shown;
    }
  }
  const ms = performance.now() - t0;
  return total({ requests: STEPS.length * (readAgain ? 2 : 1) + 2, ...sizes, snapshot: snap.text.length, results, pageAfter, reads, ms });
}

/** The ref Playwright MCP's snapshot text gives the element `role "name"`. */
function refOf(text: string, step: Step): string {
  const m = new RegExp(`${step.role} "${esc(step.name)}"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(text);
  if (!m) throw new Error(`no Playwright ref for ${step.role} "${step.name}"`);
  return m[1]!;
}

/**
 * Playwright MCP's loop: browser_snapshot, then the ten actions by ref. Its action responses link a snapshot file
 * of the page after the action (`[Snapshot](…yml)`), the only way it shows the page then: the agent reads it, and
 * its characters count (they are also given apart). Refs are taken from the latest snapshot the agent has.
 */
export async function playwrightLoop(client: Client, dir: string, url: string): Promise<LoopCount> {
  const sizes = await listSizes(client);
  await must(client, 'browser_navigate', { url });
  const snap = await must(client, 'browser_snapshot', {});
  let latest = snap.text;
  const t0 = performance.now();
  let results = 0;
  let pageAfter = 0;
  for (const step of STEPS) {
    const target = refOf(latest, step);
    const element = `${step.name} ${step.role}`;
    const r =
      step.kind === 'select'
        ? await must(client, 'browser_select_option', { element, target, values: [step.value] })
        : step.kind === 'type'
          ? await must(client, 'browser_type', { element, target, text: step.value })
          : await must(client, 'browser_click', { element, target });
    const file = /\[Snapshot\]\(([^)]+)\)/.exec(r.text)?.[1];
    const linked = file ? readFileSync(path.resolve(dir, file), 'utf8') : '';
    if (linked) latest = linked;
    results += r.text.length + linked.length;
    pageAfter += linked.length;
  }
  const ms = performance.now() - t0;
  return total({ requests: STEPS.length + 2, ...sizes, snapshot: snap.text.length, results, pageAfter, reads: 0, ms });
}

/** Click latency on one page with and without the changes in the result, measured in alternation. */
export interface ClickCost {
  /** A client whose last snapshot is the default-budget one (its changes compare the part of the page it showed). */
  budgeted: Latency;
  /** A client whose last snapshot is the whole outline (max_chars 200000): its changes read the whole page. */
  whole: Latency;
  /** A client that took no snapshot of the tab: no changes are computed. */
  none: Latency;
  /** Median characters of the changes part of the budgeted client's results. */
  diffChars: number;
  /** Medians of the comparison's own account (`changes.timing`), ms: the browser altogether, and the content script. */
  compare: { budgeted: { browser: number; content: number }; whole: { browser: number; content: number } };
}

const median = (v: number[]) => {
  const sorted = [...v].sort((a, b) => a - b);
  return sorted.length ? round(sorted[Math.floor(sorted.length / 2)]!) : 0;
};

/**
 * Three clients click "Gift wrap" checkboxes of the first sections in turn (each click toggles one, so every result has
 * a change to show), one call each in rotation, `calls` calls per client after 3 untimed rounds.
 */
export async function clickCost(rig: Rig, url: string, gen: GeneratedPage, calls: number): Promise<ClickCost> {
  const clients = [await rig.client('legacy', 'loop-budgeted'), await rig.client('legacy', 'loop-whole'), await rig.client('legacy', 'loop-none')];
  const { page, session } = await openShared(rig, clients[0]!, url);
  try {
    const first = await must(clients[0]!, 'snapshot', { session });
    await must(clients[1]!, 'snapshot', { session, max_chars: 200_000 });
    const boxes = gen.interactive.filter((n) => n.startsWith('Gift wrap ')).slice(0, 20);
    const handles = boxes.map((n) => handleOf(first.text, new RegExp(`checkbox "${esc(n)}"`)));
    const samples: number[][] = [[], [], []];
    const diffChars: number[] = [];
    const spent = [{ browser: [] as number[], content: [] as number[] }, { browser: [] as number[], content: [] as number[] }];
    for (let i = 0; i < calls + 3; i++) {
      for (let c = 0; c < 3; c++) {
        const r = await must(clients[c]!, 'click', { session, handle: handles[(i * 3 + c) % handles.length] });
        if (i < 3) continue;
        samples[c]!.push(r.ms);
        const timing = (r.structured.changes as { timing?: { browser_ms: number; content_ms: number } } | undefined)?.timing;
        if (timing && c < 2) {
          spent[c]!.browser.push(timing.browser_ms);
          spent[c]!.content.push(timing.content_ms);
        }
        if (c === 0) {
          const at = r.text.indexOf('\nchanges since ');
          diffChars.push(at < 0 ? 0 : r.text.length - at);
        }
      }
    }
    const compare = (i: number) => ({ browser: median(spent[i]!.browser), content: median(spent[i]!.content) });
    return { budgeted: latency(samples[0]!), whole: latency(samples[1]!), none: latency(samples[2]!), diffChars: median(diffChars), compare: { budgeted: compare(0), whole: compare(1) } };
  } finally {
    await page.close().catch(() => undefined);
    for (const c of clients) await c.close().catch(() => undefined);
  }
}

export interface LoopResults {
  date: string;
  command: string;
  facts: Record<string, string>;
  pages: Array<{ target: number; oriel: LoopCount; orielReadAgain: LoopCount; playwright: LoopCount; clicks: ClickCost }>;
}

/** The loop's tables, as docs/BENCHMARKS.md shows them between their markers. */
export function loopMarkdown(r: LoopResults): string {
  const n = (v: number) => Math.round(v).toLocaleString('en-US');
  const row = (label: string, c: LoopCount) =>
    `| ${label} | ${c.requests} | ${n(c.toolList)} | ${n(c.instructions)} | ${n(c.snapshot)} | ${n(c.results)} (${n(c.pageAfter)}) | ${n(c.reads)} | **${n(c.total)}** | ${n(c.ms)} |`;
  const lines = [
    `Run of ${r.date.slice(0, 16).replace('T', ' ')} UTC: \`${r.command}\`. ${Object.entries(r.facts).map(([k, v]) => `${k}: ${v}`).join('; ')}.`,
    '',
    '| page | loop | model requests | tool list (each request) | instructions (once) | snapshot | ten results (of which the page after) | reads again | characters read | ten actions, ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const p of r.pages) {
    const k = `${p.target / 1000}k`;
    lines.push(row(`${k} | Oriel (results show the changes)`, p.oriel));
    lines.push(row(`${k} | Oriel, reading the page again after each action`, p.orielReadAgain));
    lines.push(row(`${k} | Playwright MCP (results link the page after)`, p.playwright));
  }
  lines.push(
    '',
    '| page | Oriel ÷ Playwright MCP, characters | Oriel ÷ Oriel reading again | Oriel ÷ Playwright MCP if a client repeats the instructions in every request |',
    '|---|---|---|---|',
  );
  for (const p of r.pages) {
    lines.push(`| ${p.target / 1000}k | **${round(p.oriel.total / p.playwright.total, 3)}×** | ${round(p.oriel.total / p.orielReadAgain.total, 3)}× | ${round(totalRepeating(p.oriel) / totalRepeating(p.playwright), 3)}× |`);
  }
  lines.push(
    '',
    'What showing the changes costs a click (the "Gift wrap" checkboxes of the first 20 sections in turn, three clients in rotation on one tab, so each result has changes to show):',
    '',
    '| page | click p50 / p99 ms, no snapshot taken (nothing compared) | after a default-budget snapshot | after a whole-outline snapshot (max_chars 200000) | comparing, median ms in the browser (content script): default budget / whole | changes part of a result, median characters |',
    '|---|---|---|---|---|---|',
    ...r.pages.map((p) => {
      const c = p.clicks.compare;
      return `| ${p.target / 1000}k | ${p.clicks.none.p50} / ${p.clicks.none.p99} (${p.clicks.none.n} calls) | ${p.clicks.budgeted.p50} / ${p.clicks.budgeted.p99} | ${p.clicks.whole.p50} / ${p.clicks.whole.p99} | ${c.budgeted.browser} (${c.budgeted.content}) / ${c.whole.browser} (${c.whole.content}) | ${p.clicks.diffChars} |`;
    }),
    '',
  );
  return lines.join('\n');
}

const BEGIN = '<!-- bench-loop:begin (generated by npm run bench; edit outside these markers) -->';
const END = '<!-- bench-loop:end -->';

/** Writes bench/results/loop.json and replaces the loop part of docs/BENCHMARKS.md (added before "Load"). */
export function writeLoopResults(r: LoopResults, text: string): void {
  writeFileSync(path.join(ROOT, 'bench/results/loop.json'), JSON.stringify(r, null, 2) + '\n');
  const doc = path.join(ROOT, 'docs/BENCHMARKS.md');
  const old = readFileSync(doc, 'utf8');
  const block = `${BEGIN}\n${text}${END}`;
  const a = old.indexOf(BEGIN);
  const b = old.indexOf(END);
  if (a >= 0 && b > a) {
    writeFileSync(doc, old.slice(0, a) + block + old.slice(b + END.length));
    return;
  }
  const at = old.indexOf('## Load: several clients');
  const section = `## Actions that show what changed: the ten-action loop\n\n${block}\n\n`;
  writeFileSync(doc, at >= 0 ? old.slice(0, at) + section + old.slice(at) : `${old.trimEnd()}\n\n${section}`);
}

/** Pages of the loop, and the timed clicks per client of the click-cost table. */
export interface ActLoopPlan {
  sizes: number[];
  clickCalls: number;
}

/**
 * Runs the loop part: Oriel alone first (one Chromium with the built extension), then Playwright MCP alone (a fresh
 * server per page), nothing else of ours running meanwhile. `url(n)` serves the generated page of `n` elements.
 */
export async function measureActLoop(
  plan: ActLoopPlan,
  pages: Map<number, GeneratedPage>,
  url: (n: number) => string,
  start: { oriel: () => Promise<{ rig: Rig; client: Client }>; closeOriel: (rig: Rig) => Promise<void>; playwright: () => Promise<{ client: Client; dir: string; close(): Promise<void> }> },
  log: (s: string) => void,
): Promise<LoopResults['pages']> {
  const oriel = new Map<number, { loop: LoopCount; again: LoopCount; clicks: ClickCost }>();
  const { rig, client } = await start.oriel();
  try {
    for (const n of plan.sizes) {
      log(`loop: Oriel on the ${n / 1000}k page`);
      const a = await openShared(rig, client, url(n));
      const loop = await orielLoop(client, a.session, false);
      await a.page.close();
      log(`loop: Oriel reading again, ${n / 1000}k page`);
      const b = await openShared(rig, client, url(n));
      const again = await orielLoop(client, b.session, true);
      await b.page.close();
      log(`loop: click cost, ${n / 1000}k page`);
      oriel.set(n, { loop, again, clicks: await clickCost(rig, url(n), pages.get(n)!, plan.clickCalls) });
    }
  } finally {
    await start.closeOriel(rig);
  }
  const out: LoopResults['pages'] = [];
  for (const n of plan.sizes) {
    log(`loop: Playwright MCP on the ${n / 1000}k page`);
    const pw = await start.playwright();
    try {
      const o = oriel.get(n)!;
      out.push({ target: n, oriel: o.loop, orielReadAgain: o.again, playwright: await playwrightLoop(pw.client, pw.dir, url(n)), clicks: o.clicks });
    } finally {
      await pw.close();
    }
  }
  return out;
}
