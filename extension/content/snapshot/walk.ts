// The DOM walker: (root, flags) → snapshot tree for this frame. Rendering is shared/snapshot/render.ts; the background
// (extension/background/snapshot.ts) stitches frames, filters and paginates.
import { cap, collapseWhitespace, INTERACTIVE_ROLES, NAME_FROM_CONTENT, type FrameTree, type SnapNode, type WalkFlags } from '../../../shared/snapshot/index.js';
import type { HandleRegistry } from '../registry.js';
import { describeWith } from '../fingerprint.js';
import { Builder } from './builder.js';
import { WalkCache } from './cache.js';
import { deepActiveElement } from './dom.js';
import { controlStates, controlValue, linkUrl } from './fields.js';
import { isSecretField, Redactor } from '../redaction.js';
import { currentView, usability, type Clip, type View } from './geometry.js';

/** Elements that never render content a person perceives. */
const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'base', 'param', 'source', 'track', 'datalist']);

/**
 * Elements whose box can clip its content (https://drafts.csswg.org/css-overflow-3/#overflow-control: overflow applies
 * to block containers, flex and grid containers and replaced elements), even when laid out inline. For any other
 * element with `display: inline` the overflow properties are not read.
 */
const REPLACED = new Set(['img', 'svg', 'canvas', 'iframe', 'frame', 'embed', 'object', 'video', 'audio', 'input', 'select', 'textarea', 'button', 'meter', 'progress']);

/** Roles that only group or style text: without a name they collapse into their parent. */
const COLLAPSIBLE = new Set([
  'generic', 'none', 'presentation', 'paragraph', 'document', 'emphasis', 'strong', 'code', 'deletion', 'insertion',
  'subscript', 'superscript', 'time', 'mark', 'rowgroup', 'term', 'definition', 'blockquote', 'caption', 'legend',
  'label', 'group', 'form', 'region', 'section', 'abbr', 'sectionheader', 'sectionfooter', 'figcaption',
]);

/** Roles that cannot be named by their author or content, so computing a name is wasted work. */
const UNNAMED = new Set(['generic', 'none', 'presentation', 'paragraph', 'emphasis', 'strong', 'code', 'deletion', 'insertion', 'subscript', 'superscript', 'time', 'mark', 'rowgroup', 'term', 'definition', 'caption', 'legend']);

/**
 * Non-interactive roles that still get a handle: things an agent reads as a whole (extract, extract_rows, screenshot),
 * and rows, which pages often act on by pointer alone (row actions that appear on hover).
 */
const READABLE = new Set(['heading', 'img', 'table', 'row', 'grid', 'treegrid', 'list', 'listbox', 'dialog', 'alertdialog', 'iframe', 'canvas', 'figure', 'tree', 'tablist', 'menu', 'menubar', 'progressbar', 'meter', 'alert', 'status', 'video', 'audio', 'article', 'feed']);

/** What each element passes to its children. */
interface Ctx {
  /** `visibility` of the parent element is `visible` (text nodes inherit it). */
  visible: boolean;
  /** Some ancestor has `opacity: 0`. */
  transparent: boolean;
  /** Intersection of the boxes of `overflow: hidden/clip` ancestors, in viewport coordinates. */
  clip: Clip | undefined;
  /** The parent's computed style: a pointer cursor there makes a child's pointer cursor inherited, not its own. */
  parent: CSSStyleDeclaration | undefined;
  /** Inside an element an agent acts on (its descendants are not separate click targets). */
  inAct: boolean;
  /** Depth of the outline node that will receive children. */
  depth: number;
  /** Inside a <label> of a shown control: its text is already the control's name. */
  mute: boolean;
}

export type FrameRef = (frame: HTMLIFrameElement | HTMLFrameElement) => number | string | undefined;

export class Walker {
  private readonly cache = new WalkCache();
  /** Binds each handle to the role and name shown, with this walk's caches (../fingerprint.ts). */
  private readonly describe = describeWith(this.cache);
  private visited = 0;
  private nodes = 0;
  private dropped = 0;
  private readonly focused = deepActiveElement();
  private view: View = { scrollX: 0, scrollY: 0, width: 0, height: 0 };
  /** The user's redaction selectors, each matched on its own (a joined list lets one bad entry swallow the next). */
  private readonly redactor: Redactor;

