// `oriel config <client>`: every snippet parses and runs `<node> <cli> mcp` (broker/cli/client-config.ts), with
// `--tools <list>` when asked for a tool set.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { clientConfig, MCP_CLIENTS } from '../../broker/cli/client-config.js';
import { runCli, tempMachine, type TempMachine } from './cli-fixtures.js';

let machine: TempMachine;
afterEach(() => machine?.cleanup());

/** Just enough TOML for the codex snippet: `[table]` headers and `key = <JSON-compatible string or array>` lines. */
function parseSimpleToml(text: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  let table: Record<string, unknown> | undefined;
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const header = /^\[([A-Za-z0-9_.-]+)\]$/.exec(line);
    if (header) {
      table = out[header[1]!] = {};
      continue;
    }
    const kv = /^([A-Za-z0-9_-]+) = (.+)$/.exec(line);
    if (!kv || !table) throw new Error(`not simple TOML: ${line}`);
    table[kv[1]!] = JSON.parse(kv[2]!);
  }
  return out;
}

describe('oriel config', () => {
  const run = { nodePath: '/opt/node 20/bin/node', cliPath: "/home/o'brien/oriel/dist/broker/oriel.mjs", os: 'linux' as const };
  const expected = { command: run.nodePath, args: [run.cliPath, 'mcp'] };

  it('claude-desktop, cursor and windsurf: an "mcpServers" entry', () => {
    for (const client of ['claude-desktop', 'cursor', 'windsurf'] as const) {
      const c = clientConfig(client, run);
      expect(c.format).toBe('json');
      expect(JSON.parse(c.snippet)).toStrictEqual({ mcpServers: { oriel: expected } });
      expect(c.where.length).toBeGreaterThan(0);
    }
    expect(clientConfig('claude-desktop', run).where.join('\n')).toContain('~/Library/Application Support/Claude/claude_desktop_config.json');
    expect(clientConfig('claude-desktop', run).where.join('\n')).toContain('%APPDATA%\\Claude\\claude_desktop_config.json');
    expect(clientConfig('cursor', run).where.join('\n')).toContain('~/.cursor/mcp.json');
    expect(clientConfig('windsurf', run).where.join('\n')).toContain('~/.codeium/windsurf/mcp_config.json');
  });

  it('vscode: the .vscode/mcp.json shape with "servers" and type stdio', () => {
    const c = clientConfig('vscode', run);
    expect(JSON.parse(c.snippet)).toStrictEqual({ servers: { oriel: { type: 'stdio', ...expected } } });
    expect(c.where.join('\n')).toContain('.vscode/mcp.json');
  });

  it('codex: a [mcp_servers.oriel] TOML table', () => {
    const c = clientConfig('codex', { ...run, cliPath: 'C:\\Users\\me\\oriel\\dist\\broker\\oriel.mjs', os: 'win32' });
    expect(c.format).toBe('toml');
    expect(parseSimpleToml(c.snippet)).toStrictEqual({
      'mcp_servers.oriel': { command: run.nodePath, args: ['C:\\Users\\me\\oriel\\dist\\broker\\oriel.mjs', 'mcp'] },
    });
    expect(c.where.join('\n')).toContain('~/.codex/config.toml');
  });

  it('claude-code: a `claude mcp add` line whose words survive the shell', () => {
    const c = clientConfig('claude-code', run);
    expect(c.snippet.startsWith('claude mcp add --scope user oriel -- ')).toBe(true);
    // Swap `claude` for printf and let sh split the line: each word must come back intact.
    const echoed = spawnSync('sh', ['-c', c.snippet.replace(/^claude /, "printf '%s\\n' ")], { encoding: 'utf8' });
    expect(echoed.stdout.trimEnd().split('\n')).toStrictEqual(['mcp', 'add', '--scope', 'user', 'oriel', '--', run.nodePath, run.cliPath, 'mcp']);
  });

  it('generic: command and args', () => {
    expect(JSON.parse(clientConfig('generic', run).snippet)).toMatchObject(expected);
  });

  it('through the CLI: stdout is only the snippet, stderr says where it goes, for every client', async () => {
    machine = tempMachine();
    for (const client of MCP_CLIENTS) {
      const out = await runCli(machine.ctx, ['config', client]);
      expect(out.code).toBe(0);
      expect(out.out).toContain(machine.ctx.cliPath.replace(/'/g, client === 'claude-code' ? `'\\''` : "'"));
      expect(out.out).toContain(process.execPath);
      expect(out.out).toMatch(/mcp/);
      if (client === 'codex') expect(parseSimpleToml(out.out)['mcp_servers.oriel']).toMatchObject({ args: [machine.ctx.cliPath, 'mcp'] });
      else if (client !== 'claude-code') expect(() => JSON.parse(out.out)).not.toThrow();
      expect(out.err.length).toBeGreaterThan(0);
      // How to let the app ask Oriel's permission questions too (off by default) goes with every snippet, never into it.
      expect(out.err).toContain('"Asking in your agent\'s app" in Oriel\'s options');
      expect(out.out).not.toContain('Asking in your');
    }
  });

  it('--tools: the entry runs `oriel mcp --tools <list>`, and every stdio form says how to pick a set', async () => {
    machine = tempMachine();
    const plain = await runCli(machine.ctx, ['config', 'cursor']);
    expect(plain.err).toContain('--tools core');
    expect(plain.err).toContain('Tools: every tool');
    const core = await runCli(machine.ctx, ['config', 'cursor', '--tools', 'core']);
    expect(core.code).toBe(0);
    expect(JSON.parse(core.out).mcpServers.oriel.args).toEqual([machine.ctx.cliPath, 'mcp', '--tools', 'core']);
    expect(core.err).toContain('Tools: only core.');
    const codex = await runCli(machine.ctx, ['config', 'codex', '--tools', 'core,evaluate']);
    expect(parseSimpleToml(codex.out)['mcp_servers.oriel']).toMatchObject({ args: [machine.ctx.cliPath, 'mcp', '--tools', 'core,evaluate'] });
    const bad = await runCli(machine.ctx, ['config', 'cursor', '--tools', 'bogus']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('neither a set');
    expect(bad.out).toBe('');
    const http = await runCli(machine.ctx, ['config', 'cursor', '--http', '--tools', 'core']);
    expect(http.code).toBe(2);
    expect(http.err).toContain('serves every tool');
  });

  it('without ORIEL_RUNTIME_DIR or ORIEL_DATA_DIR, no env at all; with them, every snippet passes them on', async () => {
    expect(JSON.parse(clientConfig('claude-desktop', run).snippet).mcpServers.oriel).toStrictEqual(expected);
    machine = tempMachine();
    const env = { ORIEL_RUNTIME_DIR: machine.ctx.env.ORIEL_RUNTIME_DIR!, ORIEL_DATA_DIR: machine.ctx.env.ORIEL_DATA_DIR! };
    for (const client of MCP_CLIENTS) {
      const out = (await runCli(machine.ctx, ['config', client])).out;
      if (client === 'codex') expect(parseSimpleToml(out)['mcp_servers.oriel.env']).toStrictEqual(env);
      else if (client === 'claude-code') {
        const words = spawnSync('sh', ['-c', out.replace(/^claude /, "printf '%s\\n' ")], { encoding: 'utf8' }).stdout.split('\n');
        expect(words.slice(0, 9)).toStrictEqual(['mcp', 'add', '--scope', 'user', '-e', `ORIEL_RUNTIME_DIR=${env.ORIEL_RUNTIME_DIR}`, '-e', `ORIEL_DATA_DIR=${env.ORIEL_DATA_DIR}`, 'oriel']);
      }
      else {
        const parsed = JSON.parse(out) as { mcpServers?: Record<string, { env: unknown }>; servers?: Record<string, { env: unknown }>; env?: unknown };
        expect(parsed.env ?? (parsed.mcpServers ?? parsed.servers)!.oriel!.env, client).toStrictEqual(env);
      }
    }
  });

  it('refuses an unknown client', async () => {
    machine = tempMachine();
    const out = await runCli(machine.ctx, ['config', 'netscape']);
    expect(out.code).not.toBe(0);
    expect(out.err).toContain('claude-desktop');
  });
});
