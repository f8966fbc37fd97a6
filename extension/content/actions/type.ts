// The `type` page operation: fill an input, textarea, contenteditable or <select> as a person's keyboard would, so
// framework-controlled fields (React, Vue, Angular) hold the value in their own state. MCP side: broker/mcp/tools/input.ts.
import type { TypeResult } from '../../../shared/ops.js';
import { orielError } from '../../../shared/errors.js';
import type { ContentHandler } from '../handlers.js';
import { nextTask } from './actionability.js';
import { watchEffects } from './click.js';
import { changeEvent, inputEvent, key, setNativeValue } from './keyboard.js';
import { isSecretField, Redactor } from '../redaction.js';
import { whenActionable, type Unfit } from './ready.js';
import { checkTarget, clip } from './target.js';

const DEFAULT_TIMEOUT_MS = 5000;
/** Longer text is inserted in one input event (as a paste would), not key by key. */
const PER_KEY_LIMIT = 256;
/** Values echoed back are capped like snapshot values (SPEC §3). */
const ECHO_LIMIT = 200;

/** Input types that take typed text. Others (checkbox, file, …) are not typed into. */
const TEXT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', '']);
/** Input types whose value is set as a whole (a person uses a picker). */
const PICKER_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

type Field = HTMLInputElement | HTMLTextAreaElement;

export const type: ContentHandler<'type'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  checkTarget(args, 'the field to type into');
  const watch = watchEffects();
  try {
    let submitted = false;
    let target!: Element;
    await whenActionable(args, ctx, { timeoutMs: args.timeout_ms ?? DEFAULT_TIMEOUT_MS, hitTest: false, extra: notEditable, redactor }, (el) => {
      target = el;
      watch.start();
      submitted = fill(el, args.text, args.clear !== false, args.submit === true, isSecretField(el));
    });
    await nextTask();
    const seen = watch.stop();
    const result: TypeResult = {
      handle: ctx.registry.handleFor(target),
      submitted,
      trusted: false,
      navigation_started: seen.navigation,
      dom_changed: seen.mutated,
    };
    // Typing into a secret field is acting, not reading: it is allowed, but what the field holds is not echoed.
    if (redactor.isRedacted(target)) result.redacted = true;
    else result.value = clip(currentValue(target, redactor), ECHO_LIMIT);
    return result;
  } finally {
    watch.stop();
  }
};

/**
 * Why `el` cannot be typed into, or undefined when it can. An element of a kind that never takes text (a paragraph,
 * a checkbox) fails at once; read-only may be lifted by the page, so that one is waited out, like disabled.
 */
function notEditable(el: Element): Unfit | undefined {
  if (el instanceof HTMLSelectElement) return undefined;
  if (el instanceof HTMLTextAreaElement) return el.readOnly ? { reason: 'it is read-only', permanent: false } : undefined;
  if (el instanceof HTMLInputElement) {
    if (!TEXT_TYPES.has(el.type) && !PICKER_TYPES.has(el.type)) return { reason: `it is not editable (an <input type="${el.type}">; use click)`, permanent: true };
    return el.readOnly ? { reason: 'it is read-only', permanent: false } : undefined;
  }
  if (el instanceof HTMLElement && el.isContentEditable) return undefined;
  return { reason: `it is not editable (a <${el.localName}>; type needs an input, textarea, select or contenteditable element)`, permanent: true };
}

/**
 * Fills `el`; returns whether Enter was pressed and the page or the form took it. Runs synchronously. A secret
 * `<select>` (a card type, an expiry month) holds secrets in its options too, so whether `text` names one of them is
 * never reported: the option is chosen when it exists and can be chosen, and the answer is the same either way.
 */
