// The `type` page operation: fill an input, textarea, contenteditable or <select> as a person's keyboard would, so
// framework-controlled fields (React, Vue, Angular) hold the value in their own state. With trusted input
// (./trusted.ts) the keys are the browser's own. MCP side: broker/mcp/tools/input.ts.
import type { TypeResult } from '../../../shared/ops.js';
import { orielError } from '../../../shared/errors.js';
import { workMs, type ContentContext, type ContentHandler } from '../handlers.js';
import { nextTask } from './actionability.js';
import { watchEffects } from './effects.js';
import { changeEvent, inputEvent, setNativeValue } from './keyboard.js';
import { editedText, insertIntoEditable, insertText, isEditableContent, isTextField, numberAccepts, placeCaretAtEnd, setEditedText, TEXT_TYPES } from './editing.js';
import { keyTarget, pressChord } from './key-actions.js';
import { charKey, namedKey, type Chord } from './keys.js';
import { chordSteps, dispatchInput, watchKeydowns, type InputOutcome } from './trusted.js';
import type { TrustedStep } from '../../../shared/trusted-input.js';
import { deepActiveElement } from '../snapshot/dom.js';
import { isSecretField, Redactor } from '../redaction.js';
import { whenActionable, type Unfit } from './ready.js';
import { checkTarget, clip } from './target.js';

/** Longer text is inserted in one input event (as a paste would), not key by key. */
const PER_KEY_LIMIT = 256;
/** Values echoed back are capped like snapshot values (docs/snapshot-format.md). */
const ECHO_LIMIT = 200;

/** Input types whose value is set as a whole (a person uses a picker). */
const PICKER_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);


export const type: ContentHandler<'type'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  checkTarget(args, 'the field to type into');
  const watch = watchEffects();
  try {
    let target!: Element;
    const { input, submitted, elsewhere } = await whenActionable(args, ctx, { timeoutMs: workMs(ctx), hitTest: false, extra: notEditable, redactor }, (el) => {
      target = el;
      watch.start();
      return typeInto(ctx, el, args.text, args.clear !== false, args.submit === true, redactor);
    });
    await nextTask();
    const seen = watch.stop();
    const result: TypeResult = {
      handle: ctx.registry.handleFor(target),
      submitted,
      ...input,
      ...(elsewhere > 0 ? { elsewhere } : {}),
      navigation_started: seen.navigation,
      dom_changed: seen.mutated,
    };
    const now = deepActiveElement();
    if (now && now !== target && now !== document.body && !redactor.isRemoved(now)) result.focused = ctx.registry.handleFor(now);
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

const ENTER: Chord = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false, key: charKey('\n'), label: 'Enter' };

/**
 * Fills `el` with trusted keys when the call was offered them (the browser then inserts the text, fires the input
 * events and submits on Enter; `change` follows when the field loses focus, as for a person), else with Oriel's own
 * events ({@link fill}). A select or a picker input takes its value whole, with Oriel's own events either way.
 */
