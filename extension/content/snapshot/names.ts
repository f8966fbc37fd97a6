// Accessible names on the common path, without dom-accessibility-api's per-call setup (its own style cache, consulted
// set, label searches and a pseudo-element style per element). It follows the same steps as the library's
// computeTextAlternative (https://www.w3.org/TR/accname-1.2/#mapping_additional_nd_te) for the cases it knows — names
// from aria-label, from content made of text and plain elements, from <label> elements, from title — and answers
// `undefined` for everything else (aria-labelledby, aria-owns, embedded controls, images, tables, fieldsets, slots …),
// so the caller asks the library. The result is always the library's result.
import { getRole } from 'dom-accessibility-api';
import { scanScope, type PseudoScope } from './pseudo.js';
import { internalsOf } from '../internals.js';
import { mutationCount } from './changes.js';

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** Roles whose name the library never computes (its `prohibitsNaming`, https://www.w3.org/TR/wai-aria-1.2/#namefromprohibited). */
const PROHIBITED = new Set(['caption', 'code', 'deletion', 'emphasis', 'generic', 'insertion', 'none', 'paragraph', 'presentation', 'strong', 'subscript', 'superscript']);

/** Roles named from content in the library's `allowsNameFromContent` (https://www.w3.org/TR/wai-aria-1.2/#namefromcontent). */
const FROM_CONTENT = new Set([
  'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'label', 'legend', 'link', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem',
]);

/** Elements with a host-language name source of their own (step 2D), handled by the library. */
const OWN_SOURCE = new Set(['fieldset', 'table', 'svg', 'img', 'area', 'optgroup']);

/** Labelable elements (https://html.spec.whatwg.org/multipage/forms.html#category-label). */
const LABELABLE = new Set(['button', 'input', 'meter', 'output', 'progress', 'select', 'textarea']);

/**
 * Descendants this code does not follow: own name sources, labelable and control elements (their name or value counts
 * instead of their content), `summary` (a button), slots (assigned nodes), MathML.
 */
const NOT_PLAIN = new Set([...OWN_SOURCE, ...LABELABLE, 'summary', 'slot', 'datalist', 'math']);

/** The first token of a role an element's internals set, when it is a role name at all. */
function internalsRole(role: string | undefined): string | null {
  const first = role?.trim().split(/\s+/)[0];
  return first && /^[a-z]+$/.test(first) ? first : null;
}

/**
 * Whether a child box with this `display` joins the text around it in a name: inline-level boxes (`inline`,
 * `inline-block`, `inline-flex`, `inline-grid`, `inline-table`: https://drafts.csswg.org/css-display-3/#inline-level)
 * flow in the line as text does, so a word drawn one letter per inline-block reads as the word, as browsers expose it.
 */
export function joinsInline(display: string): boolean {
  return display.startsWith('inline');
}

/** The library's `asFlatString`. */
function flat(s: string): string {
  return s.trim().replace(/\s\s+/g, ' ');
}

/** The library's `getTextualContent`: only quoted strings count. */
function textualContent(content: string): string {
  return /^["'].*["']$/.test(content) ? content.slice(1, -1) : '';
}

export interface NameDeps {
  style(el: Element): CSSStyleDeclaration;
  shadow(el: Element): ShadowRoot | null;
}

export class FastNames {
  private readonly pseudoScopes = new Map<Node, PseudoScope>();
  /** The element whose labels are being read (the library's consulted node: it adds nothing to its own label's text). */
  private consulted: Element | null = null;
  /** Inside a <label>'s text: a nested label is left to the library. */
  private inLabel = false;

  constructor(private readonly deps: NameDeps) {}

  /**
   * The accessible name of `el` as `computeAccessibleName` gives it, or `undefined` when the library must answer.
   * `known`: the role the walker computed for `el` (./cache.ts computeRole), which saves asking the library again. A
   * custom element's role and label may come from its internals, which the library does not see; such an element is
   * always answered here.
   */
  name(el: Element, rendered = false, known?: string): string | undefined {
    if (el.namespaceURI !== HTML_NS) return undefined;
    const top = el.getRootNode().nodeType;
    if (top !== 9 && top !== 11) return undefined;
    this.consulted = null;
    this.inLabel = false;
    const custom = el.localName.includes('-') && !el.hasAttribute('role') ? internalsOf(el) : undefined;
    // Without the walker's role, the internals' own (a handle's fingerprint asks for the name alone: ../fingerprint.ts).
    if (custom) return this.customName(el, custom, known ?? internalsRole(custom.role), rendered);
    const role = known !== undefined ? known : getRole(el);
    if (role !== null && PROHIBITED.has(role)) return '';
    const r = this.root(el, role, rendered);
    return r === undefined ? undefined : flat(r);
  }

  /**
   * The text of `el`'s labels joined with spaces: null when it has no label, undefined when a label's text cannot be
   * told here (left to the library).
   */
  private fromLabels(el: Element): string | null | undefined {
    const labels = this.labelsOf(el);
    if (!labels.length) return null;
    this.consulted = el;
    const parts: string[] = [];
    for (const l of labels) {
      const t = this.labelText(l);
      if (t === undefined) return undefined;
      if (t.length) parts.push(t);
    }
    return parts.join(' ');
  }

  /**
   * A custom element with internals: aria-labelledby is left to the library; then aria-label (the attribute, else the
   * internals' ariaLabel), its labels (a form-associated custom element is labelable), its content when the role is
   * named from content, its title.
   */
  private customName(el: Element, internals: { ariaLabel?: string }, role: string | null, rendered: boolean): string | undefined {
    if (this.hidden(el, rendered)) return '';
    if (el.hasAttribute('aria-labelledby')) return undefined;
    const label = (el.getAttribute('aria-label') ?? internals.ariaLabel ?? '').trim();
    if (label !== '') return flat(label);
    if (role !== null && PROHIBITED.has(role)) return '';
    const byLabels = this.fromLabels(el);
    if (byLabels !== null) return byLabels === undefined ? undefined : flat(byLabels);
    if (role !== null && FROM_CONTENT.has(role)) {
      const c = this.content(el);
      if (c === undefined) return undefined;
      if (c !== '') return flat(c);
    }
    const title = el.getAttribute('title');
    return title !== null && title.trim() !== '' ? flat(title) : '';
  }

  private hidden(el: Element, rendered = false): boolean {
    if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return true;
    if (rendered) return false;
    const s = this.deps.style(el);
    return s.display === 'none' || s.visibility === 'hidden';
  }

  private root(el: Element, role: string | null, rendered: boolean): string | undefined {
    // 2A
    if (this.hidden(el, rendered)) return '';
    // 2B
    const tag = el.localName;
    if (el.hasAttribute('aria-labelledby') || el.hasAttribute('aria-owns') || tag === 'slot') return undefined;
    // 2C
    const label = (el.getAttribute('aria-label') ?? '').trim();
    if (label !== '') return label;
    // 2D
    if (role !== 'none' && role !== 'presentation') {
      if (tag === 'table') {
        // https://w3c.github.io/html-aam/#table-element — a caption child names the table (left to the library).
        for (let c = el.firstElementChild; c !== null; c = c.nextElementSibling) if (c.localName === 'caption') return undefined;
      } else if (OWN_SOURCE.has(tag)) return undefined;
      if (tag === 'input') {
        const type = (el as HTMLInputElement).type;
        if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image') return undefined;
      }
      if (LABELABLE.has(tag) && !(tag === 'input' && (el as HTMLInputElement).type === 'hidden')) {
        const byLabels = this.fromLabels(el);
        if (byLabels !== null) return byLabels;
      }
      if (role === 'button') {
        const c = this.content(el);
        if (c !== '') return c;
      }
    }
    if (role === 'menu') return '';
    // 2F
    if ((role !== null && FROM_CONTENT.has(role)) || tag === 'caption') {
      const c = this.content(el);
      if (c !== '') return c;
    }
    // 2I
    const title = el.getAttribute('title');
    if (title !== null && title.trim() !== '') return title;
    return '';
  }

  /** A <label>'s text when it names `consulted` (the library's computeTextAlternative with isEmbeddedInLabel). */
  private labelText(label: HTMLLabelElement): string | undefined {
    if (this.hidden(label)) return '';
    if (label.namespaceURI !== HTML_NS || label.hasAttribute('aria-labelledby') || label.hasAttribute('aria-owns') || label.hasAttribute('role')) return undefined;
    const aria = (label.getAttribute('aria-label') ?? '').trim();
    if (aria !== '') return aria;
    this.inLabel = true;
    try {
      return this.content(label);
    } finally {
      this.inLabel = false;
    }
  }

  /** The library's computeMiscTextAlternative (2F): pseudo-element text and the text of each child, `undefined` to bail. */
  private content(el: Element): string | undefined {
    let acc = this.pseudo(el, '::before') + ' ';
    for (let c = el.firstChild; c !== null; c = c.nextSibling) {
      const r = this.child(c);
      if (r === undefined) return undefined;
      if (c.nodeType === 1) {
        // https://github.com/w3c/accname/issues/3 — the library separates non-inline children with spaces; an
        // inline-level box joins its neighbours (see joinsInline).
        const sep = joinsInline(this.deps.style(c as Element).display) ? '' : ' ';
        acc += sep + r + sep;
      } else acc += r;
    }
    acc += ' ' + this.pseudo(el, '::after');
    return acc.trim();
  }

  /** One node inside a name (the library's computeTextAlternative with recursion). */
  private child(node: Node): string | undefined {
    if (node.nodeType === 3) return (node as Text).data;
    if (node.nodeType !== 1) return '';
    const el = node as Element;
    if (el === this.consulted) return '';
    if (this.hidden(el)) return '';
    const tag = el.localName;
    if (el.namespaceURI !== HTML_NS || NOT_PLAIN.has(tag) || (this.inLabel && tag === 'label')) return undefined;
    if (el.hasAttribute('role') || el.hasAttribute('aria-labelledby') || el.hasAttribute('aria-owns')) return undefined;
    const aria = (el.getAttribute('aria-label') ?? '').trim();
    if (aria !== '') return aria;
    return this.content(el);
  }

  /** Text of `el`'s ::before / ::after, read only where some style sheet could give it text. */
  private pseudo(el: Element, which: '::before' | '::after'): string {
    if (!this.pseudoPossible(el)) return '';
    return textualContent(getComputedStyle(el, which).getPropertyValue('content'));
  }

  private pseudoPossible(el: Element): boolean {
    // ::part() rules of outer scopes.
    if (el.hasAttribute('part')) return true;
    const info = this.scope(el.getRootNode());
    if (info.kind === 'unknown') return true;
    if (info.kind === 'some' && el.matches(info.selector)) return true;
    // :host::before in the element's own shadow tree, ::slotted(…)::before in its parent's.
    const own = this.deps.shadow(el);
    if (own && this.scope(own).kind !== 'none') return true;
    const parent = el.parentElement;
    const around = parent ? this.deps.shadow(parent) : null;
    return around !== null && this.scope(around).kind !== 'none';
  }

  private scope(root: Node): PseudoScope {
    let info = this.pseudoScopes.get(root);
    if (!info) {
      info = root.nodeType === 9 || root.nodeType === 11 ? scanScope(root as Document | ShadowRoot) : { kind: 'unknown' };
      this.pseudoScopes.set(root, info);
    }
    return info;
  }

  /**
   * `el.labels` for a labelable element, from one pass over the labels of its tree scope (kept until the DOM changes):
   * the native getter builds a live list that searches the whole tree scope on its first read for each element
   * (Chromium), so reading it for every control of a long page takes time quadratic in the page size. Same labels,
   * same (tree) order.
   */
  labelsOf(el: Element): HTMLLabelElement[] {
    return labelMapOf(el.getRootNode()).get(el) ?? [];
  }

}

/**
 * The labels of each labelable element of a tree scope, kept while the DOM does not change (./changes.ts counts
 * mutations of the document and of every shadow root a walk entered): which label names which control depends on
 * the DOM alone (`for`, ids, nesting).
 */
const labelMaps = new WeakMap<Node, { mutations: number; map: Map<Element, HTMLLabelElement[]> }>();

function labelMapOf(root: Node): Map<Element, HTMLLabelElement[]> {
  const now = mutationCount();
  const kept = labelMaps.get(root);
  if (kept && kept.mutations === now) return kept.map;
  const map = new Map<Element, HTMLLabelElement[]>();
  if (root.nodeType === 9 || root.nodeType === 11) {
    // A document's getElementsByTagName list is kept by the browser until the document changes.
    const labels = root.nodeType === 9 ? (root as Document).getElementsByTagName('label') : (root as ParentNode).querySelectorAll('label');
    for (const l of Array.from(labels)) {
      const c = (l as HTMLLabelElement).control;
      if (!c) continue;
      const list = map.get(c);
      if (list) list.push(l as HTMLLabelElement);
      else map.set(c, [l as HTMLLabelElement]);
    }
  }
  labelMaps.set(root, { mutations: now, map });
  return map;
}