function fill(el: Element, text: string, clear: boolean, submit: boolean, secret: boolean): boolean {
  if (el instanceof HTMLSelectElement) {
    if (secret) chooseQuietly(el, text);
    else choose(el, text);
    return submit ? pressEnter(el) : false;
  }
  focus(el);
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    if (el instanceof HTMLInputElement && PICKER_TYPES.has(el.type)) setWhole(el, text);
    else typeInto(el, el instanceof HTMLInputElement ? text.replace(/[\r\n]+/g, '') : text, clear);
  } else {
    typeEditable(el as HTMLElement, text, clear);
  }
  return submit ? pressEnter(el) : false;
}

function focus(el: Element): void {
  if (document.activeElement !== el) (el as HTMLElement).focus({ preventScroll: true });
}

/** Key by key: keydown, keypress, beforeinput, the edit, input, keyup; a cancelled keydown or beforeinput drops the key. */
function typeInto(el: Field, text: string, clear: boolean): void {
  if (clear && el.value !== '') {
    if (inputEvent(el, 'beforeinput', 'deleteContentBackward', null)) {
      setNativeValue(el, '');
      inputEvent(el, 'input', 'deleteContentBackward', null);
    }
  }
  const start = el.value;
  const max = el.maxLength >= 0 ? el.maxLength : Infinity;
  if (text.length > PER_KEY_LIMIT) {
    const room = Math.max(0, max - el.value.length);
    const chunk = text.slice(0, room);
    if (chunk && inputEvent(el, 'beforeinput', 'insertFromPaste', chunk)) {
      setNativeValue(el, el.value + chunk);
      inputEvent(el, 'input', 'insertFromPaste', chunk);
    }
  } else {
    for (const ch of text) {
      const k = ch === '\n' ? 'Enter' : ch;
      if (key(el, 'keydown', k)) {
        key(el, 'keypress', k);
        const inputType = ch === '\n' ? 'insertLineBreak' : 'insertText';
        // maxlength stops a person's typing too (https://html.spec.whatwg.org/multipage/input.html#attr-input-maxlength).
        if (el.value.length < max && inputEvent(el, 'beforeinput', inputType, ch === '\n' ? null : ch)) {
          setNativeValue(el, el.value + ch);
          inputEvent(el, 'input', inputType, ch === '\n' ? null : ch);
        }
      }
      key(el, 'keyup', k);
    }
  }
  placeCaretAtEnd(el);
  if (el.value !== start || clear) changeEvent(el);
}

/** Date, colour and range inputs: a picker sets the whole value, then input and change fire. */
function setWhole(el: HTMLInputElement, text: string): void {
  setNativeValue(el, text);
  if (el.value !== text) {
    throw orielError('invalid_argument', `"${clip(text, 60)}" is not a valid value for this <input type="${el.type}"> (the browser rejected it).`);
  }
  inputEvent(el, 'input', 'insertReplacementText', text);
  changeEvent(el);
}

function placeCaretAtEnd(el: Field): void {
  try {
    el.setSelectionRange(el.value.length, el.value.length);
  } catch {
    // email and number inputs have no selection API.
  }
}

/**
 * Contenteditable: the browser's own editing commands, which fire beforeinput/input with the right inputType and
 * keep rich editors' models in step. Falls back to editing the text directly where the command is unavailable.
 */
function typeEditable(el: HTMLElement, text: string, clear: boolean): void {
  const sel = window.getSelection();
  const range = document.createRange();
  range.selectNodeContents(el);
  if (!clear) range.collapse(false);
  sel?.removeAllRanges();
  sel?.addRange(range);
  if (clear && el.textContent !== '') {
    if (!document.execCommand('delete')) el.textContent = '';
  }
  const perKey = text.length <= PER_KEY_LIMIT;
  const pieces = perKey ? Array.from(text) : [text];
  for (const piece of pieces) {
    const k = piece === '\n' ? 'Enter' : piece;
    const go = perKey ? key(el, 'keydown', k) : true;
    if (go) {
      if (perKey) key(el, 'keypress', k);
      const ok = piece === '\n' ? document.execCommand('insertParagraph') : document.execCommand('insertText', false, piece);
      if (!ok && inputEvent(el, 'beforeinput', 'insertText', piece)) {
        el.append(piece);
        inputEvent(el, 'input', 'insertText', piece);
      }
    }
    if (perKey) key(el, 'keyup', k);
  }
}

