// What a key press does for a person when the page does not cancel it. Synthetic key events have no default actions
// (https://w3c.github.io/uievents/#trusted-events), so Oriel performs them: typing and deleting text, Tab's focus
// move, Enter's submission or activation, Space's activation, Escape closing a modal dialog or popover, arrows and
// paging keys on sliders, selects, radio groups, carets and scrollers. Each returns what it did, or nothing.
import { isInert, isVisible } from './actionability.js';
import { deleteText, hasSelection, insertIntoEditable, insertText, isEditableContent, isTextField, type Field } from './editing.js';
import { changeEvent, inputEvent, keyEvent } from './keyboard.js';
import { MODIFIER_KEYS, type Chord } from './keys.js';
import { isFocusable } from './pointer.js';
import { anyShadowRoot } from './shadow.js';
import { describeElement } from './target.js';
import { isSecretField, type Redactor } from '../redaction.js';
import { deepActiveElement } from '../snapshot/dom.js';

/** What pressing a chord did. */
export interface PressOutcome {
  /** The page cancelled the keydown (or keypress): it handled the key itself. */
  prevented: boolean;
  /** What Oriel did in the browser's place, in words. */
  action?: string;
}

/** Where keys go now: the focused element (inside shadow roots too), else the body. */
export function keyTarget(): Element {
  return deepActiveElement() ?? document.body ?? document.documentElement;
}

/**
 * Presses `chord` on `target` as a keyboard does: modifiers down, keydown, keypress (for keys that type), the default
 * action, keyup (to whatever has focus by then), modifiers up (https://w3c.github.io/uievents/#events-keyboard-event-order).
 */
export function pressChord(chord: Chord, target: Element, redactor: Redactor): PressOutcome {
  describe = (el) => describeElement(el, redactor);
  const held = { ctrlKey: false, altKey: false, shiftKey: false, metaKey: false };
  for (const [flag, spec] of MODIFIER_KEYS) {
    if (!chord[flag]) continue;
    held[flag] = true;
    keyEvent(target, 'keydown', spec, held);
  }
  const mods = { ctrlKey: chord.ctrlKey, altKey: chord.altKey, shiftKey: chord.shiftKey, metaKey: chord.metaKey };
  const outcome: PressOutcome = { prevented: false };
  if (keyEvent(target, 'keydown', chord.key, mods)) {
    const types = chord.key.text !== undefined || chord.key.key === 'Enter';
    if (!types || keyEvent(target, 'keypress', chord.key, mods)) {
      const action = onKeydown(chord, target);
      if (action) outcome.action = action;
    } else outcome.prevented = true;
  } else outcome.prevented = true;
  const after = keyTarget();
  if (keyEvent(after, 'keyup', chord.key, mods) && !outcome.prevented && after === target) {
    const action = onKeyup(chord, target);
    if (action) outcome.action = action;
  }
  for (const [flag, spec] of [...MODIFIER_KEYS].reverse()) {
    if (!chord[flag]) continue;
    held[flag] = false;
    keyEvent(after, 'keyup', spec, held);
  }
  return outcome;
}

/** Describes an element in an action's words, through the redactor of the press under way (set by pressChord). */
let describe: (el: Element) => string = (el) => describeElement(el);

/** Elements whose activation behaviour a person triggers with Enter (on keydown) or Space (on keyup). */
function isActivatable(el: Element): el is HTMLElement {
  if (el instanceof HTMLButtonElement) return !el.disabled;
  if (el instanceof HTMLInputElement) return ['submit', 'reset', 'button', 'image', 'checkbox', 'radio'].includes(el.type) && !el.disabled;
  return el.localName === 'summary' || ((el.localName === 'a' || el.localName === 'area') && el.hasAttribute('href'));
}

