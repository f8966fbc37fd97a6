// Finding the element an action addresses: a handle from this document's registry, or a CSS selector that must
// match exactly one element. Used by every handler in this folder; the registry itself is ../registry.ts.
// Elements the user's redaction selectors remove never match a selector (../redaction.ts).
import { orielError } from '../../../shared/errors.js';
import { namespaceOf } from '../document.js';
import type { ContentContext } from '../handlers.js';
import type { Redactor } from '../redaction.js';

/** How an action names its element. Exactly one of the two is set (checked by {@link checkTarget}). */
export interface TargetSpec {
  handle?: string | undefined;
  selector?: string | undefined;
}

/** Outcome of looking for a selector target right now. */
export type SelectorLookup = { status: 'ok'; element: Element } | { status: 'none' } | { status: 'many'; count: number };

/** Throws `invalid_argument` unless exactly one of handle / selector is given. */
export function checkTarget(spec: TargetSpec, what = 'the element'): void {
  const n = (spec.handle !== undefined ? 1 : 0) + (spec.selector !== undefined ? 1 : 0);
  if (n !== 1) throw orielError('invalid_argument', `Name ${what} with exactly one of "handle" (from a snapshot) or "selector".`);
}

/**
 * Resolves a handle synchronously. A handle minted by another document (another namespace) is `unknown_handle`
 * even before this document has issued any, since the agent needs a snapshot of *this* page either way.
 */
export function requireHandle(handle: string, ctx: ContentContext): Element {
  if (namespaceOf(handle) !== ctx.registry.namespace) {
    throw orielError(
      'unknown_handle',
      `Handle ${handle} was not issued by the document now in this frame (it is from a previous page, another tab, or made up). Take a new snapshot.`,
    );
  }
  return ctx.registry.require(handle);
}

/**
 * Every element `selector` matches under `scope` (the document by default; shadow roots are not searched: CSS cannot
 * cross them), as if redacted content were absent: see {@link Redactor.select}.
 */
export function selectAll(selector: string, redactor: Redactor, scope: ParentNode = document): Element[] {
  return redactor.select(selector, scope);
}

/** Runs `selector` against the document: exactly one match, none, or several. */
export function lookupSelector(selector: string, redactor: Redactor): SelectorLookup {
  const found = selectAll(selector, redactor);
  if (found.length === 1) return { status: 'ok', element: found[0]! };
  if (found.length === 0) return { status: 'none' };
  return { status: 'many', count: found.length };
}

/** The error for a selector that matches several elements: the agent must narrow it. */
export function ambiguousSelector(selector: string, count: number) {
  return orielError(
    'invalid_argument',
    `Selector "${clip(selector, 200)}" matches ${count} elements; it must match exactly one. Use a handle from a snapshot or a more specific selector.`,
    { details: { matches: count } },
  );
}

/**
 * Resolves the target once, synchronously. Handle failures throw at once (they will not heal by waiting), and so
 * does a handle to an element the user's redaction removes;
 * a selector that matches nothing yet returns undefined so the caller can wait for it to appear.
 */
export function resolveNow(spec: TargetSpec, ctx: ContentContext, redactor: Redactor): Element | undefined {
  if (spec.handle !== undefined) {
    const el = requireHandle(spec.handle, ctx);
    if (redactor.isHidden(el)) throw orielError('permission_denied', `Element ${spec.handle} is in a redacted part of the page.`);
    return el;
  }
  const r = lookupSelector(spec.selector!, redactor);
  if (r.status === 'many') throw ambiguousSelector(spec.selector!, r.count);
  return r.status === 'ok' ? r.element : undefined;
}

/**
 * A short, human description of an element for error messages: `div#overlay.banner "Cookie banner"`. An element the
 * user's selectors remove is only "a redacted element"; one holding redacted parts is described without its text.
 */
export function describeElement(el: Element, redactor?: Redactor): string {
  if (redactor?.isHidden(el)) return 'a redacted element';
  let s = el.localName;
  if (el.id) s += `#${clip(el.id, 40)}`;
  const classes = Array.from(el.classList).slice(0, 2);
  for (const c of classes) s += `.${clip(c, 30)}`;
  if (redactor && (redactor.isRedacted(el) || redactor.hasRedactedInside(el))) return s;
  const label = el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? el.textContent ?? '';
  const text = label.replace(/\s+/g, ' ').trim();
  if (text) s += ` "${clip(text, 60)}"`;
  return s;
}

/**
 * Why a selector found nothing, for error messages: selectors (except wait_for's) search the top document only, so an
 * element inside a frame is reached by its handle from a snapshot (docs/architecture.md, "Input").
 */
export function noMatch(selector: string): string {
  return `no element matches the selector "${clip(selector, 200)}" (no match in the top document; selectors do not cross frames — snapshot and use a handle)`;
}

/** Cuts `s` to `n` characters, marking the cut. */
export function clip(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}
