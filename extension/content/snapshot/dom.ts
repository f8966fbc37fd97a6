// Small DOM helpers for the walker: shadow roots (open and closed), the focused element, frame ids.

interface FirefoxElement extends Element {
  /** Firefox exposes closed shadow roots to WebExtension content scripts as this property. */
  openOrClosedShadowRoot?: ShadowRoot | null;
}

const SHADOW_HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);

type ShadowApi = (e: HTMLElement) => ShadowRoot | null;
let chromeApi: ShadowApi | null | undefined;

/** `chrome.dom.openOrClosedShadowRoot`, looked up once (each `chrome.dom` access goes through the extension bindings). */
function chromeShadowApi(): ShadowApi | null {
  if (chromeApi === undefined) {
    const dom = (globalThis as { chrome?: { dom?: { openOrClosedShadowRoot?: ShadowApi } } }).chrome?.dom;
    chromeApi = dom?.openOrClosedShadowRoot ? dom.openOrClosedShadowRoot.bind(dom) : null;
  }
  return chromeApi;
}

/**
 * The shadow root of `el`, open or closed. Chromium: `chrome.dom.openOrClosedShadowRoot(el)`
 * (https://developer.chrome.com/docs/extensions/reference/api/dom); Firefox: `el.openOrClosedShadowRoot`
 * (https://developer.mozilla.org/docs/Web/API/Element/openOrClosedShadowRoot).
 */
export function shadowRootOf(el: Element): ShadowRoot | null {
  // Only custom elements and a few HTML elements can host a shadow root (https://dom.spec.whatwg.org/#dom-element-attachshadow);
  // asking the extension API for every element would cost more than the rest of the walk.
  const tag = el.localName;
  if (!SHADOW_HOSTS.has(tag) && !tag.includes('-') && !el.hasAttribute('is')) return null;
  // An open root needs no extension API.
  const open = el.shadowRoot;
  if (open) return open;
  const ff = (el as FirefoxElement).openOrClosedShadowRoot;
  if (ff !== undefined) return ff ?? null;
  const api = chromeShadowApi();
  if (api && el instanceof HTMLElement) {
    try {
      return api(el);
    } catch {
      return null;
    }
  }
  return null;
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
