// The tool-list part of the benchmark: characters of the tools/list result a client sends its model with every
// request, for Oriel's tool sets (the built `oriel mcp --tools <set>`, through its relay and hub) and for Playwright
// MCP's default list and its list with every extra capability, through the same official MCP client. No browser runs:
// both servers list their tools before opening one. `ORIEL_BENCH_PART=tools npm run bench` runs this part alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, ROOT } from '../test/e2e/harness.js';
import { startPlaywrightMcp } from './mcp.js';

/** One server's tool list, measured. Characters are of `JSON.stringify` of the tools/list result. */
export interface ToolListRow {
  server: 'oriel' | 'playwright';
  /** `--tools` of `oriel mcp`, or Playwright MCP's `--caps` ('' for its default). */
  variant: string;
  tools: number;
  chars: number;
  /** Characters of the input schemas, descriptions and annotations (each JSON-encoded), summed over the tools. */
  schemas: number;
  descriptions: number;
  annotations: number;
  /** Characters of the server's instructions (sent once, at initialize). */
  instructions: number;
}

export interface ToolListResults {
  date: string;
  command: string;
  rows: ToolListRow[];
  /** Oriel's default list ÷ Playwright MCP's default list. */
  ratio: number;
}

/** Oriel's sets measured: the default (every tool) and the smallest named one. */
const ORIEL_SETS = ['all', 'core'];
/** Playwright MCP 0.0.83's extra capabilities (`--caps`); '' is its default list. */
const PLAYWRIGHT_CAPS = ['', 'vision,pdf,devtools'];

async function measure(client: Client, server: ToolListRow['server'], variant: string): Promise<ToolListRow> {
  const result = await client.listTools();
  const sum = (f: (t: (typeof result.tools)[number]) => unknown) => result.tools.reduce((n, t) => n + (f(t) === undefined ? 0 : JSON.stringify(f(t)).length), 0);
  return {
    server,
    variant,
    tools: result.tools.length,
    chars: JSON.stringify(result).length,
    schemas: sum((t) => t.inputSchema),
    descriptions: sum((t) => t.description),
    annotations: sum((t) => t.annotations),
    instructions: client.getInstructions()?.length ?? 0,
  };
}

/** Lists the tools of `oriel mcp --tools <set>` (the built CLI) against a hub of its own in a temporary folder. */
async function orielRow(set: string): Promise<ToolListRow> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-bench-tools-'));
  const env = { ...(process.env as Record<string, string>), ORIEL_RUNTIME_DIR: path.join(tmp, 'run'), ORIEL_DATA_DIR: path.join(tmp, 'data'), ORIEL_HUB_IDLE_MS: '5000' };
  const client = new Client({ name: 'oriel-bench', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  try {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--tools', set], env, stderr: 'pipe' }));
    return await measure(client, 'oriel', set);
  } finally {
    await client.close().catch(() => undefined);
    try {
      process.kill(Number(readFileSync(path.join(tmp, 'run/hub.pid'), 'utf8')), 'SIGTERM');
    } catch {
      /* the hub already left */
    }
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }
}

async function playwrightRow(caps: string): Promise<ToolListRow> {
  const pw = await startPlaywrightMcp(caps ? ['--caps', caps] : []);
  try {
    return await measure(pw.client, 'playwright', caps);
  } finally {
    await pw.close();
  }
}

/** Measures every list; `command` is how the run was started (recorded with the results). */
export async function measureToolLists(command: string, log: (s: string) => void): Promise<ToolListResults> {
  const rows: ToolListRow[] = [];
  for (const set of ORIEL_SETS) {
    log(`tool list: oriel mcp --tools ${set}`);
    rows.push(await orielRow(set));
  }
  for (const caps of PLAYWRIGHT_CAPS) {
    log(`tool list: Playwright MCP${caps ? ` --caps ${caps}` : ''}`);
    rows.push(await playwrightRow(caps));
  }
  const oriel = rows.find((r) => r.server === 'oriel' && r.variant === 'all')!;
  const pw = rows.find((r) => r.server === 'playwright' && r.variant === '')!;
  return { date: new Date().toISOString(), command, rows, ratio: Math.round((oriel.chars / pw.chars) * 1000) / 1000 };
}

/** The tool-list table, as docs/BENCHMARKS.md shows it between its markers. */
export function toolListMarkdown(r: ToolListResults, versions: Record<string, string>): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const label = (row: ToolListRow) => (row.server === 'oriel' ? `Oriel \`--tools ${row.variant}\`${row.variant === 'all' ? ' (default)' : ''}` : `Playwright MCP ${row.variant ? `\`--caps ${row.variant}\`` : '(default)'}`);
  return [
    `Run of ${r.date.slice(0, 16).replace('T', ' ')} UTC: \`${r.command}\`. ${Object.entries(versions).map(([k, v]) => `${k}: ${v}`).join('; ')}.`,
    '',
    '| server | tools | tools/list characters | input schemas | descriptions | annotations | instructions (once) |',
    '|---|---|---|---|---|---|---|',
    ...r.rows.map((row) => `| ${label(row)} | ${row.tools} | ${n(row.chars)} | ${n(row.schemas)} | ${n(row.descriptions)} | ${n(row.annotations)} | ${n(row.instructions)} |`),
    '',
    `Oriel's default list is **${r.ratio}×** Playwright MCP's default list (target ≤ 10,000 characters and ≤ 0.5×).`,
    '',
  ].join('\n');
}

const BEGIN = '<!-- bench-tools:begin (generated by npm run bench; edit outside these markers) -->';
const END = '<!-- bench-tools:end -->';

/** Writes bench/results/tools.json and replaces the tool-list part of docs/BENCHMARKS.md (added before "Load"). */
export function writeToolListResults(r: ToolListResults, text: string): void {
  writeFileSync(path.join(ROOT, 'bench/results/tools.json'), JSON.stringify(r, null, 2) + '\n');
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
  const section = `## Tool list: what a client sends with every request\n\n${block}\n\n`;
  writeFileSync(doc, at >= 0 ? old.slice(0, at) + section + old.slice(at) : `${old.trimEnd()}\n\n${section}`);
}