async function typeInto(ctx: ContentContext, el: Element, text: string, clear: boolean, submit: boolean, redactor: Redactor): Promise<{ input: InputOutcome; submitted: boolean; elsewhere: number }> {
  let submitted = false;
  // Characters whose key went to another element than `el` (focus moved while typing).
  let elsewhere = 0;
  if (el instanceof HTMLInputElement && el.type === 'number') checkNumber(el, text, clear);
  const synthetic = () => void ({ submitted, elsewhere } = fill(el, text, clear, submit, redactor));
  if (ctx.input?.trusted && (el instanceof HTMLSelectElement || (el instanceof HTMLInputElement && PICKER_TYPES.has(el.type)))) {
    synthetic();
    return { input: { trusted: false, note: 'a select or picker input takes its value whole, so Oriel set it with its own events' }, submitted, elsewhere };
  }
  if (!ctx.input?.trusted) {
    const input = await dispatchInput(ctx, undefined, synthetic);
    return { input, submitted, elsewhere };
  }
  focus(el);
  const steps: TrustedStep[] = [];
  const press = (chord: Chord) => steps.push(...chordSteps(chord));
  const plain = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
  const field = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el : undefined;
  if (clear) {
    if (field) field.select();
    else placeSelection(el as HTMLElement, true);
    if (field ? field.value !== '' : el.textContent !== '') press({ ...plain, key: namedKey('Backspace')!, label: 'Backspace' });
  } else if (field) placeCaretAtEnd(field);
  else placeSelection(el as HTMLElement, false);
  const typed = el instanceof HTMLInputElement ? text.replace(/[\r\n]+/g, '') : text;
  if (typed.length > PER_KEY_LIMIT) steps.push({ kind: 'text', text: typed });
  // A tab is text, not the Tab key (see typeKeys).
  else {
    for (const ch of typed) {
      if (ch === '\t') steps.push({ kind: 'text', text: ch });
      else press({ ...plain, key: charKey(ch), label: ch });
    }
  }
  const away = countKeysElsewhere(el);
  let input: InputOutcome;
  try {
    input = steps.length > 0 ? await dispatchInput(ctx, steps, synthetic) : { trusted: true };
  } finally {
    // Oriel's own keys, when the browser's were not to be had, counted themselves in fill().
    elsewhere = Math.max(elsewhere, away.stop());
  }
  if (!input.trusted || !submit) return { input, submitted, elsewhere };
  // Enter on its own, so that what took it (a cancelled keydown, a submit event) is Enter's doing.
  const keydowns = watchKeydowns();
  let sent = false;
  const onSubmit = () => (sent = true);
  window.addEventListener('submit', onSubmit, true);
  try {
    const enter = await dispatchInput(ctx, chordSteps(ENTER), () => void (submitted = pressEnter(keyTarget(), redactor)));
    if (enter.trusted) submitted = keydowns.prevented() || sent;
    return { input: enter.trusted ? input : enter, submitted, elsewhere };
  } finally {
    keydowns.stop();
    window.removeEventListener('submit', onSubmit, true);
  }
}

/**
 * Refuses, before any key, a text that would leave a number input with no value: the field ends up holding the
 * typed text only when that is a valid floating-point number
 * (https://html.spec.whatwg.org/multipage/input.html#number-state-(type=number)); else a person's browser shows
 * bad input (or drops the letters) and the value is "". Line breaks are dropped as for any input.
 * @throws OrielError `invalid_argument` naming the text.
 */
function checkNumber(el: HTMLInputElement, text: string, clear: boolean): void {
  const typed = text.replace(/[\r\n]+/g, '');
  const final = (clear ? '' : editedText(el)) + typed;
  if (!numberAccepts(final)) {
    throw orielError('invalid_argument', `"${clip(final, 60)}" is not a valid value for this <input type="number"> (it takes a number such as 12, -3.5 or 1e3).`);
  }
}

/**
 * Fills `el`; returns whether Enter was pressed and the page or the form took it. Runs synchronously. Keys go one at
 * a time to whatever has focus, as a person's do: a field that moves focus on input (one-character code boxes,
 * masks) receives the first keys and the next field the rest. A secret `<select>` (a card type, an expiry month) holds
 * secrets in its options too, so whether `text` names one of them is never reported: the option is chosen when it
 * exists and can be chosen, and the answer is the same either way.
 */
function fill(el: Element, text: string, clear: boolean, submit: boolean, redactor: Redactor): { submitted: boolean; elsewhere: number } {
  if (el instanceof HTMLSelectElement) {
    if (isSecretField(el)) chooseQuietly(el, text);
    else choose(el, text);
    return { submitted: submit ? pressEnter(el, redactor) : false, elsewhere: 0 };
  }
  let elsewhere = 0;
  focus(el);
  const edited = new Set<Element>([el]);
  if (el instanceof HTMLInputElement && PICKER_TYPES.has(el.type)) setWhole(el, text);
  else {
    const start = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : undefined;
    if (clear) clearField(el);
    else if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) placeCaretAtEnd(el);
    else placeSelection(el as HTMLElement, false);
    const typed = el instanceof HTMLInputElement ? text.replace(/[\r\n]+/g, '') : text;
    if (typed.length > PER_KEY_LIMIT) paste(el, typed);
    else elsewhere = typeKeys(el, typed, edited, redactor);
    // A field's edit is committed with `change` (https://html.spec.whatwg.org/multipage/input.html#concept-input-apply).
    for (const f of edited) {
      if (!(f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement)) continue;
      if (f !== el || f.value !== start || clear) changeEvent(f);
    }
  }
  return { submitted: submit ? pressEnter(keyTarget(), redactor) : false, elsewhere };
}

