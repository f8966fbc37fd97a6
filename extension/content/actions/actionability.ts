// Whether an element can take a person's pointer input now: visible, enabled, stable, in view, and the element a
// click at its centre would reach. Pure checks plus the waiting helpers used by click.ts and type.ts.
import type { Redactor } from '../redaction.js';
import { composedParent, containsComposed, pointReaches } from '../hit.js';
import { internalsDisabled } from '../internals.js';
import { anyShadowRoot } from './shadow.js';
import { describeElement } from './target.js';

/** Why an element cannot be acted on right now, or ok with the point to act at (viewport coordinates). */
export type Actionability =
  | { status: 'ok'; x: number; y: number; hit: Element }
  | { status: 'hidden' | 'disabled' | 'unstable' | 'covered' | 'outside'; reason: string; cover?: string };

/**
 * Visible: has a box and is not hidden by `visibility` or `content-visibility`; opacity does not count, as a
 * transparent button still takes clicks (https://drafts.csswg.org/cssom-view/#dom-element-checkvisibility).
 */
export function isVisible(el: Element): boolean {
  if (!el.isConnected) return false;
  const check = (el as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility;
  if (check && !check.call(el, { visibilityProperty: true, contentVisibilityAuto: false })) return false;
  const r = el.getBoundingClientRect();
  if (r.width > 0 && r.height > 0) return true;
  // display:contents and zero-size inline wrappers: visible when a child box is.
  for (const rect of Array.from(el.getClientRects())) if (rect.width > 0 && rect.height > 0) return true;
  return false;
}

/** Disabled: the HTML `:disabled` state (fieldsets included), `aria-disabled="true"` on it or an ancestor, or its internals' ariaDisabled. */
export function isDisabled(el: Element): boolean {
  // https://html.spec.whatwg.org/multipage/semantics-other.html#concept-element-disabled
  if (el.matches(':disabled')) return true;
  // https://www.w3.org/TR/wai-aria-1.2/#aria-disabled — applies to descendants too; a custom element may set it
  // through its ElementInternals (../internals.ts).
  return el.closest('[aria-disabled="true"]') !== null || internalsDisabled(el);
}

/**
 * Inert: inside an `inert` subtree, or outside the open modal dialog (which makes the rest of the document inert).
 * https://html.spec.whatwg.org/multipage/interaction.html#inert-subtrees
 */
export function isInert(el: Element): boolean {
  for (let n: Element | null = el; n; n = composedParent(n)) if (n.hasAttribute('inert')) return true;
  let modal: Element | null = null;
  try {
    modal = el.ownerDocument.querySelector('dialog:modal');
  } catch {
    return false; // a browser without :modal
  }
  return modal !== null && !containsComposed(modal, el);
}

/**
 * The deepest element at a viewport point. `document.elementFromPoint` stops at a shadow host (it retargets), so
 * each shadow root, open or closed, is asked in turn (https://drafts.csswg.org/cssom-view/#dom-document-elementfrompoint).
 */
export function deepElementFromPoint(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  for (let root = hit ? anyShadowRoot(hit) : null; hit && root; root = anyShadowRoot(hit)) {
    const inner = root.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** A click on a `<label>` reaches its control, so a label on top of its own control does not cover it. */
function labelOf(hit: Element, target: Element): boolean {
  const label = hit.closest('label');
  return label !== null && (label as HTMLLabelElement).control === target;
}

/** A point inside an element's border box, in CSS pixels from its top-left corner; a missing axis means its centre. */
export interface PointOffset {
  x?: number | undefined;
  y?: number | undefined;
}

/** The visible part of `el`'s box after clipping by every scrolling/clipping ancestor and the viewport. */
export function visibleRect(el: Element): DOMRect | null {
  const r = el.getBoundingClientRect();
  let left = Math.max(r.left, 0);
  let top = Math.max(r.top, 0);
  let right = Math.min(r.right, window.innerWidth);
  let bottom = Math.min(r.bottom, window.innerHeight);
  for (let a = composedParent(el); a && a !== document.documentElement && a !== document.body; a = composedParent(a)) {
    const style = getComputedStyle(a);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const c = a.getBoundingClientRect();
    left = Math.max(left, c.left);
    top = Math.max(top, c.top);
    right = Math.min(right, c.right);
    bottom = Math.min(bottom, c.bottom);
  }
  if (right - left < 1 || bottom - top < 1) return null;
  return new DOMRect(left, top, right - left, bottom - top);
}

/** Scrolls `el` into the middle of the viewport and of every scroll container, unless its centre is already in view. */
export function scrollIntoViewIfNeeded(el: Element): boolean {
  const r = el.getBoundingClientRect();
  const v = visibleRect(el);
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  if (v && cx >= v.left && cx <= v.right && cy >= v.top && cy <= v.bottom) return false;
  // 'instant' overrides a page's `scroll-behavior: smooth`, so the box is where it will stay.
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' as ScrollBehavior });
  return true;
}

/**
 * Checks everything except stability in one synchronous step, and returns the point to click: the centre of the
 * box's visible part (the centre of the whole box when it is all in view).
 */
export function checkPointerTarget(el: Element, opts: { requireEnabled: boolean; redactor?: Redactor; offset?: PointOffset | undefined }): Actionability {
  if (!isVisible(el)) return { status: 'hidden', reason: 'it is not visible (display, visibility or zero size)' };
  if (opts.requireEnabled && isDisabled(el)) return { status: 'disabled', reason: 'it is disabled' };
  const v = visibleRect(el);
  if (!v) return { status: 'outside', reason: 'it is scrolled out of view or clipped away by its container' };
  let x = v.left + v.width / 2;
  let y = v.top + v.height / 2;
  const offset = opts.offset;
  if (offset && (offset.x !== undefined || offset.y !== undefined)) {
    const box = el.getBoundingClientRect();
    if ((offset.x ?? 0) > box.width || (offset.y ?? 0) > box.height) {
      return { status: 'outside', reason: `the point (${offset.x ?? 'centre'}, ${offset.y ?? 'centre'}) is outside its box of ${Math.round(box.width)}×${Math.round(box.height)} CSS px` };
    }
    x = offset.x !== undefined ? box.left + offset.x : x;
    y = offset.y !== undefined ? box.top + offset.y : y;
    if (x < v.left || x > v.right || y < v.top || y > v.bottom) return { status: 'outside', reason: 'the point given is scrolled out of view or clipped away by its container' };
  }
  const hit = deepElementFromPoint(x, y);
  if (!hit) return { status: 'outside', reason: 'nothing is rendered at its centre' };
  const reached = pointReaches(el, hit, x, y);
  if (reached) return { status: 'ok', x, y, hit: reached };
  if (labelOf(hit, el) && !offset) return { status: 'ok', x, y, hit };
  // Name the outermost element of the covering subtree that is not an ancestor of the target.
  let cover = hit;
  for (let p = composedParent(cover); p && !containsComposed(p, el) && p !== document.body; p = composedParent(p)) cover = p;
  const what = describeElement(cover, opts.redactor);
  return { status: 'covered', reason: `it is covered by ${what}`, cover: what };
}

/**
 * Resolves on the next animation frame (`true`), or after a task when the page is hidden (hidden pages get no
 * frames), or after `fallbackMs` without a frame (`false`): some embedders stop frames without marking the page
 * hidden, and a call must never hang on one. A loaded machine can also take longer than that between frames.
 */
export function nextFrame(fallbackMs = 100): Promise<boolean> {
  if (document.visibilityState === 'hidden') return nextTask().then(() => false);
  return new Promise((resolve) => {
    let done = false;
    const finish = (framed: boolean) => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        resolve(framed);
      }
    };
    requestAnimationFrame(() => finish(true));
    const timer = setTimeout(() => finish(false), Math.max(0, fallbackMs));
  });
}

/** Resolves after the current task and its microtasks, without timer clamping or background throttling. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/**
 * Waits until the DOM changes, an animation/transition ends, the page scrolls or resizes, or `ms` passes — the
 * events after which an action's preconditions may have changed. Resolves early when `signal` aborts.
 */
export function settleOrChange(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const events = ['transitionend', 'animationend', 'scroll', 'resize'] as const;
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      for (const e of events) window.removeEventListener(e, done, true);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const observer = new MutationObserver(done);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    for (const e of events) window.addEventListener(e, done, { capture: true, passive: true });
    signal.addEventListener('abort', done);
    // A zero wait must not become a clamped or throttled timer (hidden tabs run timers once a second).
    const timer = ms > 0 ? setTimeout(done, ms) : undefined;
    if (ms <= 0) void nextTask().then(done);
  });
}

/** Same rectangle, to the pixel. */
export function sameRect(a: DOMRect, b: DOMRect): boolean {
  return Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 && Math.abs(a.width - b.width) < 0.5 && Math.abs(a.height - b.height) < 0.5;
}