/** Finds the option a person means by `text`: its label, then its value, then its label in any case. */
function findOption(select: HTMLSelectElement, text: string): HTMLOptionElement | undefined {
  const options = Array.from(select.options);
  const wanted = normLabel(text);
  return (
    options.find((o) => normLabel(o.label) === wanted) ??
    options.find((o) => o.value === text) ??
    options.find((o) => normLabel(o.label).toLowerCase() === wanted.toLowerCase())
  );
}

function normLabel(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function optionDisabled(option: HTMLOptionElement): boolean {
  return option.disabled || (option.parentElement instanceof HTMLOptGroupElement && option.parentElement.disabled);
}

/** {@link choose} for a secret select: no error names or counts its options; an option that is not there is not chosen. */
function chooseQuietly(select: HTMLSelectElement, text: string): void {
  focus(select);
  const option = findOption(select, text);
  if (option && !optionDisabled(option)) selectOption(select, option);
}

/**
 * Chooses the option whose label (then value) equals `text`. Disabled options — and options in a disabled
 * optgroup — cannot be chosen by a person, so they are refused.
 */
function choose(select: HTMLSelectElement, text: string): void {
  const options = Array.from(select.options);
  const norm = normLabel;
  const option = findOption(select, text);
  if (!option) {
    const list = options.slice(0, 30).map((o) => `"${clip(norm(o.label), 40)}"`).join(', ');
    throw orielError('invalid_argument', `No option of this select has the label or value "${clip(text, 100)}". Options: ${list}${options.length > 30 ? ', …' : ''}.`, {
      details: { options: options.length },
    });
  }
  if (optionDisabled(option)) {
    throw orielError('not_actionable', `The option "${clip(norm(option.label), 60)}" is disabled and cannot be chosen.`, { details: { reason: 'option disabled' } });
  }
  focus(select);
  selectOption(select, option);
}

/** Makes `option` the selection of `select` and notifies as the browser does; nothing when it already is. */
function selectOption(select: HTMLSelectElement, option: HTMLOptionElement): void {
  if (option.selected && (!select.multiple || select.selectedOptions.length === 1)) return;
  if (select.multiple) for (const o of Array.from(select.options)) o.selected = false;
  option.selected = true;
  // https://html.spec.whatwg.org/multipage/form-elements.html#send-select-update-notifications
  select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  changeEvent(select);
}

/**
 * Enter as a person presses it: keydown/keypress/keyup, and unless the page cancelled the keydown, implicit
 * submission (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#implicit-submission):
 * the form's default button is clicked, or with no such button a form with one text field is submitted.
 * Returns whether something took the Enter: the page (cancelled keydown) or the form (submit fired).
 */
function pressEnter(el: Element): boolean {
  const form = (el as HTMLInputElement).form ?? el.closest('form');
  let submittedForm = false;
  const onSubmit = () => (submittedForm = true);
  form?.addEventListener('submit', onSubmit);
  try {
    const proceed = key(el, 'keydown', 'Enter');
    if (proceed) key(el, 'keypress', 'Enter');
    if (proceed && form && !(el instanceof HTMLTextAreaElement) && !(el instanceof HTMLElement && el.isContentEditable)) {
      const button = defaultButton(form);
      if (button) {
        if (!button.disabled) button.click();
      } else if (blockingFields(form) <= 1) {
        form.requestSubmit();
      }
    }
    key(el, 'keyup', 'Enter');
    return !proceed || submittedForm;
  } finally {
    form?.removeEventListener('submit', onSubmit);
  }
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

function currentValue(el: Element, redactor: Redactor): string {
  if (el instanceof HTMLSelectElement) {
    const o = el.selectedOptions[0];
    return o ? o.label : '';
  }
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value;
  return redactor.text(el, true);
}
