// Whether a person could use a control where it is: transparent, zero-size, off-screen, clipped or covered elements
// are marked as such so the agent does not take them for usable ones.
import { containsComposed, flatContains, pointReaches } from '../hit.js';
import type { WalkCache } from './cache.js';
import { currentShape, steadyAt, stillGeneration } from './changes.js';

/** A box in viewport coordinates. */
export interface Clip {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Scroll offsets and viewport size, read once per walk (they cannot change while it runs). */
export interface View {
  scrollX: number;
  scrollY: number;
  width: number;
  height: number;
  /** The document's change generation when the view was read (./changes.ts), or undefined when nothing is reused. */
  generation?: number;
  /** Its shape count then (./changes.ts), present with `generation`. */
  shape?: number;
  /** The viewport less its scroll bars (https://drafts.csswg.org/cssom-view/#dom-element-clientwidth). */
  clientWidth: number;
  clientHeight: number;
}

export function currentView(): View {
  const root = document.scrollingElement;
  const view: View = { scrollX: window.scrollX, scrollY: window.scrollY, width: window.innerWidth, height: window.innerHeight, clientWidth: root?.clientWidth ?? 0, clientHeight: root?.clientHeight ?? 0 };
  const g = stillGeneration();
  if (g !== undefined) {
    view.generation = g;
    view.shape = currentShape();
  }
  return view;
}

/** Longest a hit test is reused, ms, even when nothing is known to have changed. */
const HIT_REUSE_MS = 3_000;

/**
 * The last hit test at each control's centre: the point, the window's scroll offsets, the answer, and the generation,
 * shape and time it was asked at.
 */
const hits = new WeakMap<Element, { x: number; y: number; sx: number; sy: number; generation: number; shape: number | undefined; at: number; covered: boolean }>();

/** Distance from the viewport's edges, CSS px, within which a point may lie under a scroll bar (overlay ones included). */
const EDGE = 20;

/** Whether (x, y) lies in the viewport clear of its scroll bars (they stay in place when the window scrolls). */
function clear(x: number, y: number, view: View): boolean {
  return x >= EDGE && y >= EDGE && x <= view.clientWidth - EDGE && y <= view.clientHeight - EDGE;
}

/**
 * Whether a box, read in viewport coordinates and moved by (`dx`, `dy`), lies wholly in the viewport clear of its
 * scroll bars, a pixel inside that (so no rounding of the move takes it out): its hit test is at its centre.
 */
export function clearBox(box: DOMRect, dx: number, dy: number, view: View): boolean {
  return clear(box.left + dx - 1, box.top + dy - 1, view) && clear(box.right + dx + 1, box.bottom + dy + 1, view);
}

/**
 * Whether another element receives a click at (x, y), the centre of `el`. A hit test costs time that grows with the
 * page in Chromium, so the answer is reused while the document has not changed (./changes.ts) — never for more than
 * HIT_REUSE_MS, nor while an animation runs. When only the window scrolled since (the shape stood still) and a whole
 * walk at this shape found no fixed or sticky box and nothing else that moves with scrolling (./changes.ts steady),
 * everything moved with the document: the answer at the same point of the document is reused, away from the scroll bars.
 */
function coveredAt(el: Element, x: number, y: number, view: View, labelsOf: () => readonly Element[]): boolean {
  const now = Date.now();
  const old = hits.get(el);
  if (old && view.generation !== undefined && now - old.at < HIT_REUSE_MS) {
    if (old.generation === view.generation && old.x === x && old.y === y) return old.covered;
    if (
      old.shape === view.shape && old.x + old.sx === x + view.scrollX && old.y + old.sy === y + view.scrollY &&
      clear(old.x, old.y, view) && clear(x, y, view) && steadyAt(view.shape)?.pinless === true
    ) return old.covered;
  }
  const root = el.getRootNode() as Document | ShadowRoot;
  const hit = root.elementFromPoint(x, y);
  // A point on the element, inside it (shadow trees included), on content slotted into it, on its label or on an
  // ancestor (a host among them) is not covered by something else. A hit the element holds in the flat tree needs no
  // look at the node under the point (../hit.ts pointReaches only refines a hit towards what it holds).
  const covered = hit !== null && !flatContains(el, hit) && !pointReaches(el, hit, x, y) && !labelsOf().some((l) => l === hit || l.contains(hit)) && !containsComposed(hit, el);
  if (view.generation !== undefined) hits.set(el, { x, y, sx: view.scrollX, sy: view.scrollY, generation: view.generation, shape: view.shape, at: now, covered });
  return covered;
}

/**
 * What a usability check went by, for judging it again after the window alone scrolled (./walk.ts): the box, when it
 * was the element's own (not a child's, nor a label's), and whether the check came as far as the hit test.
 */
export interface UseBasis {
  /** The element's own border box in viewport coordinates, when the states were judged by it. */
  box?: DOMRect;
  /** The states depend on where the viewport is: the check came to the hit test (./walk.ts reads them again then). */
  viewport: boolean;
}

/** Union of the client rects of `el` and, for boxes of no area (inline wrappers of blocks), of its element children. */
function box(el: Element, known: DOMRect | undefined): DOMRect {
  const r = known ?? el.getBoundingClientRect();
  if (r.width > 0 && r.height > 0) return r;
  let best = r;
  for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) {
    const cr = c.getBoundingClientRect();
    if (cr.width * cr.height > best.width * best.height) best = cr;
  }
  return best;
}

