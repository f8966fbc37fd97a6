// How much later a page's first script runs because Oriel is installed (docs/architecture.md, "What a page can see"):
// `npx tsx bench/first-script.ts` (after `npm run build`; ORIEL_TEST_BROWSERS picks browsers, ORIEL_BENCH_LOADS the
// loads per case). Per browser, in one run and interleaved, it loads test/fixtures/footprint/first-script.html, which
// records when its first script ran (ms after the response started), in four cases:
// - `plain`: the same browser without the extension;
// - `early`: Oriel installed and sharing a tab on another host: only the early watcher runs (what every unshared
//   tab pays);
// - `full`: an unshared tab on the host of a shared tab, which also loads the content script registered by host
//   before the page's scripts, as every tab did when the manifest declared it;
// - `shared`: the shared tab itself (early watcher, content script and page script).
// Writes bench/results/first-script.json. A measurement, not a test: the numbers move with the machine's load.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { BROWSERS, FIXTURES, ROOT, launchRig, serveFixtures, type BrowserKind } from '../test/e2e/harness.js';
import { summary, type Summary } from './stats.js';

const LOADS = Number(process.env.ORIEL_BENCH_LOADS ?? 15);
const CASES = ['plain', 'early', 'full', 'shared'] as const;
type Case = (typeof CASES)[number];

/** The browser without any extension, launched as the harness launches it. */
function launchPlain(kind: BrowserKind, dir: string): Promise<Browser> {
  if (kind === 'chromium') {
    return puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, userDataDir: dir, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }
  return puppeteer.launch({ browser: 'firefox', protocol: 'webDriverBiDi', executablePath: '/usr/bin/firefox-esr', headless: true, userDataDir: dir });
}

/** A copy of `items` in random order (Fisher–Yates). */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Loads `url` in `page` and returns when its first script ran, ms after the response started. */
async function firstScript(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'load' });
  return page.evaluate(() => (window as unknown as { firstScript: number }).firstScript);
}

async function measure(kind: BrowserKind): Promise<Record<Case, Summary>> {
  const site = await serveFixtures(path.join(FIXTURES, 'footprint'));
  const plainDir = mkdtempSync(path.join(os.tmpdir(), `oriel-bench-plain-${kind}-`));
  const [rig, plain] = await Promise.all([launchRig(kind), launchPlain(kind, plainDir)]);
  try {
    const other = `${site.url.replace('127.0.0.1', 'localhost')}/first-script.html`;
    const same = `${site.url}/first-script.html`;
    const sharedPage = await rig.open(`${same}?shared`);
    await rig.share('first-script.html?shared');
    const pages: Record<Case, Page> = { plain: await plain.newPage(), early: await rig.open('about:blank'), full: await rig.open('about:blank'), shared: sharedPage };
    const urls: Record<Case, string> = { plain: other, early: other, full: same, shared: `${same}?shared` };
    const times: Record<Case, number[]> = { plain: [], early: [], full: [], shared: [] };
    for (let i = -2; i < LOADS; i++) {
      // A new order each round: whatever a load leaves running (the other browser's post-load work) must not always
      // fall on the same next case.
      for (const c of shuffled(CASES)) {
        await pages[c].bringToFront();
        const t = await firstScript(pages[c], `${urls[c]}${c === 'shared' ? '&' : '?'}load=${i}`);
        if (i >= 0) times[c].push(t); // two loads of each case warm up first
      }
    }
    return Object.fromEntries(CASES.map((c) => [c, summary(times[c])])) as Record<Case, Summary>;
  } finally {
    await plain.close();
    await rig.close();
    await site.close();
    rmSync(plainDir, { recursive: true, force: true });
  }
}

const results: Record<string, Record<Case, Summary>> = {};
for (const kind of BROWSERS) results[kind] = await measure(kind);
const out = { date: new Date().toISOString(), cpus: os.cpus().length, loads: LOADS, loadavg: os.loadavg().map((v) => Math.round(v * 10) / 10), results };
mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(path.join(ROOT, 'bench/results/first-script.json'), `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
