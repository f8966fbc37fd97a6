// Walk cost that grows faster than the page, in real Chromium and Firefox, checked by counting operations (never by
// timing: speed targets live in bench/). The walker is bundled with esbuild and run in the page's main world, as
// bench/inpage.ts does, with the browser's searches over a whole tree scope counted: the `labels` getter of form
// controls (a live list that searches the tree scope on its first read for each element) and querySelector(All) /
// getElementsBy* on documents and shadow roots. A walk may search each tree scope a fixed number of times, never once
// per element, so on a flat page of N rows the count must not depend on N.
import { build } from 'esbuild';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, ROOT, serveFixtures, type BrowserKind } from './harness.js';

/** One row of the flat page: the controls whose names or usability made the first walk quadratic. */
function row(i: number): string {
  return (
    `<div class=row><span>text ${i}</span>` +
    // Icon button named by a label: the name comes from dom-accessibility-api, which reads `labels`.
    `<label for=ib${i}>Labelled ${i}</label><button id=ib${i}><svg width=12 height=12><rect width=12 height=12 /></svg></button>` +
    // Image button named by its content, and a submit input.
    `<button><img alt="Image ${i}" width=8 height=8 src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></button><input type=submit value="Go ${i}">` +
    // A transparent checkbox behind its label (a styled switch): usability asks for its labels.
    `<label><input type=checkbox style="opacity:0;position:absolute"> Pick ${i}</label>` +
    `<a href="/r/${i}">Row ${i}</a></div>`
  );
}

const page = (n: number) =>
  `<!doctype html><html><head><title>flat ${n}</title></head><body><div>${Array.from({ length: n }, (_, i) => row(i)).join('\n')}</div></body></html>`;

/** Page-side code: counters on the tree-scope searches, then the content script's walker and renderer. */
const ENTRY = `
const counts = { labels: 0, searches: 0 };
for (const C of [HTMLButtonElement, HTMLInputElement, HTMLSelectElement, HTMLTextAreaElement, HTMLMeterElement, HTMLOutputElement, HTMLProgressElement]) {
  const d = Object.getOwnPropertyDescriptor(C.prototype, 'labels');
  if (!d || !d.get) continue;
  const get = d.get;
  Object.defineProperty(C.prototype, 'labels', { ...d, get() { counts.labels++; return get.call(this); } });
}
for (const proto of [Document.prototype, DocumentFragment.prototype]) {
  for (const m of ['querySelector', 'querySelectorAll', 'getElementsByTagName', 'getElementsByClassName', 'getElementsByName']) {
    const f = proto[m];
    if (typeof f !== 'function') continue;
    proto[m] = function (...a) { counts.searches++; return f.apply(this, a); };
  }
}
import { HandleRegistry } from ${JSON.stringify(path.join(ROOT, 'extension/content/registry.ts'))};
import { frameRefOf } from ${JSON.stringify(path.join(ROOT, 'extension/content/snapshot/frames.ts'))};
import { Walker } from ${JSON.stringify(path.join(ROOT, 'extension/content/snapshot/walk.ts'))};
import { render, toLines } from ${JSON.stringify(path.join(ROOT, 'shared/snapshot/index.ts'))};
const FLAGS = { redactSelectors: [], valueLimit: 200, nameLimit: 300, textLimit: 2000, maxNodes: 100000, maxDepth: 40 };
const registry = new HandleRegistry();
globalThis.__scaling = () => {
  counts.labels = 0;
  counts.searches = 0;
  const tree = new Walker(FLAGS, registry, frameRefOf).run(document.documentElement);
  const c = { ...counts };
  return { ...c, visited: tree.visited, lines: toLines(tree.nodes).length, text: render(tree.nodes) };
};
`;

interface Walk {
  labels: number;
  searches: number;
  visited: number;
  lines: number;
  text: string;
}

async function launch(kind: BrowserKind): Promise<Browser> {
  return kind === 'chromium'
    ? puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] })
    : puppeteer.launch({ browser: 'firefox', protocol: 'webDriverBiDi', executablePath: '/usr/bin/firefox-esr', headless: true });
}

describe.each(BROWSERS)('walk cost on a flat page in %s', (kind) => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serveFixtures>>;
  let bundle: string;

  beforeAll(async () => {
    const out = await build({ stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts' }, bundle: true, format: 'iife', target: 'es2022', write: false, logLevel: 'error' });
    bundle = out.outputFiles[0]!.text;
    server = await serveFixtures(ROOT, { '/flat.html': (req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(Number(new URL(req.url ?? '', 'http://x').searchParams.get('n')))) });
    browser = await launch(kind);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** First and second walk of a freshly loaded flat page of `n` rows. */
  async function walks(n: number): Promise<[Walk, Walk]> {
    const tab = await browser.newPage();
    try {
      await tab.setViewport({ width: 1200, height: 800 });
      await tab.goto(`${server.origin}/flat.html?n=${n}`, { waitUntil: 'load' });
      await tab.addScriptTag({ content: bundle });
      const first = (await tab.evaluate('__scaling()')) as Walk;
      const second = (await tab.evaluate('__scaling()')) as Walk;
      return [first, second];
    } finally {
      await tab.close();
    }
  }

  it('searches each tree scope a fixed number of times, however many sibling rows there are', async () => {
    const [small, smallAgain] = await walks(50);
    const [large, largeAgain] = await walks(400);
    // The walk covered every row (so the counts below are of a whole walk).
    expect(large.visited).toBeGreaterThan(7 * small.visited);
    expect(large.lines).toBe(8 * small.lines);
    for (const w of [small, smallAgain, large, largeAgain]) {
      // The native `labels` getter is never read: the walk answers it from one map of the labels per tree scope.
      expect(w.labels).toBe(0);
    }
    expect(large.searches).toBe(small.searches);
    expect(largeAgain.searches).toBe(smallAgain.searches);
    expect(small.searches).toBeLessThanOrEqual(8);
  });

  it('names controls from their labels as before (the answered labels are the real ones)', async () => {
    const [w] = await walks(50);
    expect(w.text).toContain('button "Labelled 7"');
    expect(w.text).toContain('button "Image 7"');
    expect(w.text).toContain('button "Go 7"');
    // Transparent, but usable through its visible label: judged by the label.
    expect(w.text).toMatch(/^checkbox "Pick 7" @\S+$/m);
    expect(w.text).toContain('link "Row 7" /r/7');
  });
});
