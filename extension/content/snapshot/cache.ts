// Per-snapshot caches of computed style, shadow roots, role and accessible name. Created for one walk and dropped
// after it (the walker releases them in `finally`), so nothing stale survives into the next snapshot or action.
import { computeAccessibleName, getRole } from 'dom-accessibility-api';
import { shadowRootOf } from './dom.js';
import { FastNames, joinsInline } from './names.js';
import { internalsOf } from '../internals.js';

export class WalkCache {
  private readonly styles = new Map<Element, CSSStyleDeclaration>();
  private readonly shadows = new Map<Element, ShadowRoot | null>();
  private readonly names = new Map<Element, string>();
  private fast: FastNames | undefined;

  /** `getComputedStyle` through the cache; also handed to dom-accessibility-api so it shares the cache. */
  readonly style = (el: Element, pseudo?: string | null): CSSStyleDeclaration => {
    if (pseudo) return getComputedStyle(el, pseudo);
    let s = this.styles.get(el);
    if (s === undefined) this.styles.set(el, (s = getComputedStyle(el)));
    return s;
  };

  /**
   * The style the name computation reads (only through `getPropertyValue`): an inline-level box (`inline-block`,
   * `inline-flex` …) reads as `inline`, so text split into one such box per letter joins into its word, as browsers
   * expose it (./names.ts {@link joinsInline}), instead of the library's letters separated by spaces.
   */
  private readonly nameStyle = (el: Element, pseudo?: string | null): Pick<CSSStyleDeclaration, 'getPropertyValue'> => {
    const s = this.style(el, pseudo);
    return { getPropertyValue: (p: string) => (p === 'display' && joinsInline(s.display) ? 'inline' : s.getPropertyValue(p)) };
  };

  /** The shadow root of `el`, open or closed (asked of the browser once per element and walk). */
  readonly shadow = (el: Element): ShadowRoot | null => {
    let r = this.shadows.get(el);
    if (r === undefined) this.shadows.set(el, (r = shadowRootOf(el)));
    return r;
  };

  /** ARIA role per https://www.w3.org/TR/html-aam-1.0/ (dom-accessibility-api), with the gaps it leaves filled. */
  role(el: Element): string | null {
    return computeRole(el);
  }

  /**
   * Accessible name per https://www.w3.org/TR/accname-1.2/ (dom-accessibility-api, or the same steps in names.ts).
   * `rendered`: the walker has seen that `el` is neither `display: none` nor `visibility: hidden`. `role`: the role
   * the walker computed, when it knows one the library cannot (a custom element's internals).
   * A text field that nothing else names is named by its `placeholder`, after `title`
   * (https://www.w3.org/TR/html-aam-1.0/#input-type-text-input-type-password-input-type-number-input-type-search-input-type-tel-input-type-email-input-type-url-and-textarea-element-accessible-name-computation).
   */
  name(el: Element, rendered = false, role?: string): string {
    let n = this.names.get(el);
    if (n === undefined) {
      n = this.fastNames().name(el, rendered, role);
      if (n === undefined) n = this.libraryName(el);
      if (n.trim() === '') n = placeholderName(el) ?? n;
      this.names.set(el, n);
    }
    return n;
  }

  /**
   * The labels of a labelable element (what `el.labels` answers), from one pass per tree scope and walk; `[]` for an
   * element without `labels`. The native getter searches the whole tree scope the first time it is read for each
   * element, which over a page of controls makes a walk quadratic.
   */
  labels(el: Element): readonly HTMLLabelElement[] {
    return 'labels' in el ? this.fastNames().labelsOf(el) : [];
  }

  private fastNames(): FastNames {
    return (this.fast ??= new FastNames(this));
  }

