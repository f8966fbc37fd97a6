// The `redaction_boxes` private operation: where this frame paints redacted content — secret fields and the subtrees
// the user's selectors remove — and where its iframes sit, in viewport CSS pixels. The background
// (extension/background/masks.ts) places child frames inside their iframes and paints every box out of a screenshot.
import type { ContentHandlers } from './handlers.js';
import { nextFrame } from './actions/actionability.js';
import { isSecretField, type Redactor } from './redaction.js';
import { shadowRootOf } from './snapshot/dom.js';
import { awaitTokens, frameRefOf } from './snapshot/frames.js';

/**
 * CSS pixels added on every side of a box: focus rings, outlines and anti-aliased edges paint just outside the border
 * box. Paint that reaches farther (large shadows, pseudo-elements positioned away) is not covered: docs/redaction.md.
 */
const INFLATE = 4;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A child frame: the content box of its iframe element and how the background finds the frame. */
interface FrameBox extends Box {
  /** frameId (Firefox) or the token the child posted (Chromium); null when the frame cannot be named. */
  ref: number | string | null;
}

/** This frame's answer: its viewport size, the boxes to paint out, and its child frames. */
export interface RedactionBoxes {
  viewport: { width: number; height: number };
  boxes: Box[];
  frames: FrameBox[];
}

export const maskHandlers: ContentHandlers = {
  redaction_boxes: async (args, ctx) => {
    const redactor = ctx.redactor();
    await awaitTokens(args.expect ?? [], 300);
    // Two frames: whatever changed before this call has been painted, so a capture taken next is not older than this.
    if (args.settle) for (let i = 0; i < 2; i++) await nextFrame();
    return redactionBoxes(redactor);
  },
};

/**
 * Measures now (synchronously, so the answer is one consistent layout). A frame the user's selectors remove as a whole
 * (its iframe is redacted in a same-origin parent) is one box over the whole viewport.
 */
export function redactionBoxes(redactor: Redactor): RedactionBoxes {
  const viewport = { width: window.innerWidth, height: window.innerHeight };
  const out: RedactionBoxes = { viewport, boxes: [], frames: [] };
  if (redactor.isRemoved(document.documentElement)) {
    out.boxes.push({ x: 0, y: 0, width: viewport.width, height: viewport.height });
    return out;
  }
  const roots: Array<Document | ShadowRoot> = [document];
  const accept = (n: Node): number => {
    const el = n as Element;
    if (redactor.matchesUser(el) || isSecretField(el)) {
      const b = paintedBox(el);
      if (b) out.boxes.push(b);
      // The box covers the whole subtree.
      return NodeFilter.FILTER_REJECT;
    }
    const shadow = shadowRootOf(el);
    if (shadow) roots.push(shadow);
    if (el.localName === 'iframe' || el.localName === 'frame') {
      const f = contentBox(el);
      if (f) out.frames.push({ ...f, ref: frameRefOf(el as HTMLIFrameElement) ?? null });
    }
    return NodeFilter.FILTER_ACCEPT;
  };
  for (let i = 0; i < roots.length; i++) {
    const walker = document.createTreeWalker(roots[i]!, NodeFilter.SHOW_ELEMENT, { acceptNode: accept });
    while (walker.nextNode());
  }
  return out;
}

/**
 * Everything `el` paints, as far as layout says: its border box, the boxes of its descendants (shadow trees
 * included) and its text, united and inflated by {@link INFLATE}. Null when nothing is rendered.
 */
function paintedBox(el: Element): Box | null {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  const add = (r: DOMRect) => {
    if (r.width <= 0 && r.height <= 0) return;
    left = Math.min(left, r.left);
    top = Math.min(top, r.top);
    right = Math.max(right, r.right);
    bottom = Math.max(bottom, r.bottom);
  };
  const scopes: Array<Element | ShadowRoot> = [el];
  for (let i = 0; i < scopes.length; i++) {
    const scope = scopes[i]!;
    if (scope instanceof Element) add(scope.getBoundingClientRect());
    const range = document.createRange();
    range.selectNodeContents(scope);
    add(range.getBoundingClientRect());
    for (const d of Array.from(scope.querySelectorAll('*'))) {
      add(d.getBoundingClientRect());
      const shadow = shadowRootOf(d);
      if (shadow) scopes.push(shadow);
    }
    const own = scope instanceof Element ? shadowRootOf(scope) : null;
    if (own && !scopes.includes(own)) scopes.push(own);
  }
  if (left === Infinity) return null;
  return { x: left - INFLATE, y: top - INFLATE, width: right - left + 2 * INFLATE, height: bottom - top + 2 * INFLATE };
}

/** The content box of an iframe (where the child frame's viewport is drawn), or null when it has no size. */
function contentBox(frame: Element): Box | null {
  const r = frame.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return null;
  const cs = getComputedStyle(frame);
  const px = (v: string) => parseFloat(v) || 0;
  const x = r.left + px(cs.borderLeftWidth) + px(cs.paddingLeft);
  const y = r.top + px(cs.borderTopWidth) + px(cs.paddingTop);
  const width = r.width - px(cs.borderLeftWidth) - px(cs.borderRightWidth) - px(cs.paddingLeft) - px(cs.paddingRight);
  const height = r.height - px(cs.borderTopWidth) - px(cs.borderBottomWidth) - px(cs.paddingTop) - px(cs.paddingBottom);
  return width > 0 && height > 0 ? { x, y, width, height } : null;
}
