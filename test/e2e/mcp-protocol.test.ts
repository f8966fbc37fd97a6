// Protocol eras on the stdio endpoint: 2026-07-28 and the 2025 revisions on one `oriel mcp`, an
// unsupported modern version refused with -32022 naming the supported ones, a legacy client answered with a version
// we speak; and the official client connecting in both eras with no browser attached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, call, ensureBuilt, until } from './harness.js';

let tmp: string;
let env: Record<string, string>;

beforeAll(() => {
  ensureBuilt();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-mcp-'));
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

/** Sends raw JSON-RPC lines to a fresh `oriel mcp` and returns the first answer with each id. */
async function raw(messages: object[], ids: number[]): Promise<Map<number, Record<string, unknown>>> {
  const child = spawn(process.execPath, [CLI, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const answers = new Map<number, Record<string, unknown>>();
  let buffer = '';
  let nonJson = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer; got ${JSON.stringify([...answers])}`)), 15_000);
    child.stdout.on('data', (c: Buffer) => {
      buffer += c.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        try {
          const msg = JSON.parse(line) as { id?: number };
          if (typeof msg.id === 'number') answers.set(msg.id, msg as Record<string, unknown>);
        } catch {
          nonJson += line;
        }
      }
      if (ids.every((id) => answers.has(id))) {
        clearTimeout(timer);
        resolve();
      }
    });
    for (const m of messages) child.stdin.write(JSON.stringify(m) + '\n');
  });
  child.kill();
  expect(nonJson).toBe(''); // stdout carries protocol only
  return answers;
}

describe('protocol eras', () => {
  it('refuses an unsupported modern version with -32022 and the supported list', async () => {
    const answers = await raw(
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'server/discover',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2099-01-01',
              'io.modelcontextprotocol/clientInfo': { name: 'future', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
      ],
      [1],
    );
    const error = answers.get(1)!.error as { code: number; data?: { supported?: string[] } };
    expect(error.code).toBe(-32022);
    expect(error.data?.supported).toContain('2026-07-28');
  });

  it('answers a legacy initialize for an unknown version with a version it speaks', async () => {
    const answers = await raw(
      [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'old', version: '0' } } }],
      [1],
    );
    const result = answers.get(1)!.result as { protocolVersion: string; serverInfo: { name: string } };
    expect(['2025-11-25', '2025-06-18', '2025-03-26']).toContain(result.protocolVersion);
    expect(result.serverInfo.name).toBe('oriel');
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`serves the official client in the ${era} era: tools listed, no_session without a browser`, async () => {
      const client = new Client(
        { name: `t-${era}`, version: '1' },
        { versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env, stderr: 'pipe' }));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_sessions', 'snapshot', 'click', 'navigate']));
      const snap = await call(client, 'snapshot', {});
      expect(snap.isError).toBe(true);
      expect(snap.error?.code).toBe('no_session');
      const bad = await call(client, 'click', { handle: 'not a handle' });
      expect(bad.isError).toBe(true);
      expect(bad.error?.code).toBe('invalid_argument');
      const list = await call(client, 'list_sessions');
      expect(list.structured).toEqual({ sessions: [], session_optional: false });
      await client.close();
    });
  }

  it('answers lines that are not JSON-RPC messages with JSON-RPC errors and keeps serving', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'list_sessions', arguments: { pad: 'x'.repeat(9 * 1024 * 1024) } } });
    const child = spawn(process.execPath, [CLI, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: Array<{ id?: unknown; error?: { code: number; message: string }; result?: unknown }> = [];
    let buffer = '';
    child.stdout.on('data', (c: Buffer) => {
      buffer += c.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
    });
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}\n');
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    child.stdin.write('this is not json\n');
    child.stdin.write('[{"jsonrpc":"2.0","id":2,"method":"tools/list"}]\n');
    child.stdin.write(big + '\n');
    child.stdin.write('{"jsonrpc":"2.0","id":null,"method":"tools/list"}\n');
    child.stdin.write('{"jsonrpc":"2.0","id":{"n":4},"method":"tools/list"}\n');
    // A wrong or missing "jsonrpc" member with a readable id: the error answers that id, not null.
    child.stdin.write('{"id":5,"method":"tools/list"}\n');
    child.stdin.write('{"jsonrpc":"1.0","id":"six","method":"tools/list"}\n');
    child.stdin.write('{"jsonrpc":"2.0","id":3,"method":"tools/list"}\n');
    await until(() => [3, 9, 5, 'six'].every((id) => lines.some((l) => l.id === id)) && lines.filter((l) => l.id === null).length >= 4, 20_000, 'the request after the bad lines');
    child.kill();
    // Answers to different lines may come in any order (the relay answers the oversized line itself).
    const errors = lines.filter((l) => l.error && l.id === null).map((l) => `${l.error!.code} ${l.error!.message}`);
    expect(errors).toHaveLength(4);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^-32700 Parse error/),
        expect.stringMatching(/^-32600 .*batches/),
        expect.stringMatching(/^-32600 .*"id" must be a string or a number, not null/),
        expect.stringMatching(/^-32600 .*"id" must be a string or a number, not an object/),
      ]),
    );
    // The oversized line is not run, but its request is answered: its id was read from the bytes going past.
    expect(lines.find((l) => l.id === 9)?.error).toMatchObject({ code: -32600, message: expect.stringMatching(/oversized message \(over 8388608 bytes\)/) });
    expect(lines.find((l) => l.id === 9)?.result).toBeUndefined();
    for (const id of [5, 'six']) expect(lines.find((l) => l.id === id)?.error).toMatchObject({ code: -32600, message: expect.stringMatching(/"jsonrpc" must be "2.0"/) });
    expect(lines.find((l) => l.id === 3)?.result).toBeDefined();
  });

  it('answers a 50 MB request from the official client with an error for that request, at once (its id comes last)', async () => {
    const client = new Client({ name: 'big-sender', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env, stderr: 'pipe' }));
    const sent = Date.now();
    // The SDK's own request timeout is 60 s: an unanswered request would fail only then, and as a timeout.
    await expect(client.callTool({ name: 'list_sessions', arguments: { pad: 'x'.repeat(50 * 1024 * 1024) } })).rejects.toThrow(/oversized message/);
    expect(Date.now() - sent).toBeLessThan(30_000);
    expect((await call(client, 'list_sessions')).isError).toBe(false);
    await client.close();
  });

  it('survives the hub being killed: the relay reconnects to a new hub and the client carries on', async () => {
    const client = new Client({ name: 'survivor', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env, stderr: 'pipe' }));
    expect((await call(client, 'list_sessions')).isError).toBe(false);
    const pidFile = path.join(tmp, 'run/hub.pid');
    const oldPid = Number(readFileSync(pidFile, 'utf8'));
    process.kill(oldPid, 'SIGKILL');
    const after = await until(async () => {
      const r = await call(client, 'list_sessions').catch(() => undefined);
      return r && !r.isError ? r : undefined;
    }, 20_000, 'a call served by the new hub');
    expect(after.structured).toEqual({ sessions: [], session_optional: false });
    expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(oldPid);
    await client.close();
  });

  it('exits when its client leaves while it is reconnecting to a new hub', async () => {
    const relay = spawn(process.execPath, [CLI, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => relay.on('exit', (code) => r(code)));
    relay.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }) + '\n');
    await new Promise<void>((r) => relay.stdout.once('data', () => r()));
    process.kill(Number(readFileSync(path.join(tmp, 'run/hub.pid'), 'utf8')), 'SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    relay.stdin.end();
    expect(await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 25_000))])).toBe(0);
  });
});
