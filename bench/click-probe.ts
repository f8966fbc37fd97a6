// A quick probe of what showing the changes costs a click (`npx tsx bench/click-probe.ts [elements]`): in one Chromium
// with the built extension (test/e2e/harness.ts), on the generated page (bench/pages.ts), one client that took a
// default-budget snapshot and one that took none click "Gift wrap" checkboxes in turn (40 timed calls each after 3
// untimed rounds); prints both click p50s and the comparison's own median (browser, content script). Compare only
// numbers of one run: other work on the machine moves them. `ORIEL_BENCH_PART=loop npm run bench` is the full measure.
import http from 'node:http';
import { call, handleOf } from '../test/e2e/harness.js';
import { generatePage } from './pages.js';
import { openShared, startOriel } from './oriel.js';

const gen = generatePage(Number(process.argv[2] ?? 1000));
const server = http.createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(gen.html));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
const { rig, client } = await startOriel();
const other = await rig.client('legacy', 'none');
const median = (x: number[]): number => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)]!;
try {
  const { session } = await openShared(rig, client, url);
  const first = await call(client, 'snapshot', { session });
  const boxes = gen.interactive.filter((n) => n.startsWith('Gift wrap ')).slice(0, 20);
  const handles = boxes.map((n) => handleOf(first.text, new RegExp(`checkbox "${n}"`)));
  const t = { with: [] as number[], none: [] as number[], content: [] as number[], browser: [] as number[] };
  for (let i = 0; i < 43; i++) {
    let t0 = performance.now();
    const r = await call(client, 'click', { session, handle: handles[(2 * i) % handles.length] });
    const withMs = performance.now() - t0;
    t0 = performance.now();
    await call(other, 'click', { session, handle: handles[(2 * i + 1) % handles.length] });
    const noneMs = performance.now() - t0;
    if (i < 3) continue;
    t.with.push(withMs);
    t.none.push(noneMs);
    const timing = (r.structured.changes as { timing?: { content_ms: number; browser_ms: number } } | undefined)?.timing;
    if (timing) {
      t.content.push(timing.content_ms);
      t.browser.push(timing.browser_ms);
    }
  }
  process.stdout.write(
    `${gen.elements} elements: click p50 after a snapshot (changes shown) ${median(t.with).toFixed(1)} ms, with no snapshot ${median(t.none).toFixed(1)} ms; ` +
    `comparison median ${median(t.browser).toFixed(1)} ms in the browser, ${median(t.content).toFixed(1)} in the content script\n`,
  );
} finally {
  await rig.close();
  server.close();
}