function onKeydown(chord: Chord, el: Element): string | undefined {
  const k = chord.key.key;
  const plain = !chord.ctrlKey && !chord.altKey && !chord.metaKey;
  if (chord.key.text !== undefined && plain) {
    if (isTextField(el)) return insertText(el, chord.key.text) ? `typed "${chord.key.text}"` : undefined;
    if (isEditableContent(el)) {
      insertIntoEditable(el, chord.key.text);
      return `typed "${chord.key.text}"`;
    }
    if (k === ' ' && !isActivatable(el)) return scroll(el, chord.shiftKey ? 'up' : 'down', 'page');
    return undefined;
  }
  if ((chord.ctrlKey || chord.metaKey) && k.toLowerCase() === 'a' && !chord.altKey) return selectAll(el);
  if (!plain) return undefined;
  switch (k) {
    case 'Tab':
      return moveFocus(el, chord.shiftKey ? -1 : 1);
    case 'Escape':
      return closeTopmost();
    case 'Enter':
      return enter(el);
    case 'Backspace':
    case 'Delete': {
      const direction = k === 'Backspace' ? 'backward' : 'forward';
      if (isTextField(el)) {
        // With a selection the key deletes it, not a character (deleteContentBackward/Forward in
        // https://w3c.github.io/input-events/#interface-InputEvent-Attributes).
        const what = hasSelection(el) ? 'deleted the selected text' : `deleted a character ${direction === 'backward' ? 'before' : 'after'} the caret`;
        return deleteText(el, direction) ? what : undefined;
      }
      if (isEditableContent(el)) return document.execCommand(direction === 'backward' ? 'delete' : 'forwardDelete') ? 'deleted' : undefined;
      return undefined;
    }
    case 'ArrowUp':
    case 'ArrowDown':
    case 'ArrowLeft':
    case 'ArrowRight':
    case 'Home':
    case 'End':
    case 'PageUp':
    case 'PageDown':
      return navigate(el, k);
    default:
      return undefined;
  }
}

function onKeyup(chord: Chord, el: Element): string | undefined {
  if (chord.key.key !== ' ' || chord.ctrlKey || chord.altKey || chord.metaKey || !isActivatable(el) || el.localName === 'a') return undefined;
  (el as HTMLElement).click();
  return `activated ${describe(el)}`;
}

/** Enter: implicit submission in a text field, a line break in a text area, activation of buttons and links. */
function enter(el: Element): string | undefined {
  if (el instanceof HTMLTextAreaElement) return isTextField(el) && insertText(el, '\n', 'insertLineBreak') ? 'inserted a line break' : undefined;
  if (isEditableContent(el)) {
    insertIntoEditable(el, '\n');
    return 'inserted a paragraph';
  }
  if (el instanceof HTMLInputElement && !isActivatable(el)) return implicitSubmission(el);
  if (isActivatable(el) && !(el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio'))) {
    el.click();
    return `activated ${describe(el)}`;
  }
  return undefined;
}

/**
 * Implicit submission (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#implicit-submission):
 * the form's default button is clicked, or with no such button a form with one blocking field is submitted.
 */
export function implicitSubmission(el: HTMLInputElement): string | undefined {
  const form = el.form;
  if (!form) return undefined;
  const button = defaultButton(form);
  if (button) {
    if (button.disabled) return undefined;
    button.click();
    return `clicked the form's default button ${describe(button)}`;
  }
  if (blockingFields(form) > 1) return undefined;
  form.requestSubmit();
  return 'submitted the form';
}

function defaultButton(form: HTMLFormElement): HTMLButtonElement | HTMLInputElement | undefined {
  for (const c of Array.from(form.elements)) {
    if (c instanceof HTMLButtonElement && c.type === 'submit') return c;
    if (c instanceof HTMLInputElement && (c.type === 'submit' || c.type === 'image')) return c;
  }
  return undefined;
}

/** Fields that block implicit submission when there is no submit button. */
function blockingFields(form: HTMLFormElement): number {
  const blocking = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'date', 'month', 'week', 'time', 'datetime-local', 'number']);
  return Array.from(form.elements).filter((c) => c instanceof HTMLInputElement && blocking.has(c.type)).length;
}

/** Escape closes the topmost modal dialog (after an uncancelled `cancel` event), else the last open auto popover. */
function closeTopmost(): string | undefined {
  const modals = Array.from(document.querySelectorAll('dialog[open]')).filter((d) => safeMatches(d, ':modal')) as HTMLDialogElement[];
  const modal = modals.at(-1);
  if (modal) {
    // https://html.spec.whatwg.org/multipage/interactive-elements.html#close-requests
    if (!modal.dispatchEvent(new Event('cancel', { cancelable: true }))) return undefined;
    modal.close();
    return `closed the modal dialog ${describe(modal)}`;
  }
  const popover = Array.from(document.querySelectorAll('[popover]')).filter((p) => safeMatches(p, ':popover-open') && p.getAttribute('popover') !== 'manual').at(-1) as HTMLElement | undefined;
  if (popover) {
    popover.hidePopover();
    return `closed the popover ${describe(popover)}`;
  }
  return undefined;
}

function safeMatches(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    return false;
  }
}