  /**
   * dom-accessibility-api's name. The library reads `el.labels` of every labelable element it names (an icon
   * button, an `<input type=submit>`, a control with a complex label), so for the duration of the call `el` answers
   * `labels` from {@link labels} through an own property: same list, without the native per-element search.
   * The property lives on the content script's own view of the element (Chromium's isolated world, Firefox's
   * Xray wrapper), so the page never sees it, and it is removed before returning.
   */
  private libraryName(el: Element): string {
    const compute = () => computeAccessibleName(el, { getComputedStyle: this.nameStyle as typeof getComputedStyle, computedStyleSupportsPseudoElements: true });
    // A hidden input's `labels` is null (it is not labelable), which the library treats apart: left as it is.
    if (!('labels' in el) || Object.hasOwn(el, 'labels') || (el.localName === 'input' && (el as HTMLInputElement).type === 'hidden')) return compute();
    Object.defineProperty(el, 'labels', { value: this.labels(el), configurable: true });
    try {
      return compute();
    } finally {
      delete (el as { labels?: unknown }).labels;
    }
  }

  clear(): void {
    this.styles.clear();
    this.shadows.clear();
    this.names.clear();
    this.fast = undefined;
  }
}

/** Input types dom-accessibility-api maps to no role, with the role browsers expose for them. */
const INPUT_ROLES: Record<string, string> = {
  password: 'textbox',
  date: 'textbox',
  'datetime-local': 'textbox',
  month: 'textbox',
  week: 'textbox',
  time: 'textbox',
  color: 'button',
  file: 'button',
};

const VALID_ROLE = /^[a-z]+$/;

/**
 * Tags that have an implicit role in dom-accessibility-api's getRole (its tag map and the tags it decides by attributes);
 * every other element without a `role` attribute has none, which is answered without calling the library.
 */
const TAGS_WITH_ROLE = new Set([
  'article', 'aside', 'button', 'datalist', 'dd', 'details', 'dialog', 'dt', 'fieldset', 'figure', 'form', 'footer', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'html', 'legend', 'li', 'math', 'main', 'menu', 'nav', 'ol', 'optgroup', 'option',
  'output', 'progress', 'section', 'summary', 'table', 'tbody', 'textarea', 'tfoot', 'td', 'th', 'thead', 'tr', 'ul',
  'a', 'area', 'link', 'img', 'input', 'select',
]);

/** Text-field inputs named by `placeholder` when nothing else names them. */
const PLACEHOLDER_TYPES = new Set(['text', 'password', 'number', 'search', 'tel', 'email', 'url']);

function placeholderName(el: Element): string | undefined {
  const tag = el.localName;
  if (tag !== 'textarea' && !(tag === 'input' && PLACEHOLDER_TYPES.has((el as HTMLInputElement).type))) return undefined;
  const p = el.getAttribute('placeholder');
  return p && p.trim() ? p : undefined;
}

export function computeRole(el: Element): string | null {
  const tag = el.localName;
  if (!TAGS_WITH_ROLE.has(tag) && !el.hasAttribute('role')) {
    // A custom element may take its role from its internals (https://html.spec.whatwg.org/multipage/custom-elements.html#the-elementinternals-interface).
    if (!tag.includes('-')) return null;
    const role = internalsOf(el)?.role?.trim().split(/\s+/)[0];
    return role && VALID_ROLE.test(role) ? role : null;
  }
  if (tag === 'input') {
    const type = (el as HTMLInputElement).type;
    if (type === 'hidden') return null;
    const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0];
    if (!explicit && INPUT_ROLES[type]) return INPUT_ROLES[type]!;
    if (!explicit && !['button', 'image', 'reset', 'submit', 'checkbox', 'radio', 'range', 'number', 'search'].includes(type)) {
      return el.hasAttribute('list') ? 'combobox' : 'textbox';
    }
  }
  // https://www.w3.org/TR/html-aam-1.0/#el-th — a th scoped to its row is a row header.
  if (tag === 'th' && !el.hasAttribute('role') && el.getAttribute('scope') === 'row') return 'rowheader';
  const role = getRole(el);
  if (role === null || !VALID_ROLE.test(role)) return null;
  return role;
}
