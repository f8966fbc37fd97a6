// The `select_options` page operation: choose several options of a `<select multiple>` or of an ARIA listbox
// (https://www.w3.org/TR/wai-aria-1.2/#listbox), or clear the choice. A native select is set as its picker sets it;
// a listbox is clicked option by option, Ctrl held where it takes several. MCP side: broker/mcp/tools/input.ts.
import type { SelectOptionsResult } from '../../../shared/input-ops.js';
import { orielError } from '../../../shared/errors.js';
import { describeNow } from '../fingerprint.js';
import { workMs, type ContentHandler } from '../handlers.js';
import { isSecretField } from '../redaction.js';
import { checkPointerTarget, nextTask, scrollIntoViewIfNeeded } from './actionability.js';
import { watchEffects } from './effects.js';
import { changeEvent } from './keyboard.js';
import { clickAt } from './pointer.js';
import { whenActionable } from './ready.js';
import { checkTarget, clip } from './target.js';


function norm(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Picks, for each wanted text, the option whose label, then value, then label ignoring case equals it. */
function match<T>(wanted: readonly string[], options: readonly T[], label: (o: T) => string, value: (o: T) => string): T[] {
  return wanted.map((w) => {
    const n = norm(w);
    const found = options.find((o) => label(o) === n) ?? options.find((o) => value(o) === w) ?? options.find((o) => label(o).toLowerCase() === n.toLowerCase());
    if (found === undefined) {
      const list = options.slice(0, 30).map((o) => `"${clip(label(o), 40)}"`).join(', ');
      throw orielError('invalid_argument', `No option has the label or value "${clip(w, 100)}". Options: ${list}${options.length > 30 ? ', …' : ''}.`, { details: { options: options.length } });
    }
    return found;
  });
}

export const selectOptions: ContentHandler<'select_options'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  checkTarget(args, 'the list to choose in');
  const watch = watchEffects();
  try {
    let list!: Element;
    let selected: string[] = [];
    const extra = (el: Element) =>
      el instanceof HTMLSelectElement || el.getAttribute('role') === 'listbox' ? undefined : { reason: `it is not a list of options (a <${el.localName}>; select_options needs a <select> or a listbox)`, permanent: true };
    await whenActionable(args, ctx, { timeoutMs: workMs(ctx), hitTest: false, extra, redactor }, (el) => {
      list = el;
      // Which options a secret list has, and which are chosen, are secrets: an answer that depended on them would tell.
      if (isSecretField(el)) throw orielError('invalid_argument', 'This list is a secret field (a card or password field): choose with type, which never reports what it holds.', { next: 'type' });
      watch.start();
      selected = el instanceof HTMLSelectElement ? chooseNative(el, args.options, args.add === true) : chooseInListbox(el, args.options, args.add === true);
    });
    await nextTask();
    const seen = watch.stop();
    // A secret select's choice is not echoed (docs/architecture.md, "Redaction").
    const echo = redactor.isRedacted(list) ? [] : selected;
    const result: SelectOptionsResult = { handle: ctx.registry.handleFor(list), selected: echo, trusted: false, dom_changed: seen.mutated };
    return result;
  } finally {
    watch.stop();
  }
};

/** Sets a native select's options as its picker does, then fires input and change once if the choice changed. */
function chooseNative(select: HTMLSelectElement, wanted: readonly string[], add: boolean): string[] {
  const options = Array.from(select.options);
  const picked = new Set(match(wanted, options, (o) => norm(o.label), (o) => o.value));
  if (!select.multiple && (picked.size > 1 || (picked.size === 0 && !add))) {
    throw orielError('invalid_argument', 'This select takes one option and cannot be left empty: use type with the option\'s label to choose it.', { next: 'type' });
  }
  for (const o of picked) {
    if (o.disabled || (o.parentElement instanceof HTMLOptGroupElement && o.parentElement.disabled)) {
      throw orielError('not_actionable', `The option "${clip(norm(o.label), 60)}" is disabled and cannot be chosen.`, { details: { reason: 'option disabled' } });
    }
  }
  if (document.activeElement !== select) select.focus({ preventScroll: true });
  let changed = false;
  for (const o of options) {
    const want = picked.has(o) || (add && o.selected);
    if (o.selected !== want) {
      o.selected = want;
      changed = true;
    }
  }
  if (changed) {
    // https://html.spec.whatwg.org/multipage/form-elements.html#send-select-update-notifications
    select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    changeEvent(select);
  }
  return Array.from(select.selectedOptions, (o) => norm(o.label));
}

function isSelected(option: Element): boolean {
  return option.getAttribute('aria-selected') === 'true';
}

/**
 * Clicks options of an ARIA listbox until the wanted ones are selected: a plain click for the first when the choice is
 * replaced, Ctrl+click for the others in a multi-select listbox. The page decides what a click does, so the result is
 * read back, and a listbox that did not take the choice is reported, never claimed.
 */
function chooseInListbox(listbox: Element, wanted: readonly string[], add: boolean): string[] {
  const options = Array.from(listbox.querySelectorAll('[role="option"]'));
  const name = (o: Element) => norm(describeNow(o).name || (o.textContent ?? ''));
  const picked = match(wanted, options, name, (o) => o.getAttribute('data-value') ?? o.id);
  const multi = listbox.getAttribute('aria-multiselectable') === 'true';
  if (!multi && (picked.length > 1 || (picked.length === 0 && !add))) {
    throw orielError('invalid_argument', 'This listbox takes one option: use click on the option you want.', { next: 'click' });
  }
  for (const o of picked) {
    if (o.getAttribute('aria-disabled') === 'true') throw orielError('not_actionable', `The option "${clip(name(o), 60)}" is disabled.`, { details: { reason: 'option disabled' } });
  }
  const want = new Set(picked);
  const press = (o: Element, ctrl: boolean) => {
    scrollIntoViewIfNeeded(o);
    const at = checkPointerTarget(o, { requireEnabled: false });
    if (at.status !== 'ok') throw orielError('not_actionable', `The option "${clip(name(o), 60)}" cannot be clicked: ${at.reason}.`, { details: { reason: at.reason } });
    clickAt(at.hit, at.x, at.y, ctrl ? { ctrlKey: true } : {});
  };
  let first = !add;
  if (!add && multi) {
    // Deselect what is not wanted; when nothing is wanted that is the whole job.
    for (const o of options) if (isSelected(o) && !want.has(o)) press(o, true);
    first = false;
  }
  for (const o of picked) {
    if (isSelected(o) && !first) continue;
    press(o, multi && !first);
    first = false;
  }
  const now = options.filter(isSelected);
  const missing = picked.filter((o) => !isSelected(o));
  const extra = add ? [] : now.filter((o) => !want.has(o));
  if (missing.length > 0 || extra.length > 0) {
    throw orielError('not_actionable', `The listbox did not take the choice: it shows ${now.length ? now.map((o) => `"${clip(name(o), 40)}"`).join(', ') : 'nothing'} selected.`, {
      details: { reason: 'listbox did not take the choice' },
    });
  }
  return now.map(name);
}
