// A quick probe of warm snapshots (`npx tsx bench/warm-probe.ts [elements] [rounds]`): in one plain headless Chromium
// (no extension: bench/inpage.ts is added to the page), per round in alternation the floor, the floor right after one
// row changed, a warm whole reading of the unchanged page and one right after a row changed (its text and class, then
// each alone); prints medians. ORIEL_PROBE_BROWSER=firefox: the same in Firefox.
// For comparing changes to the walker while other work loads the machine (compare numbers of one run only).
import http from 'node:http';
import puppeteer from 'puppeteer-core';
import { bundleInPage } from './bundle.js';
import { generatePage } from './pages.js';
import type { BenchApi } from './inpage.js';

const elements = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 15);
const browserName = process.env.ORIEL_PROBE_BROWSER === 'firefox' ? 'firefox' : 'chromium';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};

const page = generatePage(elements);
const server = http.createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page.html));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
const browser = browserName === 'firefox'
  ? await puppeteer.launch({ browser: 'firefox', protocol: 'webDriverBiDi', executablePath: '/usr/bin/firefox-esr', headless: true })
  : await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const tab = await browser.newPage();
  await tab.setViewport({ width: 1280, height: 800 });
  await tab.goto(url, { waitUntil: 'load' });
  await tab.addScriptTag({ content: await bundleInPage() });
  const api = await tab.evaluateHandle(() => (window as unknown as { __orielBench: BenchApi }).__orielBench);
  const t = { floor: [] as number[], floorRow: [] as number[], unchanged: [] as number[], row: [] as number[], rowText: [] as number[], rowClass: [] as number[] };
  for (let i = 0; i < rounds + 2; i++) {
    // The untimed last reading takes in the floor's row change, so the next round's first reading sees one change.
    const r = await api.evaluate((b) => {
      const row = b.warm(false, 'row').ms;
      const unchanged = b.warm(false, 'none').ms;
      const floor = b.floor(false).ms;
      const floorRow = b.floorRow().ms;
      b.warm(false, 'none');
      const rowText = b.warm(false, 'row-text').ms;
      const rowClass = b.warm(false, 'row-class').ms;
      return { row, unchanged, floor, floorRow, rowText, rowClass };
    });
    if (i < 2) continue;
    t.floor.push(r.floor);
    t.floorRow.push(r.floorRow);
    t.unchanged.push(r.unchanged);
    t.row.push(r.row);
    t.rowText.push(r.rowText);
    t.rowClass.push(r.rowClass);
  }
  const same = await api.evaluate((b) => b.warm(false, 'row', true).text === b.warm(true, 'none', true).text);
  const f = median(t.floor);
  const fr = median(t.floorRow);
  const out = (name: string, xs: number[]) => `${name} ${median(xs).toFixed(1)} ms (×${(median(xs) / f).toFixed(2)} floor, ×${(median(xs) / fr).toFixed(2)} floor after the change)`;
  process.stdout.write(
    `${browserName}, ${page.elements} elements, ${rounds} rounds, medians:\n` +
    `floor ${f.toFixed(1)} ms; floor after one changed row ${fr.toFixed(1)} ms\n` +
    `${out('warm unchanged', t.unchanged)}\n${out('warm after one changed row', t.row)}\n` +
    `${out('  of which only its text', t.rowText)}\n${out('  of which only its class (unstyled)', t.rowClass)}\n` +
    `warm outline after a row change equals a fresh one: ${same}\n`,
  );
} finally {
  await browser.close();
  server.close();
}
