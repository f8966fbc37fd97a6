// What waiting for the content script costs an agent that takes a shared tab to a host no shared tab shows
// (docs/architecture.md, "What a page can see"): `npx tsx bench/new-host.ts [other-dist]` (after `npm run build`;
// ORIEL_TEST_BROWSERS picks browsers, ORIEL_BENCH_LOADS the navigations per case). Per browser, in one run and
// interleaved, an MCP client navigates a shared tab back and forth between 127.0.0.1 and localhost (each navigation
// lands on a host whose registration the tab just left, so the content script is injected at the commit) and
// snapshots at once; it times the navigate call and navigate + snapshot, in two cases:
// - `this`: this checkout's dist/;
// - `other`: the build in `other-dist` (e.g. an older commit's `npm run build` output), when given.
// Failed calls are counted, not timed. Writes bench/results/new-host.json. A measurement, not a test.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { BROWSERS, ROOT, call, launchRig, serveFixtures, until, type BrowserKind, type Rig } from '../test/e2e/harness.js';
import { summary, type Summary } from './stats.js';

const LOADS = Number(process.env.ORIEL_BENCH_LOADS ?? 20);
const OTHER = process.argv[2] ? path.resolve(process.argv[2]) : undefined;

interface Case {
  name: string;
  rig: Rig;
  agent: Client;
  session: string;
  navigate: number[];
  ready: number[];
  failed: string[];
}

/** A rig of `dist` (this checkout's when undefined), its tab on `start` shared, and a client that may act anywhere. */
async function setUp(kind: BrowserKind, name: string, dist: string | undefined, start: string): Promise<Case> {
  const cli = dist && path.join(dist, 'broker', 'oriel.mjs');
  const rig = await launchRig(kind, {
    ...(cli && {
      oriel: {
        command: cli, // runs as a program: it starts with `#!/usr/bin/env node`
        register: (profile: string) => ['install', ...(kind === 'chromium' ? ['--browser', 'chromium', '--chromium-profile', profile] : ['--browser', 'firefox'])],
        extension: () => path.join(dist, kind === 'chromium' ? 'chrome' : 'firefox'),
      },
    }),
  });
  const agent = await rig.client('legacy', `bench-${name}`);
  await rig.open(start);
  await rig.share('race.html?start');
  const session = await until(async () => ((await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string }>)[0]?.id, 20_000, 'the session');
  return { name, rig, agent, session, navigate: [], ready: [], failed: [] };
}

async function measure(kind: BrowserKind): Promise<Record<string, { navigate: Summary; ready: Summary; failed: number; errors: string[] }>> {
  const site = await serveFixtures(undefined, {
    '/race.html': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end('<!doctype html><title>Race</title><button>Go</button><p>A page</p>'),
  });
  const A = site.origin;
  const B = site.origin.replace('127.0.0.1', 'localhost');
  const cases: Case[] = [];
  try {
    cases.push(await setUp(kind, 'this', undefined, `${A}/race.html?start`));
    if (OTHER) cases.push(await setUp(kind, 'other', OTHER, `${A}/race.html?start`));
    // Act on every origin is granted once, as a person may, in the popup: the prompt is not what is measured.
    for (const c of cases) await allowEverywhere(c, `${B}/race.html?allow`);
    for (let i = -2; i < LOADS; i++) {
      for (const c of i % 2 === 0 ? cases : [...cases].reverse()) {
        // Even rounds go to B, odd ones back to A: always a host the tab's registration just left.
        const url = `${i % 2 === 0 ? B : A}/race.html?${i}`;
        const t0 = performance.now();
        const went = await call(c.agent, 'navigate', { session: c.session, url });
        const t1 = performance.now();
        const snap = went.isError ? went : await call(c.agent, 'snapshot', { session: c.session });
        const t2 = performance.now();
        if (i < 0) continue; // two rounds warm up first
        if (snap.isError) c.failed.push(`${snap.error?.code}: ${snap.error?.message.slice(0, 80)}`);
        else {
          c.navigate.push(t1 - t0);
          c.ready.push(t2 - t0);
        }
      }
    }
    return Object.fromEntries(cases.map((c) => [c.name, { navigate: summary(c.navigate), ready: summary(c.ready), failed: c.failed.length, errors: [...new Set(c.failed)] }]));
  } finally {
    for (const c of cases) await c.rig.close();
    await site.close();
  }
}

/** Navigates to `url`, answering the act prompt for its origin in the popup with "on every origin". */
async function allowEverywhere(c: Case, url: string): Promise<void> {
  const going = call(c.agent, 'navigate', { session: c.session, url });
  const popup = await c.rig.extensionPage('popup');
  const button = await popup.waitForSelector('article.prompt button[data-answer="allow_any"]', { timeout: 20_000 });
  await button!.evaluate((b) => (b as HTMLButtonElement).click());
  const went = await going;
  if (went.isError) throw new Error(`${c.name}: ${went.text}`);
}

const results: Record<string, unknown> = {};
for (const kind of BROWSERS) results[kind] = await measure(kind);
const out = { date: new Date().toISOString(), cpus: os.cpus().length, loads: LOADS, other: OTHER ?? null, loadavg: os.loadavg().map((v) => Math.round(v * 10) / 10), results };
mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(path.join(ROOT, 'bench/results/new-host.json'), `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
