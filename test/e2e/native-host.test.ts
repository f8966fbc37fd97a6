// The native-host relay and the hub socket under bad input (docs/architecture.md, "Parts" and "Security boundaries"): truncated, oversized, non-JSON and
// unknown-type frames are rejected with a log line, valid frames keep flowing, stdout carries only frames.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeFrame, FrameDecoder, INBOUND_MAX_BYTES } from '../../shared/framing.js';
import { CHROMIUM_EXTENSION_ID } from '../../shared/extension-ids.js';
import { WIRE_VERSION } from '../../shared/protocol.js';
import { CLI, ensureBuilt, until } from './harness.js';

const ORIGIN = `chrome-extension://${CHROMIUM_EXTENSION_ID}/`;
const hello = { t: 'hello', wire: WIRE_VERSION, browser: { name: 'chromium', version: '1', instance: 'test01', extension_id: CHROMIUM_EXTENSION_ID }, tabs: [] };
const tabs = (n: number) => ({ t: 'tabs', tabs: Array.from({ length: n }, (_, i) => ({ tab: i + 1, title: `T${i}`, url: 'http://a.test/', origin: 'http://a.test', active: true })) });

function header(length: number): Uint8Array {
  const h = new Uint8Array(4);
  new DataView(h.buffer).setUint32(0, length, true);
  return h;
}

let tmp: string;
let env: Record<string, string>;

beforeAll(() => {
  ensureBuilt();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-nh-'));
  env = { ...(process.env as Record<string, string>), ORIEL_RUNTIME_DIR: path.join(tmp, 'run'), ORIEL_DATA_DIR: path.join(tmp, 'data'), ORIEL_HUB_IDLE_MS: '60000' };
});

afterAll(() => {
  try {
    process.kill(Number(readFileSync(path.join(tmp, 'run/hub.pid'), 'utf8')), 'SIGTERM');
  } catch {
    /* none */
  }
  if (!process.env.ORIEL_KEEP) rmSync(tmp, { recursive: true, force: true });
});

/** Spawns the relay as a browser would and collects its stdout frames and stderr. */
function startHost(args: string[] = ['--allowed-ids', CHROMIUM_EXTENSION_ID, '--', ORIGIN]) {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'native-host', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const decoder = new FrameDecoder();
  const frames: unknown[] = [];
  const bad: string[] = [];
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => {
    for (const f of decoder.push(c)) (f.kind === 'frame' ? frames : bad).push(f.kind === 'frame' ? f.value : f.kind);
  });
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, frames, bad, stderr: () => stderr, decoder, exited };
}

async function status() {
  return (await control({ t: 'status' })) as { browsers: unknown[]; sessions: Array<{ id: string }> };
}

/** Sends one control request to the running hub and returns its first answer. */
async function control(request: Record<string, unknown>): Promise<unknown> {
  const { connectHub } = await import('../../broker/hub/spawn.js');
  const saved = { ...process.env };
  Object.assign(process.env, { ORIEL_RUNTIME_DIR: env.ORIEL_RUNTIME_DIR });
  try {
    const socket = await connectHub({ t: 'hello', role: 'control' }, { autostart: false });
    socket.write(encodeFrame(request));
    const d = new FrameDecoder();
    return await new Promise<unknown>((resolve) =>
      socket.on('data', (c) => {
        const f = d.push(c)[0];
        if (f?.kind === 'frame') {
          socket.end();
          resolve(f.value as never);
        }
      }),
    );
  } finally {
    process.env = saved;
  }
}

