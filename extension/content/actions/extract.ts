// The `extract` page operation: one value from one element — its text, form value, an attribute or a live DOM
// property — bounded, refused on redacted elements, and with redacted parts left out of an ancestor's text and markup.
// MCP side: broker/mcp/tools/read.ts.
import type { ExtractResult } from '../../../shared/ops.js';
import { orielError } from '../../../shared/errors.js';
import type { ContentContext, ContentHandler } from '../handlers.js';
import { Redactor } from '../redaction.js';
import { ambiguousSelector, checkTarget, clip, lookupSelector, noMatch, requireHandle, type TargetSpec } from './target.js';

const DEFAULT_MAX_CHARS = 10_000;

/** Properties that serialise the element's subtree as markup: answered from a redacted copy. */
const MARKUP_PROPERTIES = new Set(['innerHTML', 'outerHTML']);
/**
 * Properties that return the subtree's text: `innerText`/`outerText` as rendered; `textContent` and `text` (the
 * `textContent` of links, options, titles and scripts) as in the DOM.
 */
const TEXT_PROPERTIES: Record<string, boolean> = { innerText: true, outerText: true, textContent: false, text: false };

export const extract: ContentHandler<'extract'> = (args, ctx) => {
  const redactor = ctx.redactor();
  checkTarget(args, 'the element to read');
  const what = args.what ?? 'text';
  if ((what === 'attribute' || what === 'property') && args.name === undefined) {
    throw orielError('invalid_argument', `extract with what="${what}" needs "name" (e.g. "href").`);
  }
  const max = args.max_chars ?? DEFAULT_MAX_CHARS;
  const el = resolveForRead(args, ctx, redactor);
  refuseRedacted(el, redactor);
  const value = read(el, what, args.name, ctx, redactor);
  const result: ExtractResult = { handle: ctx.registry.handleFor(el), value, truncated: false };
  if (typeof value === 'string' && value.length > max) {
    result.value = value.slice(0, max);
    result.truncated = true;
  } else if (typeof value === 'object' && value !== null && JSON.stringify(value).length > max) {
    throw orielError('too_large', `The property's value is larger than ${max} characters as JSON. Raise max_chars or read a narrower property.`);
  }
  return result;
};

/** `permission_denied` for an element that is redacted: removed by the user's selectors, or a secret field. */
export function refuseRedacted(el: Element, redactor: Redactor): void {
  if (!redactor.isRedacted(el)) return;
  throw orielError('permission_denied', 'This element is redacted (a password, one-time code or payment card field, or a part of the page the user hid from agents); Oriel does not read it.', {
    next: 'read another element; redacted parts stay hidden',
  });
}

/** Resolves a read target now (no waiting): handle errors as usual; a selector must match exactly one element. */
export function resolveForRead(spec: TargetSpec, ctx: ContentContext, redactor: Redactor): Element {
  if (spec.handle !== undefined) return requireHandle(spec.handle, ctx);
  const r = lookupSelector(spec.selector!, redactor);
  if (r.status === 'many') throw ambiguousSelector(spec.selector!, r.count);
  if (r.status === 'none') {
    throw orielError('not_actionable', `${noMatch(spec.selector!).replace(/^n/, 'N')}. If it is still coming, use wait_for first.`, {
      details: { reason: 'no match', matches: 0 },
      next: 'wait_for, or snapshot',
    });
  }
  return r.element;
}

function read(el: Element, what: 'text' | 'value' | 'attribute' | 'property', name: string | undefined, ctx: ContentContext, redactor: Redactor): unknown {
  switch (what) {
    case 'text':
      return visibleText(el, redactor);
    case 'value':
      if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
      if (el instanceof HTMLSelectElement && el.multiple) return Array.from(el.selectedOptions, (o) => o.value);
      if (el.localName === 'output') return redactor.text(el, false);
      if ('value' in el && typeof (el as HTMLInputElement).value === 'string') return (el as HTMLInputElement).value;
      if (el instanceof HTMLElement && el.isContentEditable) return redactor.text(el, true);
      throw orielError('invalid_argument', `A <${el.localName}> has no form value; use what="text" or what="attribute".`);
    case 'attribute': {
      const v = el.getAttribute(name!);
      return v === null ? null : redactor.scrubUrl(v);
    }
    case 'property':
      return readProperty(el, name!, ctx, redactor);
  }
}

