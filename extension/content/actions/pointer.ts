// The synthetic pointer of this document: where it is, and the events a person's mouse produces as it moves onto
// an element, presses and releases (https://w3c.github.io/pointerevents/, https://w3c.github.io/uievents/#events-mouse-types).
// Used by click, hover, drag and select_options; CSS `:hover` emulation lives in hover-styles.ts.
import { flatParentElement } from '../hit.js';
import { deepActiveElement } from '../snapshot/dom.js';
import { hoverChainChanged } from './hover-styles.js';
import { selectByClicks } from './selection.js';

/** Keyboard modifiers held during a pointer action. */
export interface Modifiers {
  ctrlKey?: boolean;
  shiftKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
}

/** Where the pointer is: the element under it and the point, in viewport CSS pixels. */
let at: { el: Element; x: number; y: number } | undefined;

/** The element the pointer is over, if it is still in the document. */
export function pointerTarget(): Element | undefined {
  return at?.el.isConnected ? at.el : undefined;
}

/** `el` and its flat-tree ancestors, innermost first: the elements a pointer over `el` is over. */
export function hoverChain(el: Element | undefined): Element[] {
  const out: Element[] = [];
  for (let n: Element | null = el ?? null; n; n = flatParentElement(n)) out.push(n);
  return out;
}

function init(x: number, y: number, buttons: number, mods: Modifiers, button = 0) {
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    clientX: x,
    clientY: y,
    screenX: window.screenX + x,
    screenY: window.screenY + y,
    view: window,
    button,
    buttons,
    ...mods,
  };
}

function pointer(base: ReturnType<typeof init>) {
  return { ...base, pointerId: 1, pointerType: 'mouse', isPrimary: true, width: 1, height: 1, pressure: base.buttons ? 0.5 : 0 };
}

/**
 * Moves the pointer to (x, y) over `to`, as a mouse moving there does: `out`/`leave` for what it leaves, `over`/`enter`
 * for what it enters (enter and leave go to each element entered or left, outermost entered first), then `move`.
 * https://w3c.github.io/uievents/#events-mouseevent-event-order
 */
export function movePointer(to: Element, x: number, y: number, buttons = 0, mods: Modifiers = {}): void {
  const from = pointerTarget();
  const base = init(x, y, buttons, mods);
  const p = pointer(base);
  if (from !== to) {
    const before = hoverChain(from);
    const after = hoverChain(to);
    const kept = new Set(after);
    const left = before.filter((e) => !kept.has(e));
    const had = new Set(before);
    const entered = after.filter((e) => !had.has(e)).reverse();
    const relatedOut = { relatedTarget: to };
    if (from) {
      from.dispatchEvent(new PointerEvent('pointerout', { ...p, ...relatedOut }));
      for (const e of left) e.dispatchEvent(new PointerEvent('pointerleave', { ...p, ...relatedOut, bubbles: false, cancelable: false, composed: false }));
      from.dispatchEvent(new MouseEvent('mouseout', { ...base, ...relatedOut }));
      for (const e of left) e.dispatchEvent(new MouseEvent('mouseleave', { ...base, ...relatedOut, bubbles: false, cancelable: false, composed: false }));
    }
    const relatedIn = from ? { relatedTarget: from } : {};
    to.dispatchEvent(new PointerEvent('pointerover', { ...p, ...relatedIn }));
    for (const e of entered) e.dispatchEvent(new PointerEvent('pointerenter', { ...p, ...relatedIn, bubbles: false, cancelable: false, composed: false }));
    to.dispatchEvent(new MouseEvent('mouseover', { ...base, ...relatedIn }));
    for (const e of entered) e.dispatchEvent(new MouseEvent('mouseenter', { ...base, ...relatedIn, bubbles: false, cancelable: false, composed: false }));
    at = { el: to, x, y };
    hoverChainChanged(before, after);
  }
  at = { el: to, x, y };
  to.dispatchEvent(new PointerEvent('pointermove', p));
  to.dispatchEvent(new MouseEvent('mousemove', base));
}

/**
 * Records that the browser's own pointer (trusted input) is now at (x, y) over `to`, so later synthetic moves start
 * from there. The page saw the browser's events; Oriel's `:hover` mirror leaves the chain it marked.
 */
export function placePointer(to: Element, x: number, y: number): void {
  hoverChainChanged(hoverChain(pointerTarget()), []);
  at = { el: to, x, y };
}

/**
 * Presses the primary button over `el` (already under the pointer). A cancelled `pointerdown` suppresses the
 * compatibility mouse events; a cancelled `mousedown` keeps focus where it was.
 * @returns whether compatibility mouse events still fire (the page did not cancel `pointerdown`).
 */
export function pressPointer(el: Element, x: number, y: number, mods: Modifiers = {}): boolean {
  const base = init(x, y, 1, mods);
  const compat = el.dispatchEvent(new PointerEvent('pointerdown', pointer(base)));
  const focusAllowed = compat ? el.dispatchEvent(new MouseEvent('mousedown', { ...base, detail: 1 })) : true;
  if (focusAllowed) moveFocus(el);
  return compat;
}

