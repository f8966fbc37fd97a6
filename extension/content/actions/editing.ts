// Text edits as a person's keys make them: insert at the caret (replacing the selection), delete before or after
// it, each as beforeinput → the edit → input (https://w3c.github.io/input-events/#event-order), within maxlength.
// Used by type.ts (each typed key) and press.ts (character keys, Backspace, Delete, Enter in text areas).
import { inputEvent, setNativeValue } from './keyboard.js';

/** A native text field. */
export type Field = HTMLInputElement | HTMLTextAreaElement;

/** Input types that take typed text. */
export const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '']);

/** Whether `el` is a text field a person can type into now (not read-only or disabled). */
export function isTextField(el: Element | null): el is Field {
  if (el instanceof HTMLTextAreaElement) return !el.readOnly && !el.disabled;
  return el instanceof HTMLInputElement && TEXT_TYPES.has(el.type) && !el.readOnly && !el.disabled;
}

/** Whether `el` is (inside) a contenteditable region. */
export function isEditableContent(el: Element | null): el is HTMLElement {
  return el instanceof HTMLElement && el.isContentEditable;
}

/**
 * Input types whose value is sanitized beyond dropping line breaks, so that a text on its way to a good value can
 * be lost: a number input's value becomes "" while it is not a valid floating-point number (`0.`, `-`, `1e`;
 * https://html.spec.whatwg.org/multipage/input.html#number-state-(type=number)); email and URL inputs lose
 * leading and trailing spaces (https://html.spec.whatwg.org/multipage/input.html#email-state-(type=email),
 * https://html.spec.whatwg.org/multipage/input.html#url-state-(type=url)), so "a b" typed key by key would be "ab".
 */
const SANITIZED_TYPES = new Set(['number', 'email', 'url']);

/**
 * What Oriel last typed into each field of a {@link SANITIZED_TYPES} type, with the value the field showed for it.
 * A person's keys build the text up in the field's own editor; Oriel's set the value, so it keeps the text itself,
 * else the next key would start over ("0.25" would end as "25").
 */
const typedText = new WeakMap<HTMLInputElement, { text: string; shown: string }>();

/**
 * The text being edited in `el`: its value, or for a field of a {@link SANITIZED_TYPES} type the text typed so far
 * when the value is still the one that text left (so an edit by the page itself is never overwritten by older keys).
 */
export function editedText(el: Field): string {
  if (el instanceof HTMLInputElement && SANITIZED_TYPES.has(el.type)) {
    const typed = typedText.get(el);
    if (typed && typed.shown === el.value) return typed.text;
  }
  return el.value;
}

/** Sets the text being edited (see {@link editedText}); the field's value is that text as the browser sanitizes it. */
export function setEditedText(el: Field, text: string): void {
  setNativeValue(el, text);
  if (el instanceof HTMLInputElement && SANITIZED_TYPES.has(el.type)) typedText.set(el, { text, shown: el.value });
}

/**
 * Whether `text` is a value an `<input type="number">` can hold: a valid floating-point number, or empty
 * (https://html.spec.whatwg.org/multipage/common-microsyntaxes.html#valid-floating-point-number). The browser's own
 * value sanitization decides, on a detached input.
 */
export function numberAccepts(text: string): boolean {
  const probe = document.createElement('input');
  probe.type = 'number';
  probe.value = text;
  return probe.value === text;
}

/** The caret or selection of a field; email and number inputs have none, so their caret is at the end. */
function selection(el: Field): [number, number] {
  try {
    const start = el.selectionStart;
    const end = el.selectionEnd;
    if (start !== null && end !== null) return [start, end];
  } catch {
    /* no selection API for this input type */
  }
  const length = editedText(el).length;
  return [length, length];
}

/** Whether some of the field's text is selected (not just a caret), as after Control+A. */
export function hasSelection(el: Field): boolean {
  const [start, end] = selection(el);
  return start !== end;
}

function placeCaret(el: Field, at: number): void {
  try {
    el.setSelectionRange(at, at);
  } catch {
    /* email and number inputs have no selection API */
  }
}

/** Puts the caret after the last character. */
export function placeCaretAtEnd(el: Field): void {
  placeCaret(el, el.value.length);
}

/**
 * Inserts `text` at the caret, replacing the selection, as one edit. maxlength stops typing as it stops a person's
 * (https://html.spec.whatwg.org/multipage/input.html#attr-input-maxlength); a cancelled beforeinput drops the edit.
 * @returns whether the value changed.
 */
export function insertText(el: Field, text: string, inputType = 'insertText'): boolean {
  const [start, end] = selection(el);
  const max = el.maxLength >= 0 ? el.maxLength : Infinity;
  const current = editedText(el);
  const room = max - (current.length - (end - start));
  const piece = room >= text.length ? text : text.slice(0, Math.max(0, room));
  if (!piece) return false;
  const data = inputType === 'insertLineBreak' ? null : piece;
  if (!inputEvent(el, 'beforeinput', inputType, data)) return false;
  const before = el.value;
  setEditedText(el, current.slice(0, start) + piece + current.slice(end));
  placeCaret(el, start + piece.length);
  inputEvent(el, 'input', inputType, data);
  return el.value !== before || editedText(el) !== current;
}

/** Deletes the selection, or one character before (Backspace) or after (Delete) the caret. @returns whether it changed. */
export function deleteText(el: Field, direction: 'backward' | 'forward'): boolean {
  let [start, end] = selection(el);
  const current = editedText(el);
  if (start === end) {
    if (direction === 'backward') start = Math.max(0, start - 1);
    else end = Math.min(current.length, end + 1);
  }
  if (start === end) return false;
  const inputType = direction === 'backward' ? 'deleteContentBackward' : 'deleteContentForward';
  if (!inputEvent(el, 'beforeinput', inputType, null)) return false;
  const before = el.value;
  setEditedText(el, current.slice(0, start) + current.slice(end));
  placeCaret(el, start);
  inputEvent(el, 'input', inputType, null);
  return el.value !== before || editedText(el) !== current;
}

/**
 * Types into the focused contenteditable region with the browser's own editing command, which fires beforeinput and
 * input with the right inputType and keeps rich editors' models in step; falls back to appending the text.
 */
export function insertIntoEditable(el: HTMLElement, text: string): void {
  const ok = text === '\n' ? document.execCommand('insertParagraph') : document.execCommand('insertText', false, text);
  if (!ok && inputEvent(el, 'beforeinput', 'insertText', text)) {
    el.append(text);
    inputEvent(el, 'input', 'insertText', text);
  }
}
