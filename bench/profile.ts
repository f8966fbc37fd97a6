// Where the time of a snapshot goes in the page: a CPU profile (Chrome DevTools protocol, sampled) of whole readings
// as the content script does them (bench/inpage.ts `reading`), its self time summed by what the code does — accessible
// names, style, geometry, values and states, handles, the walk itself, writing lines — and the browser's own work.
import type { Page } from 'puppeteer-core';

/** Self time of one part, in per cent of the profiled time. */
export type Breakdown = Record<string, number>;

/** Which part each module of the bundle (named by esbuild's `// path` markers) belongs to. */
const MODULES: Array<[RegExp, string]> = [
  [/dom-accessibility-api|snapshot\/names\.ts|snapshot\/pseudo\.ts|content\/internals\.ts/, 'accessible names'],
  [/snapshot\/geometry\.ts|snapshot\/changes\.ts/, 'geometry (boxes, hit tests)'],
  [/snapshot\/fields\.ts|content\/redaction\.ts/, 'values, states, links'],
  [/snapshot\/cache\.ts|snapshot\/dom\.ts/, 'roles, style and shadow lookups'],
  [/content\/registry\.ts/, 'handles'],
  [/snapshot\/emit\.ts|shared\/snapshot\/|snapshot\/session\.ts/, 'writing lines'],
  [/snapshot\/walk\.ts|snapshot\/builder\.ts/, 'the walk itself'],
];

/** Native functions, by name, and the part they belong to. */
const NATIVE: Record<string, string> = {
  elementFromPoint: 'geometry (boxes, hit tests)',
  getBoundingClientRect: 'geometry (boxes, hit tests)',
  getClientRects: 'geometry (boxes, hit tests)',
  getComputedStyle: 'roles, style and shadow lookups',
  getPropertyValue: 'roles, style and shadow lookups',
  querySelectorAll: 'document queries',
  querySelector: 'document queries',
  getElementsByTagName: 'document queries',
  matches: 'document queries',
  '(garbage collector)': 'garbage collection',
  '(program)': 'browser (style, layout, DOM bindings)',
};

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; scriptId: string; url: string; lineNumber: number };
}

/**
 * Runs `expression` `runs` times under the sampling profiler and sums self time by part. `bundle` is the script the
 * expression runs (added to the page as the last inline script): its lines tell which module a function is from.
 */
export async function profileBreakdown(page: Page, expression: string, runs: number, bundle: string): Promise<Breakdown> {
  // Module of each bundle line, from esbuild's "// path/to/module.ts" comments.
  const lines = bundle.split('\n');
  const moduleAt: string[] = [];
  let current = '';
  for (const l of lines) {
    const m = /^\s*\/\/ (\S+\.(?:ts|js|mjs|cjs))$/.exec(l);
    if (m) current = m[1]!;
    moduleAt.push(current);
  }
  const cdp = await page.createCDPSession();
  try {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    for (let i = 0; i < runs; i++) await page.evaluate(expression);
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map<string, number>();
    let total = 0;
    profile.samples.forEach((id, i) => {
      const node = byId.get(id);
      const dt = profile.timeDeltas[i] ?? 0;
      if (!node || node.callFrame.functionName === '(idle)') return;
      const { functionName, scriptId, lineNumber } = node.callFrame;
      let part: string | undefined;
      // Native functions and the profiler's own entries have no script; the bundle is an inline script (no URL).
      if (scriptId === '0' || scriptId === '') part = Object.hasOwn(NATIVE, functionName) ? NATIVE[functionName] : functionName === '(root)' ? undefined : 'other native calls';
      else {
        const mod = moduleAt[lineNumber] ?? '';
        part = MODULES.find(([re]) => re.test(mod))?.[1] ?? 'other (bench glue)';
      }
      if (!part) return;
      self.set(part, (self.get(part) ?? 0) + dt);
      total += dt;
    });
    const out: Breakdown = {};
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1])) out[k] = Math.round((v / total) * 1000) / 10;
    return out;
  } finally {
    await cdp.send('Profiler.disable').catch(() => undefined);
    await cdp.detach().catch(() => undefined);
  }
}