/**
 * The text as rendered (innerText follows CSS: hidden parts drop out, blocks become lines), trimmed, with redacted
 * parts left out.
 */
export function visibleText(el: Element, redactor: Redactor): string {
  const t = redactor.text(el, true);
  return t.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * A live DOM property (`checked`, `validity`, `scrollTop`, `dataset`…) as JSON. Content scripts see the DOM's own
 * properties, not those a page script added (use evaluate for those). Elements become their handles.
 */
function readProperty(el: Element, name: string, ctx: ContentContext, redactor: Redactor): unknown {
  if (!(name in el)) throw orielError('invalid_argument', `A <${el.localName}> has no DOM property "${clip(name, 60)}". For page-script state use evaluate.`);
  // Object.prototype's own names (`__proto__`, `constructor`, `hasOwnProperty`…) are JavaScript's, not the DOM's; a
  // prototype object holds the interface's attribute getters, and reading them off it throws "Illegal invocation"
  // (https://webidl.spec.whatwg.org/#dfn-attribute-getter: the getter checks that `this` implements the interface).
  if (name in Object.prototype && name !== 'constructor') {
    throw orielError('invalid_argument', `"${clip(name, 60)}" is a JavaScript object internal, not a DOM property of the element; use evaluate for it.`);
  }
  const v = (el as unknown as Record<string, unknown>)[name];
  if (typeof v === 'object' && v !== null && Object.prototype.isPrototypeOf.call(v, el)) {
    throw orielError('invalid_argument', `"${clip(name, 60)}" is a prototype of the element, not a value; use evaluate for it.`);
  }
  if (typeof v === 'function') throw orielError('invalid_argument', `"${clip(name, 60)}" is a method, not a value; use evaluate to call it.`);
  if (typeof v === 'string' && MARKUP_PROPERTIES.has(name)) return redactor.markup(el, name === 'outerHTML');
  if (typeof v === 'string' && name in TEXT_PROPERTIES) return redactor.text(el, TEXT_PROPERTIES[name]!);
  // An <output>'s value is its text content (https://html.spec.whatwg.org/multipage/form-elements.html#dom-output-value).
  if (typeof v === 'string' && el.localName === 'output' && (name === 'value' || name === 'defaultValue')) return redactor.text(el, false);
  return toJson(v, ctx, 0, redactor);
}

/**
 * A property value as JSON. Elements become handles (or `{redacted: true}` when redaction hides them); other nodes
 * (text, documents, shadow roots, fragments) are not walked, since their text and markup would bypass redaction;
 * strings (`href`, `baseURI`, `action` …) lose the values of secret query parameters.
 */
function toJson(v: unknown, ctx: ContentContext, depth: number, redactor: Redactor): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return redactor.scrubUrl(v);
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'object') return null;
  if (v instanceof Element) return redactor.isHidden(v) ? { redacted: true } : { handle: ctx.registry.handleFor(v) };
  if (v instanceof Node) return { node: v.nodeName };
  if (depth >= 3) return '[…]';
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return toJson((v as { toJSON(): unknown }).toJSON(), ctx, depth + 1, redactor);
  if (Array.isArray(v) || (typeof (v as { length?: unknown }).length === 'number' && Symbol.iterator in v)) {
    return Array.from(v as Iterable<unknown>)
      .slice(0, 200)
      .map((x) => toJson(x, ctx, depth + 1, redactor));
  }
  const out: Record<string, unknown> = {};
  let n = 0;
  // Interface attributes live on prototypes (ValidityState, CSSStyleDeclaration): walk `for…in`, not own keys.
  for (const k in v) {
    if (n++ >= 200) break;
    const x = (v as Record<string, unknown>)[k];
    if (typeof x !== 'function') out[k] = toJson(x, ctx, depth + 1, redactor);
  }
  return out;
}
