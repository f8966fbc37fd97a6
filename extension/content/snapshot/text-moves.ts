// Whether a change of a text node's data can have moved anything outside its element: the element's box as a walk last
// read it (./walk.ts notes it) against its box now, for ./changes.ts, which then keeps the boxes and hit tests read
// before the change (docs/architecture.md, "Warm snapshots": "Geometry").
import { shadowRootOf } from './dom.js';

/** An element's border box in viewport coordinates, read at a change generation of ./changes.ts. */
interface TextBox {
  generation: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

const boxes = new WeakMap<Element, TextBox>();

/** Displays of an element whose text is judged: a block box whose lines are all inside it. */
const JUDGED = new Set(['block', 'flow-root']);
/**
 * Displays of its ancestors: block containers, whose children are laid out one after another with the widths they
 * give them (https://drafts.csswg.org/css-display-3/#block-container). Flex, grid and table layouts share sizes between
 * siblings from their content, so a child's content can move its siblings with its own box unchanged; a list item's
 * marker sits on its first line.
 */
const FLOW = new Set(['block', 'flow-root']);
/** Most elements inside a judged element that are looked at (more: not judged). */
const MAX_INSIDE = 50;

/** The element's box, or undefined when it is empty or its content spills out of it (it could lie over others). */
function boxOf(el: Element): Omit<TextBox, 'generation'> | undefined {
  if (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight) return undefined;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 ? { left: r.left, top: r.top, width: r.width, height: r.height } : undefined;
}

/**
 * Notes the box of `el`, an element holding text with display `display`, at change generation `generation` (nothing
 * has moved since that generation began, so a box noted in it stays true while it lasts).
 */
export function noteTextBox(el: Element, display: string, generation: number): void {
  if (!JUDGED.has(display)) return;
  const old = boxes.get(el);
  if (old && old.generation === generation) return;
  const b = boxOf(el);
  if (b) boxes.set(el, { generation, ...b });
  else boxes.delete(el);
}

/** Whether a box (an element's or a pseudo-element's) stays where the flow puts it and covers nothing beside it. */
function inFlow(s: CSSStyleDeclaration, positioned: boolean): boolean {
  if (s.float !== 'none' || s.transform !== 'none' || !(s.position === 'static' || (positioned && s.position === 'relative'))) return false;
  // A negative margin pulls a box over its neighbours.
  return !s.marginTop.startsWith('-') && !s.marginBottom.startsWith('-') && !s.marginLeft.startsWith('-') && !s.marginRight.startsWith('-');
}

/** Whether the generated content of `el` (::before, ::after), if any, is laid out in its flow. */
function plainPseudos(el: Element): boolean {
  for (const p of ['::before', '::after']) {
    const s = getComputedStyle(el, p);
    if (s.content !== 'none' && s.content !== 'normal' && !inFlow(s, false)) return false;
  }
  return true;
}

/**
 * Whether new text data inside `el` (its child text node changed, from text to text) moved nothing outside it: its box
 * is the one noted at `generation` (the document's current one, so nothing else has moved since) and its content does
 * not spill out; everything inside it is inline, in flow, with no negative margins (no box inside it can lie over
 * another); it and its ancestors up to the root are block containers in the document's own tree (no shadow host, no
 * flex, grid or table layout). Then every box outside `el` is where it was (block layout gives a box its width from its
 * container and takes its height from its content, https://drafts.csswg.org/css2/#normal-block), and so is whatever a
 * hit test outside `el` meets. Anything unsure answers false.
 */
export function textKeptPlace(el: Element, generation: number): boolean {
  const old = boxes.get(el);
  if (!old || old.generation !== generation || !el.isConnected || el.getRootNode() !== document || shadowRootOf(el)) return false;
  const style = getComputedStyle(el);
  if (!JUDGED.has(style.display) || !inFlow(style, true) || !plainPseudos(el)) return false;
  const now = boxOf(el);
  if (!now || now.left !== old.left || now.top !== old.top || now.width !== old.width || now.height !== old.height) return false;
  const inside = el.getElementsByTagName('*');
  if (inside.length > MAX_INSIDE) return false;
  for (const d of Array.from(inside)) {
    const s = getComputedStyle(d);
    if (s.display === 'none') continue;
    if (s.display !== 'inline' || !inFlow(s, false) || shadowRootOf(d) || !plainPseudos(d)) return false;
  }
  for (let a = el.parentElement; a; a = a.parentElement) {
    if (!FLOW.has(getComputedStyle(a).display) || shadowRootOf(a)) return false;
  }
  return true;
}
