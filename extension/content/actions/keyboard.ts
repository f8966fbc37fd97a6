// Synthetic keyboard and text-input events in the order a person's typing produces them
// (https://w3c.github.io/uievents/#events-keyboard-event-order, https://w3c.github.io/input-events/#event-order).
// Used by type.ts and press.ts; values are written through the element prototype's own setters so framework trackers
// notice. Key names and codes come from keys.ts.
import { charKey, type KeySpec } from './keys.js';

/** Modifier flags of a keyboard event. */
export interface KeyModifiers {
  ctrlKey?: boolean;
  shiftKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
}

/**
 * Dispatches one keyboard event on `el`; returns false when the page cancelled it. `keypress` carries the typed
 * character's code (https://w3c.github.io/uievents/#legacy-key-attributes).
 */
export function keyEvent(el: Element, type: 'keydown' | 'keypress' | 'keyup', spec: KeySpec, mods: KeyModifiers = {}): boolean {
  const press = type === 'keypress' ? (spec.key === 'Enter' ? 13 : (spec.text ?? spec.key).charCodeAt(0)) : 0;
  const init: KeyboardEventInit & { keyCode: number; which: number; charCode: number } = {
    key: spec.key,
    code: spec.code,
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
    ...mods,
    keyCode: type === 'keypress' ? press : spec.keyCode,
    which: type === 'keypress' ? press : spec.keyCode,
    charCode: press,
  };
  return el.dispatchEvent(new KeyboardEvent(type, init));
}

/** Dispatches a keyboard event for one typed character or "Enter"; returns false when the page cancelled it. */
export function key(el: Element, type: 'keydown' | 'keypress' | 'keyup', k: string): boolean {
  return keyEvent(el, type, k === 'Enter' ? charKey('\n') : charKey(k));
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