/** Focuses the field; inside a contenteditable region, its editing host (its descendants take no focus themselves). */
function focus(el: Element): void {
  let f = el;
  if (el instanceof HTMLElement && el.isContentEditable) while (f.parentElement?.isContentEditable) f = f.parentElement;
  if (document.activeElement !== f) (f as HTMLElement).focus({ preventScroll: true });
}

/** Empties the field as selecting all and deleting does. */
function clearField(el: Element): void {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    if (editedText(el) !== '' && inputEvent(el, 'beforeinput', 'deleteContentBackward', null)) {
      setEditedText(el, '');
      inputEvent(el, 'input', 'deleteContentBackward', null);
    }
    return;
  }
  placeSelection(el as HTMLElement, true);
  if (el.textContent !== '' && !document.execCommand('delete')) el.textContent = '';
}

/** Selects an editable region's content (all of it, or the caret at its end). */
function placeSelection(el: HTMLElement, all: boolean): void {
  const sel = window.getSelection();
  const range = document.createRange();
  range.selectNodeContents(el);
  if (!all) range.collapse(false);
  sel?.removeAllRanges();
  sel?.addRange(range);
}

/** Long text goes in as one edit, as a paste does. */
function paste(el: Element, text: string): void {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) insertText(el, text, 'insertFromPaste');
  else insertIntoEditable(el as HTMLElement, text);
}

/**
 * Each character as a key press on whatever has focus when it is pressed (key-actions.ts): keydown, keypress, the
 * edit (beforeinput, input), keyup; a cancelled keydown, keypress or beforeinput drops the character. A tab in the
 * text is a character to hold, not the Tab key: it is inserted as one edit (as pasting it would), so the rest of the
 * text stays in the field the caller named; moving focus is press_key's Tab (docs/tools.md, `type`).
 * @returns how many characters went to another element than `el`, because focus had moved on.
 */
function typeKeys(el: Element, text: string, edited: Set<Element>, redactor: Redactor): number {
  let elsewhere = 0;
  for (const ch of text) {
    const target = keyTarget();
    if (!isFieldItself(el, target)) elsewhere++;
    if (ch === '\t') {
      if (isTextField(target)) insertText(target, ch);
      else if (isEditableContent(target)) insertIntoEditable(target, ch);
    } else {
      const key = charKey(ch);
      pressChord({ ctrlKey: false, shiftKey: false, altKey: false, metaKey: false, key, label: key.key }, target, redactor);
    }
    edited.add(target);
  }
  return elsewhere;
}

/** Whether keys sent to `target` reach the field `el`: it is the field, or the editing host around an editable `el`. */
function isFieldItself(el: Element, target: Element): boolean {
  if (target === el) return true;
  return isEditableContent(el) && isEditableContent(target) && target.contains(el);
}

/**
 * Counts, from now until `stop`, the browser's keydowns of typed characters that reach another element than `el`
 * (trusted keys go to whatever has focus, as a person's do). Backspace and Enter are not typed characters.
 */
function countKeysElsewhere(el: Element): { stop(): number } {
  let count = 0;
  const onKeydown = (e: KeyboardEvent) => {
    const target = e.composedPath()[0];
    if (e.key === 'Backspace' || e.key === 'Enter' || !(target instanceof Element)) return;
    if (!isFieldItself(el, target)) count++;
  };
  window.addEventListener('keydown', onKeydown, true);
  return {
    stop() {
      window.removeEventListener('keydown', onKeydown, true);
      return count;
    },
  };
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
 * Enter as a person presses it (key-actions.ts: implicit submission in a field, activation of a button). Returns
 * whether something took the Enter: the page (cancelled keydown) or the form (submit fired).
 */
function pressEnter(el: Element, redactor: Redactor): boolean {
  const form = (el as HTMLInputElement).form ?? el.closest('form');
  let submittedForm = false;
  const onSubmit = () => (submittedForm = true);
  form?.addEventListener('submit', onSubmit);
  try {
    const outcome = pressChord(ENTER, el, redactor);
    return outcome.prevented || submittedForm;
  } finally {
    form?.removeEventListener('submit', onSubmit);
  }
}

function currentValue(el: Element, redactor: Redactor): string {
  if (el instanceof HTMLSelectElement) {
    const o = el.selectedOptions[0];
    return o ? o.label : '';
  }
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return el.value;
  return redactor.text(el, true);
}