/** Ctrl/Meta+A: select a field's text, an editable region's content, or the page's text. */
function selectAll(el: Element): string {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    el.select();
    return 'selected all text in the field';
  }
  const scope = isEditableContent(el) ? el : document.body;
  window.getSelection()?.selectAllChildren(scope);
  return isEditableContent(el) ? 'selected all text in the editable region' : 'selected all text on the page';
}

/** Arrows, Home/End and PageUp/PageDown on what has focus. */
function navigate(el: Element, k: string): string | undefined {
  if (el instanceof HTMLInputElement && el.type === 'range' && !el.disabled) return stepRange(el, k);
  if (el instanceof HTMLSelectElement && !el.multiple && el.size <= 1 && !el.disabled) return stepSelect(el, k);
  if (el instanceof HTMLInputElement && el.type === 'radio' && k.startsWith('Arrow')) return stepRadio(el, k === 'ArrowDown' || k === 'ArrowRight' ? 1 : -1);
  if (isTextField(el)) return moveCaret(el, k);
  if (isEditableContent(el)) return undefined;
  const vertical = k === 'ArrowUp' || k === 'ArrowDown' || k === 'PageUp' || k === 'PageDown' || k === 'Home' || k === 'End';
  const back = k === 'ArrowUp' || k === 'ArrowLeft' || k === 'PageUp' || k === 'Home';
  const dir = vertical ? (back ? 'up' : 'down') : back ? 'left' : 'right';
  return scroll(el, dir, k === 'Home' || k === 'End' ? 'edge' : k.startsWith('Page') ? 'page' : 'line');
}

function stepRange(el: HTMLInputElement, k: string): string | undefined {
  const before = el.value;
  const min = Number(el.min || 0), max = Number(el.max || 100);
  if (k === 'Home') el.value = String(min);
  else if (k === 'End') el.value = String(max);
  else if (k === 'PageUp' || k === 'PageDown') el.value = String(Number(el.value) + (k === 'PageUp' ? 1 : -1) * Math.max((max - min) / 10, Number(el.step) || 1));
  else if (k === 'ArrowUp' || k === 'ArrowRight') el.stepUp();
  else el.stepDown();
  if (el.value === before) return undefined;
  inputEvent(el, 'input', 'insertReplacementText', null);
  changeEvent(el);
  return `set the slider to ${el.value}`;
}

function stepSelect(el: HTMLSelectElement, k: string): string | undefined {
  const options = Array.from(el.options).filter((o) => !o.disabled);
  if (options.length === 0) return undefined;
  const current = options.indexOf(el.options[el.selectedIndex]!);
  let next: number;
  if (k === 'Home' || k === 'PageUp') next = 0;
  else if (k === 'End' || k === 'PageDown') next = options.length - 1;
  else next = Math.max(0, Math.min(options.length - 1, current + (k === 'ArrowDown' || k === 'ArrowRight' ? 1 : -1)));
  if (next === current) return undefined;
  options[next]!.selected = true;
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  changeEvent(el);
  // A secret select's choice is not echoed (docs/architecture.md, "Redaction").
  return isSecretField(el) ? 'selected another option' : `selected option "${options[next]!.label}"`;
}

function stepRadio(el: HTMLInputElement, step: 1 | -1): string | undefined {
  const group = radioGroup(el).filter((r) => !r.disabled);
  if (group.length < 2) return undefined;
  const next = group[(group.indexOf(el) + step + group.length) % group.length]!;
  next.focus();
  next.click();
  return `checked ${describe(next)}`;
}

function radioGroup(el: HTMLInputElement): HTMLInputElement[] {
  if (!el.name) return [el];
  const scope = el.form ?? (el.getRootNode() as Document | ShadowRoot);
  const all = el.form ? Array.from(el.form.elements) : Array.from((scope as ParentNode).querySelectorAll('input[type=radio]'));
  return all.filter((r): r is HTMLInputElement => r instanceof HTMLInputElement && r.type === 'radio' && r.name === el.name && (el.form ? true : !r.form));
}

function moveCaret(el: Field, k: string): string | undefined {
  let at: number;
  try {
    const start = el.selectionStart ?? el.value.length;
    const end = el.selectionEnd ?? start;
    if (k === 'Home' || (k === 'ArrowUp' && el instanceof HTMLInputElement)) at = 0;
    else if (k === 'End' || (k === 'ArrowDown' && el instanceof HTMLInputElement)) at = el.value.length;
    else if (k === 'ArrowLeft') at = start === end ? Math.max(0, start - 1) : start;
    else if (k === 'ArrowRight') at = start === end ? Math.min(el.value.length, end + 1) : end;
    else return undefined;
    el.setSelectionRange(at, at);
  } catch {
    return undefined;
  }
  return `moved the caret to ${at}`;
}

