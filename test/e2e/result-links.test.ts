// Large binary results as MCP resource links, in real browsers through the official clients (docs/tools.md, "Results
// as resource links"): a screenshot and a downloaded PDF asked for with `as: "link"` come back as `resource_link`
// content, and `resources/read` returns their bytes as a blob with the right MIME type — over stdio and HTTP, in both
// protocol eras, and through the SDK v1 client. Another client cannot read them, an unknown link is a structured
// error, and a link stops being readable when its tab is no longer shared (consent as for the original).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, CLI, FIXTURES, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { makePdf } from '../support/make-pdf.js';

const PDF = makePdf(['Invoice 4711 for ACME', 'Total due: 99.00 EUR']);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Link {
  type: 'resource_link';
  uri: string;
  name: string;
  mimeType: string;
  size: number;
}

/** What these tests use of a client, SDK v1 or v2. */
interface AnyClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
}

/** A tool call's outcome with its content blocks (the harness's `call` keeps only the text). */
async function callFull(client: AnyClient, name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ type: string; [k: string]: unknown }> };
  return {
    isError: r.isError === true,
    structured: r.structuredContent ?? {},
    links: r.content.filter((c) => c.type === 'resource_link') as unknown as Link[],
    images: r.content.filter((c) => c.type === 'image'),
    error: (r.structuredContent?.error ?? undefined) as { code: string; message: string } | undefined,
  };
}

/** `resources/read` of `uri`: its one blob's bytes and MIME type, or the JSON-RPC error. */
async function read(client: AnyClient, uri: string): Promise<{ bytes?: Buffer; mimeType?: string; error?: { code: number; data?: { uri?: string; error?: { code: string; details?: Record<string, unknown> } } } }> {
  try {
    const r = await client.readResource({ uri });
    expect(r.contents).toHaveLength(1);
    const c = r.contents[0] as { uri: string; mimeType?: string; blob?: string };
    expect(c.uri).toBe(uri);
    return { bytes: Buffer.from(c.blob ?? '', 'base64'), ...(c.mimeType !== undefined && { mimeType: c.mimeType }) };
  } catch (err) {
    const e = err as { code: number; data?: unknown };
    return { error: { code: e.code, data: e.data as never } };
  }
}

/** Takes a PNG screenshot as a link and checks that reading it gives that PNG (its size, its width and height). */
async function screenshotLink(client: AnyClient, session: string): Promise<Link> {
  const shot = await callFull(client, 'screenshot', { session, format: 'png', max_width: 400, as: 'link' });
  expect(shot.isError, shot.error?.message).toBe(false);
  expect(shot.images).toEqual([]);
  expect(shot.links).toHaveLength(1);
  const link = shot.links[0]!;
  expect(link).toMatchObject({ mimeType: 'image/png', size: shot.structured.bytes, uri: shot.structured.uri });
  expect(link.uri).toMatch(/^oriel:\/\/result\/[\w-]{22}$/);
  const got = await read(client, link.uri);
  expect(got.error).toBeUndefined();
  expect(got.mimeType).toBe('image/png');
  expect(got.bytes!.byteLength).toBe(link.size);
  expect(got.bytes!.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  // IHDR: width and height, big-endian, right after the signature and the chunk's length and type.
  expect([got.bytes!.readUInt32BE(16), got.bytes!.readUInt32BE(20)]).toEqual([shot.structured.width, shot.structured.height]);
  return link;
}

/** Speaks MCP `revision` to a fresh `oriel mcp` by hand (the SDKs negotiate their own) and returns the answer to `call`. */
async function rawCall(env: Record<string, string>, revision: string, call: object): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [CLI, 'mcp'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  try {
    const lines = createInterface({ input: child.stdout });
    const send = (m: object) => child.stdin.write(JSON.stringify(m) + '\n');
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'old', version: '1' } } });
    for await (const line of lines) {
      const m = JSON.parse(line) as { id?: number; result?: Record<string, unknown> };
      if (m.id === 1) {
        expect(m.result?.protocolVersion).toBe(revision);
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: call });
      } else if (m.id === 2) return m.result!;
    }
    throw new Error('oriel mcp ended without answering');
  } finally {
    child.kill();
  }
}

