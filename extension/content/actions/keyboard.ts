// Synthetic keyboard and text-input events in the order a person's typing produces them
// (https://w3c.github.io/uievents/#events-keyboard-event-order, https://w3c.github.io/input-events/#event-order).
// Used by type.ts; values are written through the element prototype's own setters so framework trackers notice.

/** The `code` a US keyboard gives for a character, good enough for pages that look at it. */
function codeFor(key: string): string {
  if (key === 'Enter') return 'Enter';
  if (key === ' ') return 'Space';
  if (/^[a-z]$/i.test(key)) return `Key${key.toUpperCase()}`;
  if (/^[0-9]$/.test(key)) return `Digit${key}`;
  return '';
}

/** Key codes pages still read (`keyCode`/`which`): letters and digits map to their upper-case code point. */
function keyCodeFor(key: string): number {
  if (key === 'Enter') return 13;
  if (key.length === 1) return key.toUpperCase().charCodeAt(0);
  return 0;
}

/** Dispatches a keyboard event on `el`; returns false when the page cancelled it. */
export function key(el: Element, type: 'keydown' | 'keypress' | 'keyup', k: string): boolean {
  const keyCode = keyCodeFor(k);
  const init: KeyboardEventInit & { keyCode: number; which: number; charCode: number } = {
    key: k,
    code: codeFor(k),
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
    keyCode: type === 'keypress' ? (k === 'Enter' ? 13 : k.charCodeAt(0)) : keyCode,
    which: type === 'keypress' ? (k === 'Enter' ? 13 : k.charCodeAt(0)) : keyCode,
    charCode: type === 'keypress' ? (k === 'Enter' ? 13 : k.charCodeAt(0)) : 0,
  };
  return el.dispatchEvent(new KeyboardEvent(type, init));
}

/** Dispatches `beforeinput` (cancelable) or `input`; returns false when `beforeinput` was cancelled. */
export function inputEvent(el: Element, type: 'beforeinput' | 'input', inputType: string, data: string | null): boolean {
  return el.dispatchEvent(new InputEvent(type, { inputType, data, bubbles: true, cancelable: type === 'beforeinput', composed: true }));
}

/** A plain `change` event, as the browser fires when an edit is committed. */
export function changeEvent(el: Element): void {
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * Sets `value` through the prototype's setter. React (and others) shadow `value` on the element to track writes;
 * a write through the prototype is one they do not see, so their `input` listener then finds the value changed
 * and updates the framework's state.
 */
export function setNativeValue(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
}