  constructor(
    private readonly flags: WalkFlags,
    private readonly registry: HandleRegistry,
    private readonly frameRef: FrameRef,
  ) {
    this.redactor = Redactor.fromPolicy({ selectors: flags.redactSelectors, value_limit: flags.valueLimit });
  }

  /** Walks `root` (the document element by default) and returns this frame's tree. */
  run(root: Element): FrameTree {
    const t0 = performance.now();
    try {
      const out = new Builder(this.flags.textLimit);
      this.view = currentView();
      const ctx: Ctx = { visible: true, transparent: false, clip: undefined, parent: undefined, inAct: false, depth: 0, mute: false };
      // Names that embed a secret field (a label around it, aria-labelledby naming it) embed nothing of its value.
      this.redactor.shield(document);
      // A root handle minted before the user redacted its part of the page (or inside a secret field) walks nothing.
      if (root !== document.documentElement && this.redactor.isHidden(root)) out.push({ role: 'redacted' });
      else this.element(root, ctx, out);
      const nodes = out.done();
      return {
        document: this.registry.namespace,
        url: location.href,
        title: document.title,
        nodes,
        visited: this.visited,
        dropped: this.dropped,
        ms: Math.round((performance.now() - t0) * 10) / 10,
      };
    } finally {
      this.redactor.unshield();
      this.cache.clear();
    }
  }

  private children(parent: Node, ctx: Ctx, out: Builder): void {
    for (let c = parent.firstChild; c !== null; c = c.nextSibling) this.node(c, ctx, out);
  }

  private node(n: Node, ctx: Ctx, out: Builder): void {
    if (n.nodeType === Node.TEXT_NODE) {
      this.visited++;
      if (ctx.visible && !ctx.mute) out.text((n as Text).data);
    } else if (n.nodeType === Node.ELEMENT_NODE) {
      this.element(n as Element, ctx, out);
    }
  }

  /** The DOM children of `el` as rendered: its shadow tree if it has one, a slot's assigned nodes, else its children. */
  private content(el: Element, ctx: Ctx, out: Builder): void {
    const shadow = this.cache.shadow(el);
    if (shadow) {
      this.redactor.shield(shadow);
      return this.children(shadow, ctx, out);
    }
    if (el.localName === 'slot') {
      // https://html.spec.whatwg.org/multipage/scripting.html#the-slot-element — fallback content when nothing is assigned.
      const assigned = (el as HTMLSlotElement).assignedNodes();
      if (assigned.length) {
        for (const a of assigned) this.node(a, ctx, out);
        return;
      }
    }
    if (el.localName === 'details' && !(el as HTMLDetailsElement).open) {
      // A closed <details> shows only its summary (https://html.spec.whatwg.org/multipage/interactive-elements.html#the-details-element).
      const summary = Array.from(el.children).find((c) => c.localName === 'summary');
      if (summary) this.element(summary, ctx, out);
      return;
    }
    this.children(el, ctx, out);
  }

