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

/** The caret or selection of a field; email and number inputs have none, so their caret is at the end. */
function selection(el: Field): [number, number] {
  try {
    const start = el.selectionStart;
    const end = el.selectionEnd;
    if (start !== null && end !== null) return [start, end];
  } catch {
    /* no selection API for this input type */
  }
  return [el.value.length, el.value.length];
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
  const room = max - (el.value.length - (end - start));
  const piece = room >= text.length ? text : text.slice(0, Math.max(0, room));
  if (!piece) return false;
  const data = inputType === 'insertLineBreak' ? null : piece;
  if (!inputEvent(el, 'beforeinput', inputType, data)) return false;
  const before = el.value;
  setNativeValue(el, before.slice(0, start) + piece + before.slice(end));
  placeCaret(el, start + piece.length);
  inputEvent(el, 'input', inputType, data);
  return el.value !== before;
}

/** Deletes the selection, or one character before (Backspace) or after (Delete) the caret. @returns whether it changed. */
export function deleteText(el: Field, direction: 'backward' | 'forward'): boolean {
  let [start, end] = selection(el);
  if (start === end) {
    if (direction === 'backward') start = Math.max(0, start - 1);
    else end = Math.min(el.value.length, end + 1);
  }
  if (start === end) return false;
  const inputType = direction === 'backward' ? 'deleteContentBackward' : 'deleteContentForward';
  if (!inputEvent(el, 'beforeinput', inputType, null)) return false;
  const before = el.value;
  setNativeValue(el, before.slice(0, start) + before.slice(end));
  placeCaret(el, start);
  inputEvent(el, 'input', inputType, null);
  return el.value !== before;
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
