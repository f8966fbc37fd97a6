// Values, states, descriptions and link targets of one element. Which fields are secret is decided in ../redaction.ts.
import { computeAccessibleDescription } from 'dom-accessibility-api';
import { cap, collapseWhitespace } from '../../../shared/snapshot/index.js';
import { internalsOf, type Internals } from '../internals.js';

const NO_VALUE_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden', 'color']);

/** The value a person sees in a form control, capped to `limit` characters with a marker. */
export function controlValue(el: Element, role: string, limit: number): string | undefined {
  const tag = el.localName;
  let v: string | undefined;
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    if (NO_VALUE_INPUTS.has(input.type)) return undefined;
    v = input.value;
  } else if (tag === 'textarea') v = (el as HTMLTextAreaElement).value;
  else if (tag === 'select') {
    const s = el as HTMLSelectElement;
    if (s.multiple || s.size > 1) return undefined; // the selected options are marked instead
    v = collapseWhitespace(s.selectedOptions[0]?.label ?? '');
  } else if (role === 'textbox' && el instanceof HTMLElement && el.isContentEditable) {
    v = collapseWhitespace(el.innerText);
  } else if (tag === 'progress' || tag === 'meter') {
    v = String((el as HTMLProgressElement).value);
  } else if (['slider', 'spinbutton', 'progressbar', 'scrollbar', 'meter'].includes(role)) {
    v = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow') ?? undefined;
  } else if (role === 'textbox' || role === 'searchbox' || role === 'combobox') {
    // Custom textboxes (role=textbox on a div) show their text.
    v = collapseWhitespace((el as HTMLElement).innerText ?? el.textContent ?? '');
  }
  return v === undefined ? undefined : cap(v, limit);
}

const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/**
 * States and properties shown in brackets (docs/snapshot-format.md, "Lines"): checked, disabled, expanded, selected, pressed, required, …
 * For a `secret` field the states that follow from what it holds (checked, the browser's own validity) are left out.
 */
export function controlStates(el: Element, role: string, focused: Element | null, secret = false): string[] {
  const s: string[] = [];
  // A custom element's internals give defaults that its own attributes override (https://w3c.github.io/aria/#ARIAMixin).
  let internals: Internals | undefined | null = null;
  const fromInternals: Record<string, keyof Internals> = {
    'aria-checked': 'ariaChecked', 'aria-disabled': 'ariaDisabled', 'aria-selected': 'ariaSelected', 'aria-expanded': 'ariaExpanded',
    'aria-pressed': 'ariaPressed', 'aria-level': 'ariaLevel', 'aria-required': 'ariaRequired', 'aria-invalid': 'ariaInvalid',
    'aria-readonly': 'ariaReadOnly', 'aria-current': 'ariaCurrent', 'aria-modal': 'ariaModal',
  };
  const attr = (name: string): string | null => {
    const v = el.getAttribute(name);
    if (v !== null || !el.localName.includes('-') || !fromInternals[name]) return v;
    if (internals === null) internals = internalsOf(el);
    return internals?.[fromInternals[name]!] ?? null;
  };
  if (CHECKABLE.has(role) && !secret) {
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
      if (el.indeterminate) s.push('checked=mixed');
      else if (el.checked) s.push('checked');
    } else if (attr('aria-checked') === 'true') s.push('checked');
    else if (attr('aria-checked') === 'mixed') s.push('checked=mixed');
  }
  if (attr('aria-disabled') === 'true' || (isFormControl(el) && el.matches(':disabled'))) s.push('disabled');
  const expanded = attr('aria-expanded');
  if (el.localName === 'summary' && el.parentElement?.localName === 'details') s.push((el.parentElement as HTMLDetailsElement).open ? 'expanded' : 'collapsed');
  else if (expanded === 'true') s.push('expanded');
  else if (expanded === 'false') s.push('collapsed');
  if (attr('aria-selected') === 'true') s.push('selected');
  const pressed = attr('aria-pressed');
  if (pressed === 'true') s.push('pressed');
  else if (pressed === 'mixed') s.push('pressed=mixed');
  else if (pressed === 'false') s.push('pressed=false');
  if ((el as HTMLInputElement).required === true || attr('aria-required') === 'true') s.push('required');
  const invalid = attr('aria-invalid');
  if ((invalid !== null && invalid !== 'false') || (!secret && isFormControl(el) && el.localName !== 'fieldset' && matchesSafe(el, ':user-invalid'))) s.push('invalid');
  if ((el as HTMLInputElement).readOnly === true && (el.localName === 'input' || el.localName === 'textarea')) s.push('readonly');
  else if (attr('aria-readonly') === 'true') s.push('readonly');
  if (role === 'heading' || role === 'treeitem' || role === 'row') {
    const level = attr('aria-level') ?? (/^h[1-6]$/.test(el.localName) ? el.localName[1] : null);
    if (level) s.push(`level=${level}`);
  }
  if (el.localName === 'select' && (el as HTMLSelectElement).multiple) s.push('multiselectable');
  if (el.localName === 'input') {
    const type = (el as HTMLInputElement).type;
    if (['date', 'datetime-local', 'month', 'week', 'time', 'color', 'file', 'email', 'tel', 'url', 'number', 'password', 'range'].includes(type)) s.push(`type=${type}`);
  }
  const current = attr('aria-current');
  if (current !== null && current !== 'false') s.push(current === 'true' ? 'current' : `current=${current.replace(/[^a-z]/gi, '')}`);
  if ((el.localName === 'dialog' && matchesSafe(el, ':modal')) || ((role === 'dialog' || role === 'alertdialog') && attr('aria-modal') === 'true')) s.push('modal');
  if (focused === el) s.push('focused');
  return s;
}

