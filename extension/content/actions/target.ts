// Finding the element an action addresses: a handle from this document's registry, or a CSS selector that must
// match exactly one element. Used by every handler in this folder; the registry itself is ../registry.ts.
import { orielError } from '../../../shared/errors.js';
import { namespaceOf } from '../document.js';
import type { ContentContext } from '../handlers.js';

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

/** Runs `selector` against the document (and open shadow roots are not searched: CSS cannot cross them). */
export function lookupSelector(selector: string): SelectorLookup {
  let found: NodeListOf<Element>;
  try {
    found = document.querySelectorAll(selector);
  } catch {
    throw orielError('invalid_argument', `"${clip(selector, 200)}" is not a valid CSS selector. Prefer a handle from a snapshot.`);
  }
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
 * Resolves the target once, synchronously. Handle failures throw at once (they will not heal by waiting);
 * a selector that matches nothing yet returns undefined so the caller can wait for it to appear.
 */
export function resolveNow(spec: TargetSpec, ctx: ContentContext): Element | undefined {
  if (spec.handle !== undefined) return requireHandle(spec.handle, ctx);
  const r = lookupSelector(spec.selector!);
  if (r.status === 'many') throw ambiguousSelector(spec.selector!, r.count);
  return r.status === 'ok' ? r.element : undefined;
}

/** A short, human description of an element for error messages: `div#overlay.banner "Cookie banner"`. */
export function describeElement(el: Element): string {
  let s = el.localName;
  if (el.id) s += `#${clip(el.id, 40)}`;
  const classes = Array.from(el.classList).slice(0, 2);
  for (const c of classes) s += `.${clip(c, 30)}`;
  const label = el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? el.textContent ?? '';
  const text = label.replace(/\s+/g, ' ').trim();
  if (text) s += ` "${clip(text, 60)}"`;
  return s;
}

/** Cuts `s` to `n` characters, marking the cut. */
export function clip(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}
