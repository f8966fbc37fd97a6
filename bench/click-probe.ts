// A quick probe of what a click costs with and without the changes it shows (`npx tsx bench/click-probe.ts [elements]`):
// one browser with the built extension (test/e2e/harness.ts) on the generated page (bench/pages.ts); one client that
// took a snapshot (the changes shown) and one that took none click in turn, 40 timed calls each after 3 untimed
// rounds, on two kinds of target: "Gift wrap" checkboxes (the checked state is in the outline: a one-line diff) and
// the bench's own "Add to cart" buttons (their page handler sets a `data-n` attribute the outline does not show: no
// diff). Prints both click p50s per kind and the comparison's own median (browser, content script).
// `ORIEL_PROBE_BROWSER=firefox` for Firefox (default chromium). Compare only numbers of one run: other work on the
// machine moves them. `ORIEL_BENCH_PART=loop npm run bench` is the full measure.
import http from 'node:http';
import { call, handleOf, launchRig, until, type BrowserKind } from '../test/e2e/harness.js';
import { generatePage } from './pages.js';

const kind = (process.env.ORIEL_PROBE_BROWSER ?? 'chromium') as BrowserKind;
const gen = generatePage(Number(process.argv[2] ?? 1000));
const server = http.createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(gen.html));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
const rig = await launchRig(kind, { hubIdleMs: 600_000 });
const median = (x: number[]): number => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)]!;
const ms = (x: number[]): string => (x.length ? `${median(x).toFixed(1)}` : '-');
try {
  const client = await rig.client('legacy', 'probe');
  const other = await rig.client('legacy', 'none');
  const page = await rig.open(url);
  await page.setViewport({ width: 1280, height: 800 });
  await rig.share(url);
  const session = await until(async () => {
    const list = (await call(client, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }>;
    return list.find((s) => s.url === url)?.id;
  }, 15_000, `session for ${url}`);
  // As the full bench does (bench/oriel.ts measureOrielLatency): a snapshot of the whole page.
  const first = await call(client, 'snapshot', { session, max_chars: 200_000 });
  const kinds = {
    checkboxes: gen.interactive.filter((n) => n.startsWith('Gift wrap ')).slice(0, 20).map((n) => handleOf(first.text, new RegExp(`checkbox "${n}"`))),
    'Add buttons': gen.interactive.filter((n) => n.startsWith('Add to cart ')).slice(0, 20).map((n) => handleOf(first.text, new RegExp(`button "${n}"`))),
  };
  const lines: string[] = [];
  for (const [name, handles] of Object.entries(kinds)) {
    const t = { with: [] as number[], none: [] as number[], content: [] as number[], browser: [] as number[] };
    for (let i = 0; i < 43; i++) {
      let t0 = performance.now();
      const r = await call(client, 'click', { session, handle: handles[(2 * i) % handles.length] });
      const withMs = performance.now() - t0;
      if (r.isError) throw new Error(`click failed: ${r.text}`);
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
    lines.push(
      `${kind}, ${gen.elements} elements, ${name}: click p50 after a snapshot (changes shown) ${ms(t.with)} ms, with no snapshot ${ms(t.none)} ms; ` +
        `comparison median ${ms(t.browser)} ms in the browser, ${ms(t.content)} in the content script`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
} finally {
  await rig.close();
  server.close();
}
