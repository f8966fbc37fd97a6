// The `click` page operation: wait until the target is actionable, then dispatch the events of a person's mouse click
// at its centre and report what was observed. MCP side: broker/mcp/tools (the lead's click tool).
import type { ClickResult } from '../../../shared/ops.js';
import type { ContentHandler } from '../handlers.js';
import { nextTask } from './actionability.js';
import { whenActionable, type ActPoint } from './ready.js';
import { checkTarget } from './target.js';

const DEFAULT_TIMEOUT_MS = 5000;

export const click: ContentHandler<'click'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  checkTarget(args, 'the element to click');
  const watch = watchEffects();
  try {
    let target: Element | undefined;
    await whenActionable(args, ctx, { timeoutMs: args.timeout_ms ?? DEFAULT_TIMEOUT_MS, hitTest: true, redactor }, (el, at) => {
      target = el;
      watch.start();
      dispatchClick(at);
    });
    // Let microtask-scheduled renders (React, Vue) and the navigation machinery run before reading the evidence.
    await nextTask();
    const seen = watch.stop();
    const result: ClickResult = { dispatched: true, trusted: false, navigation_started: seen.navigation, dom_changed: seen.mutated };
    if (target) result.handle = ctx.registry.handleFor(target);
    return result;
  } finally {
    watch.stop();
  }
};

/**
 * The events a mouse click produces, in order (https://w3c.github.io/pointerevents/#mapping-for-devices-that-support-hover,
 * https://w3c.github.io/uievents/#events-mouseevent-event-order): move onto the element, press, focus, release, click.
 * Dispatched on the element actually under the pointer, like the browser does. A cancelled `pointerdown` suppresses the
 * compatibility mouse events but not `click`; a cancelled `mousedown` keeps focus where it was.
 */
export function dispatchClick(at: ActPoint): void {
  const { hit, x, y } = at;
  const base = {
    bubbles: true,
    cancelable: true,
    composed: true,
    clientX: x,
    clientY: y,
    screenX: window.screenX + x,
    screenY: window.screenY + y,
    view: window,
    button: 0,
  };
  const pointer = { ...base, pointerId: 1, pointerType: 'mouse', isPrimary: true, width: 1, height: 1 };
  hit.dispatchEvent(new PointerEvent('pointerover', { ...pointer, buttons: 0 }));
  hit.dispatchEvent(new PointerEvent('pointerenter', { ...pointer, buttons: 0, bubbles: false }));
  hit.dispatchEvent(new MouseEvent('mouseover', { ...base, buttons: 0 }));
  hit.dispatchEvent(new MouseEvent('mouseenter', { ...base, buttons: 0, bubbles: false }));
  hit.dispatchEvent(new PointerEvent('pointermove', { ...pointer, buttons: 0 }));
  hit.dispatchEvent(new MouseEvent('mousemove', { ...base, buttons: 0 }));
  const compat = hit.dispatchEvent(new PointerEvent('pointerdown', { ...pointer, buttons: 1, pressure: 0.5 }));
  const focusAllowed = compat ? hit.dispatchEvent(new MouseEvent('mousedown', { ...base, buttons: 1, detail: 1 })) : true;
  if (focusAllowed) moveFocus(hit);
  hit.dispatchEvent(new PointerEvent('pointerup', { ...pointer, buttons: 0, pressure: 0 }));
  if (compat) hit.dispatchEvent(new MouseEvent('mouseup', { ...base, buttons: 0, detail: 1 }));
  // A synthetic click still runs activation behaviour: links follow, checkboxes toggle, submit buttons submit.
  hit.dispatchEvent(new MouseEvent('click', { ...base, buttons: 0, detail: 1 }));
}

/** Focus goes to the nearest focusable shadow-including ancestor of what was pressed, else focus leaves (to body). */
function moveFocus(hit: Element): void {
  for (let n: Element | null = hit; n; n = n.parentElement ?? (n.parentNode instanceof ShadowRoot ? n.parentNode.host : null)) {
    if (isFocusable(n)) {
      if (document.activeElement !== n && !n.contains(deepActive())) (n as HTMLElement).focus({ preventScroll: true });
      return;
    }
  }
  const active = document.activeElement;
  if (active && active !== document.body) (active as HTMLElement).blur?.();
}

function deepActive(): Element | null {
  let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

/** Focusable by a click: has tabIndex ≥ -1 semantics (form controls, links with href, [tabindex], contenteditable). */
function isFocusable(el: Element): boolean {
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

/**
 * Observes what a click does: DOM mutations (anywhere in this document) and navigation (the Navigation API's
 * `navigate` event where it exists, `beforeunload`/`pagehide`, or a changed URL). Never claims what it did not see.
 */
export function watchEffects() {
  let mutated = false;
  let navigation = false;
  let url = '';
  let active = false;
  const observer = new MutationObserver(() => (mutated = true));
  const onNav = () => (navigation = true);
  const nav = (window as unknown as { navigation?: EventTarget }).navigation;
  return {
    start() {
      if (active) return;
      active = true;
      url = location.href;
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      nav?.addEventListener('navigate', onNav);
      window.addEventListener('beforeunload', onNav);
      window.addEventListener('pagehide', onNav);
    },
    stop(): { mutated: boolean; navigation: boolean } {
      if (active) {
        active = false;
        if (observer.takeRecords().length > 0) mutated = true;
        observer.disconnect();
        nav?.removeEventListener('navigate', onNav);
        window.removeEventListener('beforeunload', onNav);
        window.removeEventListener('pagehide', onNav);
        if (location.href !== url) navigation = true;
      }
      return { mutated, navigation };
    },
  };
}