/** Longest description shown. */
const DESCRIPTION_LIMIT = 100;

/**
 * The accessible description an author gave a control (`aria-describedby`, `aria-description`;
 * https://www.w3.org/TR/accname-1.2/#mapping_additional_nd_description), capped, when it says more than the name:
 * it tells apart controls with the same name ("Share" that previews, "Share" that sends). Titles are not read here.
 */
export function description(el: Element, name: string | undefined): string | undefined {
  if (!el.hasAttribute('aria-describedby') && !el.hasAttribute('aria-description')) return undefined;
  let d: string;
  try {
    d = collapseWhitespace(computeAccessibleDescription(el));
  } catch {
    return undefined;
  }
  if (!d || d === name) return undefined;
  return cap(d, DESCRIPTION_LIMIT);
}

function isFormControl(el: Element): boolean {
  return ['input', 'button', 'select', 'textarea', 'fieldset', 'optgroup', 'option'].includes(el.localName);
}

function matchesSafe(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    return false;
  }
}

/** `location.origin` + '/', read once: a document's origin does not change while the content script runs in it. */
let originPrefix: string | undefined;

/** Where a link goes: a path for same-origin links, the absolute URL otherwise; capped. */
export function linkUrl(el: Element): string | undefined {
  if ((el.localName !== 'a' && el.localName !== 'area') || !el.hasAttribute('href')) return undefined;
  const link = el as HTMLAnchorElement;
  let href = link.href;
  // Credentials in a link are never shown (docs/snapshot-format.md, "Lines": url).
  if (link.username || link.password) href = href.replace(`${link.username}${link.password ? ':' + link.password : ''}@`, '');
  // Same-origin links as a path (the header line carries the origin).
  const origin = (originPrefix ??= location.origin + '/');
  const out = origin !== 'null/' && href.startsWith(origin) ? href.slice(origin.length - 1) : href;
  // One token, and never one that reads like a handle: spaces and "@" are percent-encoded (the same URL).
  return cap(out.replace(/\s/g, '%20').replace(/@/g, '%40'), 300);
}
