// MCP client helpers shared by the Oriel and Playwright halves of the benchmark: one timed tool call, and the
// Playwright MCP server (node_modules/@playwright/mcp) started over stdio against the system Chromium.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT } from '../test/e2e/harness.js';

export const CHROMIUM = '/usr/bin/chromium';

export interface Timed {
  ms: number;
  isError: boolean;
  /** All text content of the result, as a model would read it. */
  text: string;
  structured: Record<string, unknown>;
}

/** One tool call, timed from just before the request is written to just after the result is parsed. */
export async function timedCall(client: Client, name: string, args: Record<string, unknown>, timeoutMs = 120_000): Promise<Timed> {
  const t0 = performance.now();
  const r = (await client.callTool({ name, arguments: args }, { timeout: timeoutMs })) as {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    content?: Array<{ type: string; text?: string }>;
  };
  const ms = performance.now() - t0;
  const text = (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
  return { ms, isError: r.isError === true, text, structured: r.structuredContent ?? {} };
}

export interface PlaywrightMcp {
  client: Client;
  version: string;
  args: string[];
  /** The server's working folder: files its answers link to (`out/…`) are relative to it. */
  dir: string;
  close(): Promise<void>;
}

/**
 * Starts Playwright MCP headless on the system Chromium, isolated profile, nothing but local pages to load; `extra`
 * arguments are appended (e.g. `--caps vision`).
 */
export async function startPlaywrightMcp(extra: readonly string[] = []): Promise<PlaywrightMcp> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-bench-pw-'));
  const cli = path.join(ROOT, 'node_modules/@playwright/mcp/cli.js');
  const version = execFileSync(process.execPath, [cli, '--version'], { encoding: 'utf8' }).trim();
  const args = [
    cli,
    '--headless',
    '--browser', 'chromium',
    '--executable-path', CHROMIUM,
    '--no-sandbox',
    '--user-data-dir', path.join(tmp, 'profile'),
    '--output-dir', path.join(tmp, 'out'),
    '--viewport-size', '1280x800',
    '--image-responses', 'omit',
    '--codegen', 'none',
    '--no-webmcp',
    ...extra,
  ];
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: tmp, stderr: 'pipe' });
  const client = new Client({ name: 'oriel-bench', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(transport);
  return {
    client,
    version,
    args: args.slice(1),
    dir: tmp,
    async close() {
      await client.close().catch(() => undefined);
      killStragglers(tmp);
      rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/** Ends, one pid at a time, any browser process still running with a profile under `dir` (ours alone). */
export function killStragglers(dir: string): void {
  let out = '';
  try {
    out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  } catch {
    return;
  }
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!m || !m[2]!.includes(dir) || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}