/** The nearest scrollable box around `el` (https://drafts.csswg.org/cssom-view/#scrolling-box), else the page. */
export function scrollerOf(el: Element): Element {
  for (let n: Element | null = el; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
    const s = getComputedStyle(n);
    const y = (s.overflowY === 'auto' || s.overflowY === 'scroll') && n.scrollHeight > n.clientHeight;
    const x = (s.overflowX === 'auto' || s.overflowX === 'scroll') && n.scrollWidth > n.clientWidth;
    if (x || y) return n;
  }
  return document.scrollingElement ?? document.documentElement;
}

/** Scrolls what surrounds `el` by a line (40 px), a page (87.5% of the box) or to the edge. */
function scroll(el: Element, dir: 'up' | 'down' | 'left' | 'right', by: 'line' | 'page' | 'edge'): string | undefined {
  const box = scrollerOf(el);
  const page = box === document.scrollingElement;
  const size = dir === 'up' || dir === 'down' ? (page ? window.innerHeight : box.clientHeight) : page ? window.innerWidth : box.clientWidth;
  const sign = dir === 'up' || dir === 'left' ? -1 : 1;
  const amount = by === 'line' ? 40 : by === 'page' ? Math.round(size * 0.875) : 1e9;
  const beforeX = box.scrollLeft, beforeY = box.scrollTop;
  const delta = dir === 'up' || dir === 'down' ? { top: sign * amount, left: 0 } : { top: 0, left: sign * amount };
  box.scrollBy({ ...delta, behavior: 'instant' as ScrollBehavior });
  if (box.scrollLeft === beforeX && box.scrollTop === beforeY) return undefined;
  return `scrolled ${page ? 'the page' : describe(box)} ${dir} to ${Math.round(dir === 'up' || dir === 'down' ? box.scrollTop : box.scrollLeft)} px`;
}

/**
 * Tab and Shift+Tab: sequential focus navigation (https://html.spec.whatwg.org/multipage/interaction.html#sequential-focus-navigation):
 * positive tabindex first in ascending order, then document order, shadow trees in place, a radio group as one stop,
 * within the open modal dialog if there is one. Past the last element focus leaves the page.
 */
function moveFocus(from: Element, step: 1 | -1): string {
  const modal = Array.from(document.querySelectorAll('dialog[open]')).filter((d) => safeMatches(d, ':modal')).at(-1);
  const order = tabOrder(modal ?? document.body ?? document.documentElement);
  const i = order.indexOf(from as HTMLElement);
  const next = i < 0 ? (step > 0 ? order[0] : order.at(-1)) : order[i + step];
  if (!next) {
    if (modal && order.length > 0) {
      // A modal dialog keeps focus inside: it wraps around.
      const wrap = step > 0 ? order[0]! : order.at(-1)!;
      wrap.focus();
      return `moved focus to ${describe(wrap)}`;
    }
    (from as HTMLElement).blur?.();
    return 'moved focus out of the page (past its last element)';
  }
  next.focus();
  return `moved focus to ${describe(next)}`;
}

function tabOrder(root: Element): HTMLElement[] {
  const found: HTMLElement[] = [];
  const visit = (n: Element) => {
    if (n instanceof HTMLElement && isFocusable(n) && n.tabIndex >= 0 && isVisible(n) && !isInert(n)) found.push(n);
    const shadow = anyShadowRoot(n);
    const assigned = n instanceof HTMLSlotElement ? n.assignedElements() : [];
    const kids = shadow ? Array.from(shadow.children) : assigned.length > 0 ? assigned : Array.from(n.children);
    for (const c of kids) visit(c);
  };
  visit(root);
  const positive = found.filter((e) => e.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex);
  const rest = found.filter((e) => e.tabIndex === 0);
  // A radio group is one stop: its checked radio, or its first when none is checked.
  const seen = new Set<string>();
  return [...positive, ...rest].filter((e) => {
    if (!(e instanceof HTMLInputElement) || e.type !== 'radio' || !e.name) return true;
    const group = radioGroup(e);
    const checked = group.find((r) => r.checked);
    if (checked) return checked === e;
    const key = `${e.form ? 'f' : 'd'}:${e.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