  private element(el: Element, ctx: Ctx, out: Builder): void {
    this.visited++;
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) return;
    if (this.nodes >= this.flags.maxNodes) {
      this.dropped++;
      return;
    }
    // https://www.w3.org/TR/wai-aria-1.2/#aria-hidden and https://html.spec.whatwg.org/multipage/interaction.html#the-inert-attribute
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) return;
    if (this.redactor.matchesUser(el)) {
      out.push({ role: 'redacted' });
      return;
    }
    const style = this.cache.style(el);
    const display = style.display;
    if (display === 'none') return;
    const visible = style.visibility === 'visible';
    const block = display !== 'contents' && !display.startsWith('inline') && display !== 'ruby';
    const transparent = ctx.transparent || style.opacity === '0';
    let clip = ctx.clip;
    /** The bounding box, when the overflow check needed it (handed on to the usability check). */
    let rect: DOMRect | undefined;
    // The shorthand answers `visible` for the common case in one read; the longhands only when it does not.
    if (display !== 'contents' && (display !== 'inline' || REPLACED.has(tag)) && style.overflow !== 'visible') {
      const ox = style.overflowX, oy = style.overflowY;
      if (ox !== 'visible' || oy !== 'visible') {
        const r = (rect = el.getBoundingClientRect());
        // Zero-size boxes that clip their content show nothing.
        if ((r.width === 0 || r.height === 0) && ox !== 'visible' && oy !== 'visible') return;
        if (ox === 'hidden' || ox === 'clip' || oy === 'hidden' || oy === 'clip') {
          clip = intersect(clip, { left: r.left, top: r.top, right: r.right, bottom: r.bottom });
        }
      }
    }
    if (tag === 'br') {
      out.break();
      return;
    }

    let role = visible ? this.cache.role(el) : null;
    let act = false;
    if (role !== null && INTERACTIVE_ROLES.has(role)) act = true;
    if (visible && el instanceof HTMLElement && el.isContentEditable && !el.parentElement?.isContentEditable) {
      if (role === null || COLLAPSIBLE.has(role)) role = 'textbox';
      act = true;
    }
    if (visible && !act && !ctx.inAct && (role === null || COLLAPSIBLE.has(role) || role === 'img' || role === 'listitem')) {
      // Elements that act on click without an ARIA role: a pointer cursor of their own, a tabindex, an inline handler.
      const tabbable = el.hasAttribute('tabindex') && (el as HTMLElement).tabIndex >= 0;
      if (tabbable || el.hasAttribute('onclick') || (tag !== 'label' && tag !== 'img' && style.cursor === 'pointer' && ctx.parent?.cursor !== 'pointer')) {
        role = 'clickable';
        act = true;
      }
    }
    if (tag === 'label' && visible) {
      const replaced = this.hiddenControlOfLabel(el as HTMLLabelElement, ctx);
      if (replaced) {
        out.push(replaced);
        return;
      }
    }
    if (tag === 'iframe' || tag === 'frame') {
      if (!visible) return;
      const node: SnapNode = { role: 'iframe', handle: this.registry.handleFor(el, this.describe) };
      const name = this.cache.name(el, true);
      if (name) node.name = cap(name, this.flags.nameLimit);
      const ref = this.frameRef(el as HTMLIFrameElement);
      if (ref !== undefined) node.frame = ref;
      this.nodes++;
      out.push(node);
      return;
    }
    if (tag === 'svg' || tag === 'canvas' || (role === 'img' && tag === 'img')) {
      if (!visible) return;
      const name = collapseWhitespace(this.cache.name(el, true));
      if (!name && tag !== 'canvas' && !act) return;
      const node: SnapNode = { role: tag === 'canvas' ? 'canvas' : act ? role ?? 'img' : 'img', handle: this.registry.handleFor(el, this.describe) };
      if (name) node.name = cap(name, this.flags.nameLimit);
      if (act) this.markAct(el, node, ctx.transparent, ctx.clip, rect);
      this.nodes++;
      out.push(node);
      return;
    }

    const emit = role !== null && (!COLLAPSIBLE.has(role) || this.hasAuthorName(el, role));
    if (!emit) {
      // A label's text names its control (https://html.spec.whatwg.org/multipage/forms.html#the-label-element).
      const control = tag === 'label' ? (el as HTMLLabelElement).control : null;
      const mute = ctx.mute || (control !== null && this.cache.style(control).display !== 'none');
      const inner: Ctx = { visible, transparent, clip, parent: style, inAct: ctx.inAct, depth: ctx.depth, mute };
      if (block) out.break();
      this.content(el, inner, out);
      if (block) out.break();
      return;
    }

    // An outline node.
    const node: SnapNode = { role: role! };
    this.nodes++;
    if (!UNNAMED.has(role!) && role !== 'clickable' && (role !== 'row' || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby'))) {
      const name = collapseWhitespace(this.cache.name(el, true));
      if (name) node.name = cap(name, this.flags.nameLimit);
    }
    const redacted = isSecretField(el);
    const value = redacted ? undefined : controlValue(el, role!, this.flags.valueLimit);
    if (value !== undefined && value !== '') node.value = value;
    const states = controlStates(el, role!, this.focused, redacted);
    if (redacted) states.push('redacted');
    const url = linkUrl(el);
    if (url) node.url = url;
    if (act || READABLE.has(role!)) node.handle = this.registry.handleFor(el, this.describe);
    if (act) {
      node.act = 1;
      // Its own overflow clips its content, not its own box: judge it by its ancestors' clip.
      for (const st of usability(el, this.cache, ctx.transparent, ctx.clip, this.view, () => this.labelsOf(el), rect)) states.push(st);
    }
    if (states.length) node.states = states;

    // Children: form controls own their content (options of a select are listed; text fields have a value).
    if (tag === 'select') {
      if (!redacted) node.children = this.options(el as HTMLSelectElement);
    } else if (!redacted && !(tag === 'input' || tag === 'textarea' || (role === 'textbox' && (el as HTMLElement).isContentEditable))) {
      const kids = new Builder(this.flags.textLimit);
      const deep = ctx.depth + 1 >= this.flags.maxDepth;
      const inner: Ctx = { visible, transparent, clip, parent: style, inAct: ctx.inAct || act, depth: deep ? ctx.depth : ctx.depth + 1, mute: ctx.mute };
      this.content(el, inner, deep ? out : kids);
      const children = kids.done();
      if (role === 'clickable' && children.length && children.every((c) => c.role === 'text')) {
        node.name = cap(children.map((c) => c.name).join(' '), this.flags.nameLimit);
      } else if (children.length) {
        // A container named from its content repeats what its children say: keep the children, drop the name.
        if (node.name && !act && NAME_FROM_CONTENT.has(role!) && children.some((c) => c.role !== 'text') && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) delete node.name;

        // A first text child that repeats the name (a fieldset's legend, a figure's caption) is dropped.
        if (node.name && children[0]!.role === 'text' && children[0]!.name === node.name && children.length > 1) children.shift();
        node.children = children;
      }
    }
    const partial = ITEM_CONTAINERS.has(role!) && this.windowed(el) ? partialState(el, role!, node.children ?? []) : undefined;
    if (partial) node.states = [...(node.states ?? []), partial];
    if (block) out.break();
    out.push(node);
    if (block) out.break();
  }

  /** Tree scopes (document, shadow roots) that use aria-setsize, aria-rowindex or aria-rowcount at all. */
  private readonly windowedScopes = new Map<Node, boolean>();

  /** Whether `el`'s tree scope has any element saying it is part of a larger set (else no list there is partial). */
  private windowed(el: Element): boolean {
    const scope = el.getRootNode();
    let w = this.windowedScopes.get(scope);
    if (w === undefined) {
      w = !('querySelector' in scope) || (scope as ParentNode).querySelector('[aria-setsize],[aria-rowindex],[aria-rowcount]') !== null;
      this.windowedScopes.set(scope, w);
    }
    return w;
  }

  /** Whether a collapsible role carries a name of its own (then it is kept: a named group, form or region). */
  private hasAuthorName(el: Element, role: string): boolean {
    if (UNNAMED.has(role)) return false;
    if (!(el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.localName === 'fieldset' || role === 'group' || role === 'region' || role === 'form')) return false;
    return collapseWhitespace(this.cache.name(el, true)) !== '';
  }

  /** `el.labels` from the walk's per-scope label map (the native getter searches the document for each element). */
  private labelsOf(el: Element): readonly HTMLLabelElement[] {
    return this.cache.labels(el);
  }

  /**
   * A native checkbox or radio hidden with display:none or visibility:hidden behind a styled label (a "switch") is
   * still operable through its label: show the control, with its handle, where the label is.
   */
  private hiddenControlOfLabel(label: HTMLLabelElement, ctx: Ctx): SnapNode | undefined {
    const control = label.control;
    if (!(control instanceof HTMLInputElement) || (control.type !== 'checkbox' && control.type !== 'radio')) return undefined;
    const cs = this.cache.style(control);
    if (cs.display !== 'none' && cs.visibility === 'visible') return undefined;
    const role = control.getAttribute('role') === 'switch' ? 'switch' : control.type;
    const node: SnapNode = { role, handle: this.registry.handleFor(control, this.describe), act: 1 };
    const name = collapseWhitespace(label.textContent ?? '') || collapseWhitespace(this.cache.name(control));
    if (name) node.name = cap(name, this.flags.nameLimit);
    const states = controlStates(control, role, this.focused, isSecretField(control));
    for (const st of usability(label, this.cache, ctx.transparent, ctx.clip, this.view, () => [])) states.push(st);
    if (states.length) node.states = states;
    this.nodes++;
    return node;
  }

  /** The options of a <select>, grouped by optgroup; an option's value is shown only when it differs from its label. */
  private options(select: HTMLSelectElement): SnapNode[] {
    const out: SnapNode[] = [];
    const option = (o: HTMLOptionElement): SnapNode => {
      this.visited++;
      const label = collapseWhitespace(o.label || o.text);
      const n: SnapNode = { role: 'option', name: cap(label, this.flags.nameLimit) };
      if (o.value !== label) n.value = cap(o.value, this.flags.valueLimit);
      const states: string[] = [];
      if (o.selected) states.push('selected');
      if (o.disabled) states.push('disabled');
      if (states.length) n.states = states;
      this.nodes++;
      return n;
    };
    for (const c of Array.from(select.children)) {
      if (c instanceof HTMLOptionElement) out.push(option(c));
      else if (c instanceof HTMLOptGroupElement) {
        this.visited++;
        const g: SnapNode = { role: 'group', name: cap(collapseWhitespace(c.label), this.flags.nameLimit), children: Array.from(c.children).filter((o) => o instanceof HTMLOptionElement).map((o) => option(o as HTMLOptionElement)) };
        if (c.disabled) g.states = ['disabled'];
        out.push(g);
      }
    }
    return out;
  }

  private markAct(el: Element, node: SnapNode, transparent: boolean, clip: Clip | undefined, rect: DOMRect | undefined): void {
    node.act = 1;
    const states = usability(el, this.cache, transparent, clip, this.view, () => [], rect);
    if (states.length) node.states = [...(node.states ?? []), ...states];
  }
}