describe('native host relay', () => {
  it('rejects bad frames with a log line, keeps serving valid ones, and writes only frames', async () => {
    const host = startHost();
    const w = (b: Uint8Array) => host.child.stdin!.write(b);
    w(encodeFrame(hello));
    await until(() => host.frames.some((f) => (f as { t: string }).t === 'welcome'), 15_000, 'welcome').catch((e) => { throw new Error(`${e.message}; stderr: ${host.stderr()}`); });

    const junk = new TextEncoder().encode('{not json');
    w(header(junk.byteLength));
    w(junk);
    w(encodeFrame({ t: 'launch_missiles' }));
    const oversized = INBOUND_MAX_BYTES + 10;
    w(header(oversized));
    w(new Uint8Array(oversized)); // the body is skipped, not parsed
    w(encodeFrame(tabs(2)));

    await until(async () => (await status()).sessions.length === 2, 10_000, 'two sessions after the bad frames');
    // A serve request that does not validate is refused with the field at fault, not left unanswered.
    expect(await control({ t: 'serve_http', host: '127.0.0.1', port: 0, token: 'x' })).toEqual({ t: 'refused', reason: 'invalid serve_http request: token is not valid' });
    const rejected = host.frames.filter((f) => (f as { t: string }).t === 'rejected').map((f) => (f as { reason: string }).reason);
    expect(rejected).toHaveLength(3);
    expect(rejected[0]).toMatch(/not UTF-8 JSON/);
    expect(rejected[1]).toMatch(/unknown or malformed/);
    expect(rejected[2]).toMatch(/exceeds/);
    expect(host.stderr()).toMatch(/rejected a frame from the browser.*not UTF-8 JSON/);
    expect(host.stderr().match(/rejected a frame/g)).toHaveLength(3);
    expect(host.bad).toEqual([]);

    // A frame cut off by the browser closing the pipe is logged, and the relay exits cleanly.
    w(header(100));
    w(new Uint8Array(10));
    host.child.stdin!.end();
    expect(await host.exited).toBe(0);
    expect(host.stderr()).toMatch(/middle of a frame/);
    expect(host.decoder.pendingBytes).toBe(0);
  });

  it('refuses an extension id it was not installed for, writing nothing to stdout', async () => {
    const host = startHost(['--allowed-ids', CHROMIUM_EXTENSION_ID, '--', 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/']);
    expect(await host.exited).toBe(1);
    expect(host.frames).toEqual([]);
    expect(host.stderr()).toMatch(/not installed for/);
  });

  it('answers the doctor check with one frame', async () => {
    const child = spawn(process.execPath, [CLI, 'native-host', '--', ORIGIN], { env: { ...env, ORIEL_NATIVE_HOST_CHECK: '1' } });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    await new Promise((r) => child.on('exit', r));
    const frames = new FrameDecoder().push(Buffer.concat(chunks));
    expect(frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ kind: 'frame', value: { t: 'check', ok: true } });
  });
});

describe('malformed results from the browser side', () => {
  it('settles the call with internal at once instead of leaving it to time out', async () => {
    const host = startHost();
    host.child.stdin!.write(encodeFrame({ ...hello, browser: { ...hello.browser, instance: 'test03' }, tabs: tabs(1).tabs }));
    await until(async () => (await status()).sessions.some((s) => s.id === 'test03-1'), 10_000, 'the fake browser session');
    const { Client } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const client = new Client({ name: 'x', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env, stderr: 'pipe' }));
    onTestFinished(() => client.close());
    const pending = client.callTool({ name: 'snapshot', arguments: { session: 'test03-1' } });
    const callFrame = await until(() => host.frames.find((f) => (f as { t: string }).t === 'call') as { call: { id: number } } | undefined, 10_000, 'the call frame');
    // An error code outside the vocabulary: the relay refuses the frame but still settles the call.
    host.child.stdin!.write(encodeFrame({ t: 'result', id: callFrame.call.id, ok: false, error: { code: 'made_up', message: 'x', retryable: true, refresh_required: false } }));
    const result = (await pending) as { isError?: boolean; structuredContent?: { error?: { code: string } } };
    expect(result.isError).toBe(true);
    // Left to its deadline, the call would answer timeout instead.
    expect(result.structuredContent?.error?.code).toBe('internal');
    await client.close();
    host.child.stdin!.end();
    await host.exited;
  });
});

describe('hub socket', () => {
  it('rejects bad frames on a browser connection and keeps it open', async () => {
    const socket = net.connect(path.join(env.ORIEL_RUNTIME_DIR!, 'hub.sock'));
    await new Promise((r) => socket.once('connect', r));
    const d = new FrameDecoder();
    const got: Array<{ t: string; reason?: string }> = [];
    socket.on('data', (c) => {
      for (const f of d.push(c)) if (f.kind === 'frame') got.push(f.value as never);
    });
    socket.write(encodeFrame({ t: 'hello', role: 'browser' }));
    socket.write(encodeFrame({ t: 'tabs', tabs: [] })); // before the extension's hello
    socket.write(encodeFrame({ ...hello, browser: { ...hello.browser, instance: 'test02' } }));
    const junk = new TextEncoder().encode('nope');
    socket.write(header(junk.byteLength));
    socket.write(junk);
    socket.write(encodeFrame({ t: 'result', id: 'x' }));
    socket.write(header(INBOUND_MAX_BYTES + 1));
    socket.write(new Uint8Array(INBOUND_MAX_BYTES + 1));
    socket.write(encodeFrame(tabs(1)));
    await until(async () => (await status()).sessions.some((s) => s.id === 'test02-1'), 10_000, 'session from the raw connection');
    expect(got.map((m) => m.t)).toEqual(['rejected', 'welcome', 'rejected', 'rejected', 'rejected']);
    expect(got[0]!.reason).toMatch(/first message must be hello/);
    socket.destroy();
  });

  it('drops a connection that never says hello properly', async () => {
    const socket = net.connect(path.join(env.ORIEL_RUNTIME_DIR!, 'hub.sock'));
    await new Promise((r) => socket.once('connect', r));
    socket.write(encodeFrame({ t: 'hello', role: 'admin' }));
    await new Promise((r) => socket.once('close', r));
    expect(socket.destroyed).toBe(true);
  });
});