describe.each(BROWSERS)('results as resource links in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let page: Page;
  let session: string;
  let legacy: Client;
  let modern: Client;
  let serve: ChildProcess | undefined;
  const others: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    site = await serveFixtures(FIXTURES, {
      '/files/invoice.pdf': (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="invoice.pdf"' }).end(PDF),
    });
    rig = await launchRig(kind, { profileDownloads: true });
    legacy = await rig.client('legacy', 'links-legacy');
    modern = await rig.client('modern', 'links-modern');
    page = await rig.open(`${site.url}/downloads/page.html?links`);
    await rig.share('page.html?links');
    session = await until(async () => {
      const r = await legacy.callTool({ name: 'list_sessions', arguments: {} });
      return ((r.structuredContent as { sessions?: Array<{ id: string }> } | undefined)?.sessions ?? [])[0]?.id;
    }, 20_000, 'the shared tab to become a session');
  });
  afterAll(async () => {
    await Promise.allSettled(others.map((c) => c.close()));
    serve?.kill('SIGTERM');
    await rig?.close();
    await site?.close();
  });

  it('answers a screenshot with a resource link over stdio in both eras, read back as the same PNG', async () => {
    await screenshotLink(legacy, session);
    await screenshotLink(modern, session);
    // Without `as`, the image is inline as before.
    const inline = await callFull(legacy, 'screenshot', { session, format: 'png', max_width: 400 });
    expect(inline.links).toEqual([]);
    expect(inline.images).toHaveLength(1);
    // resources/list does not list links.
    expect((await legacy.listResources()).resources).toEqual([]);
  });

  it('refuses a link to a client whose MCP revision has none (2025-03-26), saying to call again without it', async () => {
    const r = await rawCall(rig.env, '2025-03-26', { name: 'screenshot', arguments: { session, as: 'link' } });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ error: { code: 'unsupported', next: expect.stringMatching(/without as/) } });
    expect((r.content as Array<{ type: string }>).map((c) => c.type)).toEqual(['text']);
  });

  it('lets no other client read a link, and answers an unknown one with a structured error', async () => {
    const link = await screenshotLink(legacy, session);
    for (const [who, reader] of [['another stdio client', modern], ['an SDK client of another connection', await rig.client('legacy', 'links-other')]] as const) {
      const got = await read(reader, link.uri);
      expect(got.bytes, who).toBeUndefined();
      expect(got.error, who).toMatchObject({ code: -32602, data: { uri: link.uri, error: { code: 'invalid_argument', details: { reason: 'unknown_resource' } } } });
    }
    const unknown = await read(legacy, 'oriel://result/AAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.error).toMatchObject({ code: -32602, data: { error: { code: 'invalid_argument', details: { reason: 'unknown_resource' } } } });
    // The one that made it still can.
    expect((await read(legacy, link.uri)).bytes!.byteLength).toBe(link.size);
  });

  it('answers a downloaded PDF with a link whose blob is the file, typed application/pdf', async () => {
    const options = await rig.extensionPage('options');
    await options.waitForSelector('#download-folder');
    await options.$eval('#download-folder', (el) => void ((el as HTMLInputElement).value = 'agents'));
    await options.click('#download-form button[type="submit"]');
    await options.waitForFunction(() => document.getElementById('download-result')?.textContent === 'Saved.', { polling: 50, timeout: 10_000 });
    await page.bringToFront();
    const click = await callFull(modern, 'click', { session, selector: '#pdf' });
    expect(click.isError, click.error?.message).toBe(false);
    const id = await until(async () => {
      const listed = await callFull(modern, 'downloads', {});
      return (listed.structured.downloads as Array<{ id: string; file: string }>).find((d) => /^invoice.*\.pdf$/.test(d.file))?.id;
    }, 15_000, 'the PDF download');
    expect((await callFull(modern, 'downloads', { as: 'link' })).error).toMatchObject({ code: 'invalid_argument', message: expect.stringMatching(/give its id/) });
    expect((await callFull(modern, 'downloads', { id, as: 'link', cursor: '2' })).error).toMatchObject({ code: 'invalid_argument' });
    const linked = await callFull(modern, 'downloads', { id, wait_ms: 15_000, as: 'link' });
    expect(linked.isError, linked.error?.message).toBe(false);
    expect(linked.links).toEqual([expect.objectContaining({ mimeType: 'application/pdf', size: PDF.byteLength, name: expect.stringMatching(/^invoice.*\.pdf$/) })]);
    const got = await read(modern, linked.links[0]!.uri);
    expect(got.mimeType).toBe('application/pdf');
    expect(got.bytes).toEqual(Buffer.from(PDF));
    expect((await read(legacy, linked.links[0]!.uri)).error?.data?.error?.details?.reason).toBe('unknown_resource');
  });

  it('works over HTTP in both eras, and through the SDK v1 client', async () => {
    serve = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0'], { env: rig.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    serve.stderr!.on('data', (c: Buffer) => (said += c.toString()));
    const url = await until(() => /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(said)?.[1], 20_000, '`oriel serve --http` to say where it serves');
    const token = readFileSync(path.join(rig.env.ORIEL_CONFIG_DIR!, 'http-token'), 'utf8').trim();
    const http = async (era: 'legacy' | 'modern') => {
      const client = new Client({ name: `links-http-${era}`, version: '1' }, { versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      others.push(client);
      return client;
    };
    const httpLegacy = await http('legacy');
    const httpModern = await http('modern');
    const legacyLink = await screenshotLink(httpLegacy, session);
    const modernLink = await screenshotLink(httpModern, session);
    // A 2025-era HTTP session's link is its own; a 2026-era exchange's is no stdio client's or 2025 session's.
    expect((await read(httpModern, legacyLink.uri)).error?.data?.error?.details?.reason).toBe('unknown_resource');
    expect((await read(httpLegacy, modernLink.uri)).error?.data?.error?.details?.reason).toBe('unknown_resource');
    expect((await read(legacy, modernLink.uri)).error?.data?.error?.details?.reason).toBe('unknown_resource');

    const v1 = new ClientV1({ name: 'links-v1', version: '1' });
    await v1.connect(new StdioV1({ command: process.execPath, args: [CLI, 'mcp'], env: rig.env, stderr: 'pipe' }));
    others.push(v1);
    await screenshotLink(v1, session);
  });

  it('checks consent again at each read: a link of a tab no longer shared is refused', async () => {
    const link = await screenshotLink(legacy, session);
    await rig.share('page.html?links', false);
    await until(async () => ((await legacy.callTool({ name: 'list_sessions', arguments: {} })).structuredContent as { sessions: unknown[] }).sessions.length === 0, 20_000, 'the session to end');
    const got = await read(legacy, link.uri);
    expect(got.bytes).toBeUndefined();
    expect(got.error).toMatchObject({ code: -32000, data: { uri: link.uri, error: { code: 'permission_denied' } } });
  });
});