function intersect(a: Clip | undefined, b: Clip): Clip {
  if (!a) return b;
  return { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
}

const ITEM_CONTAINERS = new Set(['list', 'listbox', 'grid', 'table', 'treegrid', 'tree', 'feed', 'menu', 'rowgroup']);

/**
 * Lists that render only a window of their rows say so through aria-setsize / aria-posinset on items or
 * aria-rowcount on the container (https://www.w3.org/TR/wai-aria-1.2/#aria-setsize): such a list is marked
 * `partial=first-last/total`, so the agent knows to scroll for more.
 */
function partialState(el: Element, role: string, children: SnapNode[]): string | undefined {
  if (!ITEM_CONTAINERS.has(role)) return undefined;
  let total = Number(el.getAttribute('aria-rowcount') ?? NaN);
  let first = Infinity;
  let last = 0;
  const items = Array.from(el.querySelectorAll(':scope > [aria-setsize], :scope > * > [aria-setsize], :scope > [aria-rowindex], :scope > * > [aria-rowindex]'));
  for (const it of items) {
    const size = Number(it.getAttribute('aria-setsize') ?? NaN);
    if (size > 0 && !(total >= size)) total = size;
    const pos = Number(it.getAttribute('aria-posinset') ?? it.getAttribute('aria-rowindex') ?? NaN);
    if (pos > 0) {
      first = Math.min(first, pos);
      last = Math.max(last, pos);
    }
  }
  if (!(total > 0)) return undefined;
  const shown = items.length || children.length;
  if (shown >= total) return undefined;
  return first <= last ? `partial=${first}-${last}/${total}` : `partial=${shown}/${total}`;
}
