// The Playwright MCP half of the benchmark: browser_snapshot per page size (d), and browser_click / browser_type on
// the 1k page, on the same Chromium binary, through the same official MCP client over stdio.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { actionTargets, type Plan } from './oriel.js';
import { timedCall } from './mcp.js';
import type { GeneratedPage } from './pages.js';
import { latency, repeat, summary, type Latency, type Summary } from './stats.js';

export interface PlaywrightPageResult {
  /** The first browser_snapshot after loading the page (also the warm-up). */
  firstCall: number;
  snapshot: Summary & { chars: number; yamlChars: number };
  /** Visible interactive elements of the generator that the snapshot names with a ref. */
  refsFound: number;
}

export interface PlaywrightLatency {
  click: Latency;
  type: Latency;
  errors: number;
}

/** The YAML block of a Playwright MCP snapshot response (the outline without the page header). */
function yamlOf(text: string): string {
  const m = /```yaml\n([\s\S]*?)```/.exec(text);
  return m ? m[1]! : '';
}

async function navigate(client: Client, url: string): Promise<void> {
  // Its own 30 s limit can run out on the 50k page on a loaded machine (a whole run was lost to it once): tried again.
  for (let attempt = 1; ; attempt++) {
    const r = await timedCall(client, 'browser_navigate', { url });
    if (!r.isError) return;
    if (attempt >= 3 || !r.text.includes('Timeout')) throw new Error(`browser_navigate failed: ${r.text.slice(0, 300)}`);
  }
}

async function snapshot(client: Client): Promise<{ ms: number; text: string }> {
  const r = await timedCall(client, 'browser_snapshot', {});
  if (r.isError) throw new Error(`browser_snapshot failed: ${r.text.slice(0, 300)}`);
  return r;
}

export async function measurePlaywrightPage(client: Client, url: string, gen: GeneratedPage, plan: Plan): Promise<PlaywrightPageResult> {
  await navigate(client, url);
  const runs = gen.target >= 50_000 ? plan.runsLarge : plan.runs;
  const first = await snapshot(client);
  const snaps = await repeat(0, runs, () => snapshot(client));
  const text = snaps[0]!.text;
  const refNames = new Set<string>();
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"[^\n]*\[ref=[a-z0-9]+\]/g)) refNames.add(m[1]!);
  return {
    firstCall: Math.round(first.ms),
    snapshot: { ...summary(snaps.map((s) => s.ms)), chars: text.length, yamlChars: yamlOf(text).length },
    refsFound: gen.interactive.filter((n) => refNames.has(n)).length,
  };
}

export async function measurePlaywrightLatency(client: Client, url: string, gen: GeneratedPage, plan: Plan & { clickCalls: number; typeCalls: number }): Promise<PlaywrightLatency> {
  await navigate(client, url);
  const text = (await snapshot(client)).text;
  const t = actionTargets(gen);
  const ref = (role: string, name: string) => {
    const m = new RegExp(`${role} "${name}"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(text);
    if (!m) throw new Error(`no Playwright ref for ${role} "${name}"`);
    return m[1]!;
  };
  const buttons = t.buttons.map((n) => ({ element: `${n} button`, target: ref('button', n) }));
  const fields = t.fields.map((n) => ({ element: `${n} field`, target: ref('textbox', n) }));
  let errors = 0;
  const run = async (tool: string, calls: number, args: (i: number) => Record<string, unknown>) => {
    let i = 0;
    const samples = await repeat(Math.min(plan.actionWarmup, 3), calls, async () => {
      const r = await timedCall(client, tool, args(i++));
      if (r.isError) {
        errors++;
        if (errors <= 3) process.stderr.write(`playwright ${tool} failed: ${r.text.slice(0, 300)}\n`);
      }
      return r.ms;
    });
    return latency(samples);
  };
  const click = await run('browser_click', plan.clickCalls, (i) => buttons[i % buttons.length]!);
  const type = await run('browser_type', plan.typeCalls, (i) => ({ ...fields[i % fields.length]!, text: `note ${i}` }));
  return { click, type, errors };
}

export interface PlaywrightLoopResult {
  /** browser_snapshot before the click. */
  first: Summary & { chars: number };
  /** browser_click on one checkbox: the text of its response. */
  click: Summary & { chars: number };
  /**
   * The page after the click as Playwright MCP gives it: with an output folder it writes the snapshot to a file and
   * the response links it (`[Snapshot](out/page-….yml)`); characters of that file (0 when the response links none).
   */
  linked: number;
}

/** The agent's loop as Playwright MCP does it: browser_snapshot, then browser_click on one "Gift wrap" checkbox. */
export async function measurePlaywrightLoop(client: Client, url: string, gen: GeneratedPage, runs: number, dir: string): Promise<PlaywrightLoopResult> {
  await navigate(client, url);
  const boxes = gen.interactive.filter((n) => n.startsWith('Gift wrap '));
  const first: number[] = [], firstChars: number[] = [], click: number[] = [], clickChars: number[] = [], linked: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = await snapshot(client);
    first.push(s.ms);
    firstChars.push(s.text.length);
    const name = boxes[i % boxes.length]!;
    const m = new RegExp(`checkbox "${name}"[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(s.text);
    if (!m) throw new Error(`no Playwright ref for checkbox "${name}"`);
    const r = await timedCall(client, 'browser_click', { element: `${name} checkbox`, target: m[1] });
    if (r.isError) throw new Error(`browser_click failed: ${r.text.slice(0, 300)}`);
    click.push(r.ms);
    clickChars.push(r.text.length);
    const file = /\[Snapshot\]\(([^)]+)\)/.exec(r.text)?.[1];
    linked.push(file ? readFileSync(path.resolve(dir, file), 'utf8').length : 0);
  }
  const med = (v: number[]) => summary(v).median;
  return { first: { ...summary(first), chars: med(firstChars) }, click: { ...summary(click), chars: med(clickChars) }, linked: med(linked) };
}
