// Page-side half of the benchmark, bundled by bench/bundle.ts into one IIFE and added to the page's main world.
// It times (a) the floor — a bare walk over every element reading its computed style — and (b) Oriel's snapshot
// in the page: the content script's walker (extension/content/snapshot/walk.ts) plus the shared renderer, with the
// flags the background sends (extension/background/snapshot.ts walkFlags) and no character budget.
import { HandleRegistry } from '../extension/content/registry.js';
import { frameRefOf } from '../extension/content/snapshot/frames.js';
import { Walker } from '../extension/content/snapshot/walk.js';
import { startReading } from '../extension/content/snapshot/session.js';
import { lineText, toLines, type WalkFlags } from '../shared/snapshot/index.js';

/** The flags the background builds for a snapshot without user redaction selectors. */
const FLAGS: WalkFlags = { redactSelectors: [], valueLimit: 200, nameLimit: 300, textLimit: 2000, maxNodes: 100_000, maxDepth: 40 };

/** The same, reading every element afresh (reusing nothing an earlier walk read: extension/content/snapshot/reuse.ts). */
const FRESH: WalkFlags = { ...FLAGS, fresh: true };

/** One registry for the page's life, as the content script keeps one per document. */
const registry = new HandleRegistry();

export interface FloorRun {
  ms: number;
  elements: number;
}

let generation = 0;

/**
 * Invalidates the style of every element, as a page change would: a new value of an inherited custom property on the
 * root element. The next computed-style read recalculates the whole document's style (and layout reads re-run layout).
 */
function dirty(): void {
  document.documentElement.style.setProperty('--oriel-bench', String(++generation));
}

/**
 * The floor: visits every element (shadow roots aside) and reads two computed-style properties of each. With
 * `afterChange`, the style is invalidated first, so the walk includes the browser's style recalculation.
 */
function floor(afterChange = false): FloorRun {
  if (afterChange) dirty();
  const t0 = performance.now();
  let elements = 0;
  let shown = 0;
  const visit = (el: Element): void => {
    elements++;
    const style = getComputedStyle(el);
    if (style.display !== 'none' && style.visibility !== 'hidden') shown++;
    for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) visit(c);
  };
  visit(document.documentElement);
  // `shown` keeps the style reads from being optimised away.
  return { ms: performance.now() - t0 + (shown < 0 ? 1 : 0), elements };
}

/**
 * The floor right after the same change `warm(…, 'row')` makes (untimed): the browser's own style and layout work for
 * that change falls in the timed pass, as it does in a warm reading after it. The layout is flushed by one box read.
 */
function floorRow(): FloorRun {
  changeRow();
  const t0 = performance.now();
  document.body.getBoundingClientRect();
  const style = performance.now() - t0;
  const run = floor();
  return { ms: run.ms + style, elements: run.elements };
}

export interface OrielRun {
  /** Walker only (DOM → tree). */
  walkMs: number;
  /** A whole reading as the content script does it: the walk and the outline lines it writes (a separate run). */
  totalMs: number;
  chars: number;
  lines: number;
  visited: number;
  text?: string;
}

function oriel(withText = false, afterChange = false): OrielRun {
  if (afterChange) dirty();
  const t0 = performance.now();
  // Fresh: (b) is the walk itself, every element read (warm readings are measured apart, by `warm`).
  const tree = new Walker(FRESH, registry, frameRefOf).run(document.documentElement);
  const walkMs = performance.now() - t0;
  if (afterChange) dirty();
  const read = reading(Number.MAX_SAFE_INTEGER, true);
  const run: OrielRun = { walkMs, totalMs: read.ms, chars: read.chars, lines: read.lines, visited: tree.visited };
  if (withText) run.text = toLines(tree.nodes).map(lineText).join('\n');
  return run;
}

export interface ReadingRun {
  ms: number;
  chars: number;
  lines: number;
  visited: number;
}

/**
 * The content script's side of a snapshot page: a new reading of the document that stops once `want` characters of
 * lines are written (as extension/content/snapshot/session.ts does for the background), timed in the page.
 */
function reading(want: number, fresh = false): ReadingRun {
  const t0 = performance.now();
  const r = startReading(fresh ? FRESH : FLAGS, registry, document.documentElement).read(want, undefined);
  const ms = performance.now() - t0;
  return { ms, chars: r.lines.reduce((c, l) => c + l.d + l.t.length + 1, 0), lines: r.lines.length, visited: r.visited };
}

/** Elements a person could act on, by the generator's own markup, that the browser renders (for a cross-check). */
function visibleInteractive(): number {
  const all = document.querySelectorAll('a[href], button, input, select, textarea, [role="button"]');
  let n = 0;
  for (const el of Array.from(all)) if ((el as HTMLElement).checkVisibility?.() ?? (el as HTMLElement).offsetParent !== null) n++;
  return n;
}

export interface WarmRun {
  ms: number;
  chars: number;
  lines: number;
  /** The outline's text, when asked (to check the warm outline against a fresh one). */
  text?: string;
}

let rowChanges = 0;

/**
 * Changes one row of the page as an update would: the text and a class of one section's paragraph, in the middle of
 * the page (bench/pages.ts sections), another each time. `part` limits it to the text or to the class (a class no
 * style sheet of the page names).
 */
function changeRow(part: 'both' | 'text' | 'class' = 'both'): void {
  const cards = document.querySelectorAll('section.card');
  const card = cards[(Math.floor(cards.length / 2) + rowChanges++) % cards.length];
  const p = card?.querySelector('p');
  if (!p) throw new Error('no section paragraph to change');
  if (part !== 'text') p.classList.toggle('bench-changed');
  if (part !== 'class') p.firstChild!.textContent = `Changed ${rowChanges} `;
}

/**
 * A whole reading (walk and lines) of the page as it is (`change: 'none'`) or right after one row changed (`'row'`;
 * `'row-text'`, `'row-class'`: only its text, only its class),
 * reusing the readings of earlier walks (`fresh` false) or reading every element afresh (`fresh` true), timed in the
 * page. The row change itself is not timed, but the browser's style and layout work it causes is (as for the floor).
 */
function warm(fresh: boolean, change: 'none' | 'row' | 'row-text' | 'row-class', withText = false): WarmRun {
  if (change !== 'none') changeRow(change === 'row' ? 'both' : change === 'row-text' ? 'text' : 'class');
  const flags = fresh ? FRESH : FLAGS;
  const t0 = performance.now();
  const r = startReading(flags, registry, document.documentElement).read(Number.MAX_SAFE_INTEGER, undefined);
  const ms = performance.now() - t0;
  const run: WarmRun = { ms, chars: r.lines.reduce((c, l) => c + l.d + l.t.length + 1, 0), lines: r.lines.length };
  if (withText) run.text = r.lines.map((l) => ' '.repeat(l.d) + l.t).join('\n');
  return run;
}

const api = { floor, floorRow, oriel, reading, warm, visibleInteractive, elementCount: () => document.getElementsByTagName('*').length };
export type BenchApi = typeof api;
(globalThis as unknown as { __orielBench: BenchApi }).__orielBench = api;