/** Releases the primary button over `el`; `click` follows only when it was pressed over the same element. */
export function releasePointer(el: Element, x: number, y: number, compat: boolean, click: boolean, mods: Modifiers = {}): void {
  const base = init(x, y, 0, mods);
  el.dispatchEvent(new PointerEvent('pointerup', pointer(base)));
  if (compat) el.dispatchEvent(new MouseEvent('mouseup', { ...base, detail: 1 }));
  // A synthetic click still runs activation behaviour: links follow, checkboxes toggle, submit buttons submit.
  if (click) el.dispatchEvent(new MouseEvent('click', { ...base, detail: 1 }));
}

/**
 * A whole click at (x, y) on `hit`: move there, press, focus, release, click
 * (https://w3c.github.io/pointerevents/#mapping-for-devices-that-support-hover).
 */
export function clickAt(hit: Element, x: number, y: number, mods: Modifiers = {}): void {
  movePointer(hit, x, y, 0, mods);
  const compat = pressPointer(hit, x, y, mods);
  releasePointer(hit, x, y, compat, true, mods);
}

/** A mouse button by name. */
export type MouseButton = 'left' | 'middle' | 'right';

/** `MouseEvent.button` and the `buttons` bit of each button (https://w3c.github.io/uievents/#dom-mouseevent-buttons). */
const BUTTONS: Record<MouseButton, { button: number; bit: number }> = { left: { button: 0, bit: 1 }, middle: { button: 1, bit: 4 }, right: { button: 2, bit: 2 } };

/** What a click's events told: whether the page cancelled its last `click` or `auxclick` (no default action then). */
export interface ClickOutcome {
  cancelled: boolean;
}

/**
 * `count` clicks of `button` at (x, y) on `hit`, holding `mods`, in the order a person's mouse produces them
 * (https://w3c.github.io/uievents/#events-mouseevent-event-order): each press is pointerdown, mousedown (`detail` =
 * the click's number), and for the right button contextmenu (after the press, as on Linux and macOS, `detail` 0); each release is
 * pointerup, mouseup, then `click` for the left button or `auxclick` for the others
 * (https://w3c.github.io/uievents/#event-type-auxclick); the second left click adds `dblclick`. Focus moves on the
 * first press the page did not cancel; a second and third left press the page did not cancel select a word and a
 * paragraph (./selection.ts). A cancelled pointerdown suppresses that press's mouse events
 * (https://w3c.github.io/pointerevents/#preventing-compatibility-mouse-events).
 */
export function clickSequence(hit: Element, x: number, y: number, button: MouseButton, count: number, mods: Modifiers): ClickOutcome {
  const { button: code, bit } = BUTTONS[button];
  movePointer(hit, x, y, 0, mods);
  let cancelled = false;
  for (let detail = 1; detail <= count; detail++) {
    const down = init(x, y, bit, mods, code);
    const compat = hit.dispatchEvent(new PointerEvent('pointerdown', pointer(down)));
    const pressed = compat && hit.dispatchEvent(new MouseEvent('mousedown', { ...down, detail }));
    if (pressed && detail === 1) moveFocus(hit);
    // A left double or triple click selects text where the page let the press through.
    if (pressed && button === 'left') selectByClicks(hit, x, y, detail);
    // The browser's own contextmenu carries no click count (`detail` 0, as Chromium's trusted one does).
    if (button === 'right') hit.dispatchEvent(new MouseEvent('contextmenu', { ...down, detail: 0 }));
    const up = init(x, y, 0, mods, code);
    hit.dispatchEvent(new PointerEvent('pointerup', pointer(up)));
    if (compat) hit.dispatchEvent(new MouseEvent('mouseup', { ...up, detail }));
    // A synthetic click still runs activation behaviour: links follow, checkboxes toggle, submit buttons submit.
    cancelled = !hit.dispatchEvent(new MouseEvent(button === 'left' ? 'click' : 'auxclick', { ...up, detail }));
    if (button === 'left' && detail === 2) hit.dispatchEvent(new MouseEvent('dblclick', { ...up, detail }));
  }
  return { cancelled };
}

/** Focus goes to the nearest focusable shadow-including ancestor of what was pressed, else focus leaves (to body). */
function moveFocus(hit: Element): void {
  for (let n: Element | null = hit; n; n = n.parentElement ?? (n.parentNode instanceof ShadowRoot ? n.parentNode.host : null)) {
    if (isFocusable(n)) {
      if (document.activeElement !== n && !n.contains(deepActiveElement())) (n as HTMLElement).focus({ preventScroll: true });
      return;
    }
  }
  const active = document.activeElement;
  if (active && active !== document.body) (active as HTMLElement).blur?.();
}


/** Focusable by a click: has tabIndex ≥ -1 semantics (form controls, links with href, [tabindex], contenteditable). */
export function isFocusable(el: Element): boolean {
  if (!(el instanceof HTMLElement || el instanceof SVGElement)) return false;
  if (el.hasAttribute('tabindex')) return true;
  if ((el as HTMLElement).isContentEditable && el.parentElement?.isContentEditable !== true) return true;
  switch (el.localName) {
    case 'a':
    case 'area':
      return el.hasAttribute('href');
    case 'button':
    case 'input':
    case 'select':
    case 'textarea':
      return !(el as HTMLButtonElement).disabled;
    case 'iframe':
    case 'summary':
      return true;
    default:
      return false;
  }
}
