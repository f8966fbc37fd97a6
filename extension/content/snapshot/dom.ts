// Small DOM helpers for the walker: shadow roots (open and closed), the focused element, frame ids.

interface FirefoxElement extends Element {
  /** Firefox exposes closed shadow roots to WebExtension content scripts as this property. */
  openOrClosedShadowRoot?: ShadowRoot | null;
}

const SHADOW_HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);

/**
 * The shadow root of `el`, open or closed. Chromium: `chrome.dom.openOrClosedShadowRoot(el)`
 * (https://developer.chrome.com/docs/extensions/reference/api/dom); Firefox: `el.openOrClosedShadowRoot`
 * (https://developer.mozilla.org/docs/Web/API/Element/openOrClosedShadowRoot).
 */
export function shadowRootOf(el: Element): ShadowRoot | null {
  // Only custom elements and a few HTML elements can host a shadow root (https://dom.spec.whatwg.org/#dom-element-attachshadow);
  // asking the extension API for every element would cost more than the rest of the walk.
  if (!SHADOW_HOSTS.has(el.localName) && !el.localName.includes('-') && !el.hasAttribute('is')) return null;
  const ff = (el as FirefoxElement).openOrClosedShadowRoot;
  if (ff !== undefined) return ff ?? null;
  const dom = (globalThis as { chrome?: { dom?: { openOrClosedShadowRoot?: (e: HTMLElement) => ShadowRoot | null } } }).chrome?.dom;
  if (dom?.openOrClosedShadowRoot && el instanceof HTMLElement) {
    try {
      return dom.openOrClosedShadowRoot(el);
    } catch {
      return el.shadowRoot;
    }
  }
  return el.shadowRoot;
}

/** The element that has focus, looking into shadow roots (open and closed). */
export function deepActiveElement(): Element | null {
  let el: Element | null = document.activeElement;
  for (;;) {
    const root = el ? shadowRootOf(el) : null;
    const inner = root?.activeElement ?? null;
    if (!inner) return el;
    el = inner;
  }
}

type GetFrameId = (target: Element | Window) => number;

/** `runtime.getFrameId(element)` where the browser has it (Firefox 96+; not Chromium as of 156). */
export function nativeGetFrameId(): GetFrameId | undefined {
  const g = globalThis as { browser?: { runtime?: { getFrameId?: GetFrameId } }; chrome?: { runtime?: { getFrameId?: GetFrameId } } };
  return g.browser?.runtime?.getFrameId ?? g.chrome?.runtime?.getFrameId;
}
