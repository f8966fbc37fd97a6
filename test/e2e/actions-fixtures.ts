// Serves test/fixtures/actions over real local HTTP for the action tests: static pages, the framework apps bundled
// with esbuild into .cache/ (gitignored), a strict-CSP page, and slow responses for wait_for and navigate.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../fixtures/actions/', import.meta.url));
const OUT = fileURLToPath(new URL('../../.cache/fixtures/actions/', import.meta.url));
const APPS = ['react', 'vue', 'angular'] as const;

let built: Promise<void> | undefined;

/** Bundles the React, Vue and Angular fixture apps once per process. */
export function buildApps(): Promise<void> {
  built ??= (async () => {
    await build({
      entryPoints: APPS.map((a) => path.join(ROOT, 'apps', `${a}.${a === 'react' ? 'tsx' : 'ts'}`)),
      outdir: OUT,
      bundle: true,
      format: 'iife',
      target: 'es2022',
      jsx: 'automatic',
      logLevel: 'error',
      define: { 'process.env.NODE_ENV': '"production"', __VUE_OPTIONS_API__: 'false', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false', ngDevMode: 'false', ngJitMode: 'true' },
      tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
    });
  })();
  return built;
}

export interface FixtureServer {
  /** Base URL ending in "/", e.g. http://127.0.0.1:41234/ */
  url: string;
  /** The same server under another origin (localhost instead of 127.0.0.1). */
  otherOrigin: string;
  /**
   * Holds every response to a URL with `?hold=<key>` until `release()`: a response that arrives exactly when the
   * test says, whatever the machine's speed. `requested` resolves when the browser asked for it.
   */
  hold(key: string): { requested: Promise<void>; release(): void };
  close(): Promise<void>;
}

interface Gate {
  requested: Promise<void>;
  markRequested(): void;
  released: Promise<void>;
  release(): void;
}

function gate(): Gate {
  let markRequested!: () => void;
  let release!: () => void;
  const requested = new Promise<void>((r) => (markRequested = r));
  const released = new Promise<void>((r) => (release = r));
  return { requested, markRequested, released, release };
}

/** Starts the server on an ephemeral loopback port. `?delay=ms` on any path delays the response; `?hold=key` see {@link FixtureServer.hold}. */
export async function startFixtureServer(): Promise<FixtureServer> {
  await buildApps();
  const gates = new Map<string, Gate>();
  const gateOf = (key: string) => {
    let g = gates.get(key);
    if (!g) gates.set(key, (g = gate()));
    return g;
  };
  const server = http.createServer((req, res) => {
    const key = new URL(req.url ?? '/', 'http://fixture').searchParams.get('hold');
    if (key === null) return void serve(req, res);
    const g = gateOf(key);
    g.markRequested();
    void g.released.then(() => serve(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    otherOrigin: `http://localhost:${port}/`,
    hold: (key) => {
      const g = gateOf(key);
      return { requested: g.requested, release: g.release };
    },
    close: () => {
      for (const g of gates.values()) g.release();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fixture');
  const delay = Number(url.searchParams.get('delay') ?? 0);
  if (delay > 0) await new Promise((r) => setTimeout(r, Math.min(delay, 60_000)));
  const name = decodeURIComponent(url.pathname).replace(/^\/+/, '');
  if (name.includes('..')) return end(res, 400, 'text/plain', 'bad path');
  try {
    if (name.startsWith('apps/') && name.endsWith('.js')) {
      return end(res, 200, 'text/javascript', await readFile(path.join(OUT, name.slice(5))));
    }
    const body = await readFile(path.join(ROOT, name || 'click.html'));
    const type = name.endsWith('.js') ? 'text/javascript' : name.endsWith('.svg') ? 'image/svg+xml' : 'text/html; charset=utf-8';
    // The strict-CSP fixture forbids eval and inline script, as hardened sites do.
    if (name.endsWith('.csp.html')) res.setHeader('Content-Security-Policy', "default-src 'self'; script-src 'self'; object-src 'none'");
    return end(res, 200, type, body);
  } catch {
    return end(res, 404, 'text/plain', 'not found');
  }
}

function end(res: http.ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}