/**
 * States saying why a control is not usable where it stands: `transparent`, `zero-size`, `offscreen` (outside the
 * scrollable document), `clipped` (cut away by an `overflow: hidden` ancestor), `covered` (another element receives a
 * click at its centre). A control operable through a visible label (a styled switch) is judged by that label.
 * `transparent`: an ancestor has `opacity: 0`. `known`: the element's bounding box when the walker already has it.
 * `basis`, when given, is filled in with what the states were judged by.
 */
export function usability(el: Element, cache: WalkCache, transparent: boolean, clip: Clip | undefined, view: View, labelsOf: () => readonly Element[], known?: DOMRect, basis?: UseBasis): string[] {
  const out: string[] = [];
  const style = cache.style(el);
  if (style.display === 'contents') return out;
  const r = box(el, known);
  const clear = style.opacity === '0';
  const hidden = clear || r.width === 0 || r.height === 0 || r.width * r.height <= 4;
  // Labels are looked up only when needed (the first lookup of a walk maps every label of the tree scope).
  let labels: readonly Element[] | undefined;
  const getLabels = () => (labels ??= labelsOf());
  const viaLabel = !hidden ? undefined : getLabels().find((l) => {
    const lr = l.getBoundingClientRect();
    return lr.width > 0 && lr.height > 0 && cache.style(l).visibility === 'visible';
  });
  if (viaLabel) {
    // Judged by another element's box: `basis` stays without one.
    if (basis) basis.viewport = true;
    return usability(viaLabel, cache, transparent, clip, view, () => []);
  }
  if (basis && r.width > 0 && r.height > 0) basis.box = r;
  if (transparent || clear) out.push('transparent');
  if (r.width === 0 || r.height === 0) {
    out.push('zero-size');
    return out;
  }
  if (r.right + view.scrollX <= 0 || r.bottom + view.scrollY <= 0) {
    out.push('offscreen');
    return out;
  }
  if (clip && (r.right <= clip.left || r.left >= clip.right || r.bottom <= clip.top || r.top >= clip.bottom)) {
    out.push('clipped');
    return out;
  }
  if (style.pointerEvents === 'none') {
    out.push('no-pointer');
    return out;
  }
  if (basis) basis.viewport = true;
  // Hit-test at the centre of the part inside the viewport (elementFromPoint only answers inside it).
  const left = Math.max(r.left, 0), top = Math.max(r.top, 0);
  const right = Math.min(r.right, view.width), bottom = Math.min(r.bottom, view.height);
  if (right > left && bottom > top && coveredAt(el, (left + right) / 2, (top + bottom) / 2, view, getLabels)) out.push('covered');
  return out;
}
