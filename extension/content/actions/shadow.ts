// Reaching closed shadow roots from the content script, for the hit test (actionability.ts) and text search
// (text.ts). The snapshot walker has its own lookup in ../snapshot/dom.ts.

/** Firefox gives WebExtension content scripts every element's shadow root, open or closed, as this property. */
interface WithAnyShadowRoot extends Element {
  openOrClosedShadowRoot?: ShadowRoot | null;
}

type ChromeDom = { openOrClosedShadowRoot?: (el: HTMLElement) => ShadowRoot | null };

/**
 * The shadow root of `el`, open or closed: `el.shadowRoot` when open; otherwise Firefox's
 * `el.openOrClosedShadowRoot` (https://developer.mozilla.org/docs/Web/API/Element/openOrClosedShadowRoot) or
 * Chromium's `chrome.dom.openOrClosedShadowRoot(el)` (https://developer.chrome.com/docs/extensions/reference/api/dom).
 */
export function anyShadowRoot(el: Element): ShadowRoot | null {
  if (el.shadowRoot) return el.shadowRoot;
  const ff = (el as WithAnyShadowRoot).openOrClosedShadowRoot;
  if (ff !== undefined) return ff ?? null;
  const dom = (globalThis as { chrome?: { dom?: ChromeDom } }).chrome?.dom;
  if (!dom?.openOrClosedShadowRoot || !(el instanceof HTMLElement)) return null;
  try {
    return dom.openOrClosedShadowRoot(el);
  } catch {
    return null;
  }
}
