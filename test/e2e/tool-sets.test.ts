// `oriel mcp --tools <list>` (docs/tools.md, "Tool sets"): the relay asks the hub for a set of tools, and the official
// client sees only those, in both protocol eras, through the real relay and hub (no browser needed: listing and
// argument checks happen before any page call). A bad list is refused at start with a clear message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, call, ensureBuilt } from './harness.js';
import { TOOL_SETS } from '../../broker/mcp/tools/sets.js';
import { TOOLS } from '../../broker/mcp/tools/index.js';

let tmp: string;
let env: Record<string, string>;

beforeAll(() => {
  ensureBuilt();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-sets-'));
  env = { ...(process.env as Record<string, string>), ORIEL_RUNTIME_DIR: path.join(tmp, 'run'), ORIEL_DATA_DIR: path.join(tmp, 'data'), ORIEL_HUB_IDLE_MS: '30000' };
});

afterAll(() => {
  try {
    process.kill(Number(readFileSync(path.join(tmp, 'run/hub.pid'), 'utf8')), 'SIGTERM');
  } catch {
    /* none */
  }
  rmSync(tmp, { recursive: true, force: true });
});

async function connect(era: 'legacy' | 'modern', args: string[]): Promise<Client> {
  const client = new Client({ name: `sets-${era}`, version: '1' }, { versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: { pin: '2026-07-28' } } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env, stderr: 'pipe' }));
  return client;
}

describe('oriel mcp --tools', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`serves only the chosen set in the ${era} era, beside a client served every tool`, async () => {
      const core = await connect(era, ['--tools', 'core,evaluate']);
      const full = await connect(era, []);
      try {
        const chosen = (await core.listTools()).tools;
        const expected = TOOLS.map((t) => t.name).filter((n) => n === 'evaluate' || (TOOL_SETS.core as readonly string[]).includes(n));
        expect(chosen.map((t) => t.name)).toEqual(expected);
        const every = (await full.listTools()).tools;
        expect(every.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
        expect(JSON.stringify(chosen).length).toBeLessThan(JSON.stringify(every).length);
        // The instructions explain the arguments of the tools served, not of the others.
        expect(core.getInstructions()).toContain('extract_rows: ');
        expect(core.getInstructions()).not.toContain('await_message: ');
        // A listed tool runs (no tab is shared, so it says so); one outside the set is not there to call.
        expect((await call(core, 'snapshot')).error?.code).toBe('no_session');
        const outside = await core.callTool({ name: 'send_message', arguments: { data: 1 } }).then(
          (r) => (r as { isError?: boolean }).isError === true,
          () => true,
        );
        expect(outside).toBe(true);
        expect((await call(full, 'send_message', { data: 1 })).error?.code).toBe('no_session');
      } finally {
        await core.close();
        await full.close();
      }
    });
  }

  it('refuses an unknown set or tool at start, naming the sets, with nothing on stdout', () => {
    const out = spawnSync(process.execPath, [CLI, 'mcp', '--tools', 'core,bogus'], { env, encoding: 'utf8', input: '' });
    expect(out.status).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('"bogus" is neither a set (core,');
  });
});
