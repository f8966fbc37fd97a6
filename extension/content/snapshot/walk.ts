// The DOM walker: this frame's DOM → snapshot tree, one step at a time. Its state is an explicit stack (no recursion),
// so a walk can stop when enough of the outline is ready and continue later where it stopped; extension/content/
// snapshot/emit.ts turns the finished part into lines as it grows. Rendering rules: shared/snapshot/render.ts.
import { cap, collapseWhitespace, INTERACTIVE_ROLES, NAME_FROM_CONTENT, type FrameTree, type SnapNode, type WalkFlags } from '../../../shared/snapshot/index.js';
import type { HandleRegistry } from '../registry.js';
import { describeWith } from '../fingerprint.js';
import { Builder, type BuilderOwner } from './builder.js';
import { WalkCache } from './cache.js';
import { noteSteady, sheetsPosition, steadyAt, watchRoot } from './changes.js';
import { deepActiveElement } from './dom.js';
import { controlStates, controlValue, description, linkUrl } from './fields.js';
import { isSecretField, Redactor } from '../redaction.js';
import { observeSecretFlips } from '../secret-watch.js';
import { clearBox, currentView, usability, type Clip, type UseBasis, type View } from './geometry.js';
import { noteTextBox } from './text-moves.js';
import { currentSeq, look, MAX_MEMO_VISITED, noteControl, noteMove, recall, store, watchShadow, newTape, type Deps, type Entry, type Memo, type Tape } from './reuse.js';

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

/** Text that is more than white space (white space alone between elements writes nothing). */
const NOT_BLANK = /\S/;

/** Usability states of an iframe that every control inside it shares (a clipped frame clips its content). */
const INHERITED = new Set(['transparent', 'offscreen', 'clipped', 'no-pointer']);

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
  /** Inside the open modal dialog (nothing inside it is inert). */
  inModal: boolean;
  /** Inside a shadow tree (or slotted into one): readings there are kept with their host's, not apart (./reuse.ts). */
  shadow?: boolean;
  /**
   * Some ancestor is positioned otherwise than static or relative, or the walk did not start at the document element
   * (ancestors unknown): boxes here may move in document coordinates when the window scrolls ({@link PLAIN_POSITIONS}).
   */
  pinned: boolean;
}

/**
 * Positions that keep a box where the document's flow puts it when the window scrolls. Fixed and sticky boxes move
 * with the viewport; an absolutely positioned one may be anchored to one of them (https://drafts.csswg.org/css-anchor-position-1/),
 * so it counts as moving too, and so does all any of them holds.
 */
const PLAIN_POSITIONS = new Set(['static', 'relative']);

/** A `style` attribute that may position its element otherwise than static or relative (./changes.ts POSITIONS). */
const INLINE_POSITION = /fixed|sticky|absolute|var\(|attr\(/i;

/**
 * Whether the browser's own style sheet may position `el` otherwise than static or relative: a dialog (absolute, or
 * fixed when modal) and a popover (fixed, in the top layer). The fullscreen element is fixed too: while there is one,
 * every position is read ({@link Walker.walk}).
 */
function positionedByBrowser(el: Element): boolean {
  return el.localName === 'dialog' || el.hasAttribute('popover');
}

/** Most elements of a subtree the walk skips (aria-hidden, inert, redacted) that are looked at for what moves boxes. */
const SKIPPED_SCAN = 50;

/** What of a context the walk of an element reads, as one string (readings are reused only under the same). */
function ctxKey(ctx: Ctx): string {
  const c = ctx.clip;
  return `${+ctx.visible}${+ctx.transparent}${+ctx.inAct}${+ctx.mute}${+ctx.inModal}${+(ctx.parent?.cursor === 'pointer')}${+ctx.pinned}|${ctx.depth}|${c ? `${c.left},${c.top},${c.right},${c.bottom}` : ''}`;
}

/** Elements a `<label>` can label (https://html.spec.whatwg.org/multipage/forms.html#category-label). */
const LABELABLE = new Set(['button', 'input', 'meter', 'output', 'progress', 'select', 'textarea']);

/** Attributes naming other elements by id whose content or state a reading can include. */
const IDREFS = ['aria-labelledby', 'aria-describedby', 'aria-owns', 'aria-activedescendant', 'aria-details'];

export type FrameRef = (frame: HTMLIFrameElement | HTMLFrameElement) => number | string | undefined;

/**
 * An outline node whose DOM content is being walked. Its children arrive one by one in `kids`; what they decide about
 * the node itself (a container named from content loses its name once an element child comes; a first text child that
 * repeats the name is dropped) is settled as soon as it is known, so the node's line can be written before it is
 * complete (shared/snapshot/render.ts `openLine`).
 */
export class OpenNode implements BuilderOwner {
  readonly kids: Builder;
  /** The name goes if an element child comes (a container named from its content: the children say it). */
  nameMayDrop: boolean;
  /** Whether a first text child repeating the name has been looked for. */
  shiftDone = false;
  /** Finished and pushed into `out`. */
  done = false;
  /** Its line has been written (by the emitter) while it was still open. */
  headEmitted = false;

  constructor(
    readonly node: SnapNode,
    readonly el: Element,
    readonly out: Builder,
    readonly block: boolean,
    /** Past the depth limit: its content goes into `out`, not `kids`. */
    readonly deep: boolean,
    nameMayDrop: boolean,
    textLimit: number,
  ) {
    this.nameMayDrop = nameMayDrop;
    this.kids = new Builder(textLimit, this);
  }

  added(child: SnapNode, items: SnapNode[]): void {
    if (this.nameMayDrop && child.role !== 'text') {
      delete this.node.name;
      this.nameMayDrop = false;
    }
    if (!this.shiftDone && items.length === 2 && !this.nameMayDrop) {
      this.shiftDone = true;
      // A first text child that repeats the name (a fieldset's legend, a figure's caption) is dropped.
      if (this.node.name && items[0]!.role === 'text' && items[0]!.name === this.node.name) items.shift();
    }
  }
}

/** One step of work on the walker's stack. */
type Frame =
  /** The children of `parent`, after `last` (from the first when null). */
  | { k: 'kids'; parent: Node; last: Node | null; ctx: Ctx; out: Builder }
  /** A list of nodes (a slot's assigned nodes, a closed <details>' summary), from index `i`. */
  | { k: 'list'; nodes: readonly Node[]; i: number; ctx: Ctx; out: Builder }
  /** After a wrapper's content: end the text run when it is a block. */
  | { k: 'wrap'; out: Builder; block: boolean }
  /** After an outline node's content: finish it and hand it to its parent. */
  | { k: 'node'; open: OpenNode }
  /** After an element's whole walk: keep what it wrote, for later walks (./reuse.ts). */
  | { k: 'memo'; el: Element; key: string; out: Builder; start: number; depStart: number; seq: number; generation: number | undefined; shape: number | undefined; visited: number; nodes: number; chars: number; dropped: number; kept: number; shifting: number; fixed: number };

/** What the walker is told about the document before it starts (extension/content/snapshot/session.ts). */
export interface WalkEnv {
  /** An open modal dialog shows in this document: controls outside it are inert. */
  modal: boolean;
  /**
   * Whether the document (light DOM) may have secret fields now: when not, the shield over their values
   * (../redaction.ts) need not look over the whole document at each step of the walk.
   */
  secretFields?: () => boolean;
}

/** What an iframe placeholder passes to the frame it shows. */
export interface FrameInfo {
  inert: boolean;
  inherit: string[];
}

export class Walker {
  private readonly cache = new WalkCache();
  /** Binds each handle to the role and name shown, with this walk's caches (../fingerprint.ts). */
  private readonly describe = describeWith(this.cache);
  visited = 0;
  private nodes = 0;
  dropped = 0;
  /** Characters of the lines of the nodes finished so far (an estimate: lines written inline count apart). */
  chars = 0;
  private readonly focused = deepActiveElement();
  private view: View = { scrollX: 0, scrollY: 0, width: 0, height: 0, clientWidth: 0, clientHeight: 0 };
  /** The user's redaction selectors, each matched on its own (a joined list lets one bad entry swallow the next). */
  private readonly redactor: Redactor;
  private readonly stack: Frame[] = [];
  /** The top level of the outline. */
  readonly root: Builder;
  /** The open outline node whose line comes next after each builder's items (the emitter's path down the tree). */
  readonly openChild = new WeakMap<Builder, OpenNode>();
  /** Iframe placeholders and what their frame inherits. */
  readonly frames = new WeakMap<SnapNode, FrameInfo>();
  /** A modal dialog showed although the document was not known to have one (its earlier siblings are not marked). */
  unexpectedModal = false;
  /**
   * What this walk did, in order (./reuse.ts): the memos it keeps are slices of it. A walk that reads everything afresh
   * (`fresh`, a diagnostic) keeps none, and its record displaces none of the warm walks' records.
   */
  private readonly tape: Tape;
  private readonly log: Entry[];
  /** What this walk's readings depended on outside the subtrees read (./reuse.ts): memos hold slices of it. */
  private readonly deps: Deps;
  /** The settings its readings depend on, as one string (a memo is reused only by a walker with the same). */
  private readonly settingsKey: string;
  /** The redaction selectors, joined and lower-cased (./reuse.ts recall). */
  private readonly selectorText: string;
  /** Readings of earlier walks may be replayed in this part of the walk. */
  private replay = false;
  /** Where the current call of {@link walk} stops (estimated characters). */
  private target = Infinity;
  /** Something was met that makes memos unsafe to keep (an iframe, a custom element, a modal found late): counted. */
  private unkept = 0;
  /** Some part of this walk ran while memos could not be trusted (an animation ran): none is kept. */
  private tainted = false;
  /** Usability entries of the memo {@link replayable} last checked that it computed again, by their place in its log. */
  private readonly refreshed: Array<[number, Entry]> = [];
  /**
   * Things met that may move boxes in document coordinates when the window alone scrolls, other than fixed and sticky
   * boxes (`content-visibility: auto`, a rendered subtree not walked), and fixed or sticky boxes met: counted, so a
   * whole walk can tell that there were none (./changes.ts steady).
   */
  private shifting = 0;
  private fixed = 0;
  /** The style sheets may position boxes (./changes.ts sheetsPosition): every element's position is read. */
  private positions = true;

  constructor(
    private readonly flags: WalkFlags,
    private readonly registry: HandleRegistry,
    private readonly frameRef: FrameRef,
    private readonly env: WalkEnv = { modal: false },
  ) {
    this.tape = newTape(flags.fresh !== true);
    this.log = this.tape.log;
    this.deps = this.tape.deps;
    this.redactor = Redactor.fromPolicy({ selectors: flags.redactSelectors, value_limit: flags.valueLimit, ...(flags.urlParams?.length ? { url_params: flags.urlParams } : {}) });
    this.root = new Builder(flags.textLimit);
    this.root.log = this.log;
    const { root: _root, fresh: _fresh, lineRoles: _roles, lineSearch: _search, maxNodes: _max, ...rest } = flags;
    this.settingsKey = JSON.stringify([rest, env.modal, registry.namespace]);
    this.selectorText = flags.redactSelectors.join('\n').toLowerCase();
  }

  /** The walk started at the document element. */
  private whole = false;

  /** Starts a walk at `root` (the document element, or the element a root handle names). */
  start(root: Element): void {
    this.whole = root === document.documentElement;
    // A root handle minted before the user redacted its part of the page (or inside a secret field) walks nothing.
    if (root !== document.documentElement && this.redactor.isHidden(root)) {
      this.root.push({ role: 'redacted' });
      return;
    }
    const ctx: Ctx = { visible: true, transparent: false, clip: undefined, parent: undefined, inAct: false, depth: 0, mute: false, inModal: false, pinned: root !== document.documentElement };
    this.stack.push({ k: 'list', nodes: [root], i: 0, ctx, out: this.root });
  }

  /** Whether the whole walk is done. */
  get done(): boolean {
    return this.stack.length === 0;
  }

  /**
   * Walks until the finished lines reach `chars` characters (see {@link chars}) or the walk ends; at least one step.
   * Caches hold for this call only: the page may change before the next.
   */
  walk(chars = Infinity): void {
    // First what changed since the last look (it may move the generation the view carries), then the view.
    if (!look(this.focused)) this.tainted = true;
    this.view = currentView();
    this.positions = sheetsPosition() || document.fullscreenElement !== null;
    if (this.flags.fresh === true) {
      delete this.view.generation;
      delete this.view.shape;
      // Nothing read afresh is kept: the memos of earlier warm walks, with their still-generations, stay as they were.
      this.tainted = true;
    }
    // A redaction selector with `:has()` can start matching after a change anywhere below its subject.
    if (this.flags.redactSelectors.some((sel) => sel.includes(':has('))) this.tainted = true;
    this.replay = !this.tainted && this.flags.fresh !== true;
    this.target = chars;
    // Names that embed a secret field (a label around it, aria-labelledby naming it) embed nothing of its value: the
    // shield is up while this part of the walk runs, in the document and in the shadow roots the walk is inside.
    if (this.env.secretFields?.() !== false) this.redactor.shield(document);
    for (const f of this.stack) if (f.k === 'kids' && f.parent.nodeType === Node.DOCUMENT_FRAGMENT_NODE) this.redactor.shield(f.parent as ShadowRoot);
    try {
      do this.step();
      while (this.stack.length && this.chars < chars);
      if (this.done) {
        this.root.flush();
        // A whole walk of the document: what it met tells whether boxes can move when the window alone scrolls.
        if (this.whole && this.view.shape !== undefined && this.dropped === 0) noteSteady(this.view.shape, this.shifting === 0, this.fixed === 0);
      }
    } finally {
      this.redactor.unshield();
      this.cache.clear();
    }
  }

  /** A whole walk of `root` at once (benchmarks, tests). */
  run(root: Element): FrameTree {
    const t0 = performance.now();
    this.start(root);
    this.walk();
    return {
      document: this.registry.namespace,
      url: location.href,
      title: document.title,
      nodes: this.root.items,
      visited: this.visited,
      dropped: this.dropped,
      ms: Math.round((performance.now() - t0) * 10) / 10,
    };
  }

  /**
   * Whether the place the walk stopped at is still where it was: every element it is inside is still in the
   * document, and the last child it visited at each level is still a child there (so the next sibling is the next).
   */
  intact(): boolean {
    for (const f of this.stack) {
      if (f.k === 'kids') {
        if (!f.parent.isConnected || (f.last !== null && f.last.parentNode !== f.parent)) return false;
      } else if (f.k === 'node' && !f.open.el.isConnected) return false;
    }
    return true;
  }

  /** The outline nodes being walked, outermost first, leaving out those past the depth limit. */
  *spine(): Generator<OpenNode> {
    for (const f of this.stack) if (f.k === 'node' && !f.open.deep) yield f.open;
  }

  private step(): void {
    const f = this.stack[this.stack.length - 1]!;
    switch (f.k) {
      case 'kids': {
        const next = f.last === null ? f.parent.firstChild : f.last.nextSibling;
        if (next === null) {
          this.stack.pop();
          return;
        }
        f.last = next;
        this.node(next, f.ctx, f.out);
        return;
      }
      case 'list': {
        if (f.i >= f.nodes.length) {
          this.stack.pop();
          return;
        }
        this.node(f.nodes[f.i++]!, f.ctx, f.out);
        return;
      }
      case 'wrap':
        this.stack.pop();
        if (f.block) f.out.break();
        return;
      case 'node':
        this.stack.pop();
        this.finish(f.open);
        return;
      case 'memo':
        this.stack.pop();
        this.keep(f);
        return;
    }
  }

  /** Keeps what an element's walk wrote, unless something in it makes that unsafe (./reuse.ts). */
  private keep(f: Extract<Frame, { k: 'memo' }>): void {
    const visited = this.visited - f.visited;
    if (this.tainted || this.unkept !== f.kept || this.dropped !== f.dropped || visited > MAX_MEMO_VISITED) return;
    store(f.el, {
      seq: f.seq,
      generation: f.generation,
      shape: f.shape,
      key: f.key,
      walker: this.settingsKey,
      out: f.out,
      tape: this.tape,
      start: f.start,
      end: this.log.length,
      visited,
      shifting: this.shifting !== f.shifting,
      fixed: this.fixed !== f.fixed,
      nodes: this.nodes - f.nodes,
      chars: this.chars - f.chars,
      depStart: f.depStart,
      depEnd: this.deps.length,
    });
  }

  /**
   * Whether a memo's geometry still holds and its handles are still the ones the registry gives: boxes and usability
   * states are read again unless nothing has moved since the memo began (./changes.ts generation). Boxes are compared
   * in document coordinates, so a scroll of the window alone moves none but fixed and sticky ones; a clip a control
   * was judged by moves with the window's scroll (it is the box of an element of the same memo, compared just before).
   * When the window alone scrolled since (the shape stood still) and a whole walk at this shape found nothing else
   * that moves boxes then (./changes.ts steady), a box that is not pinned ({@link Ctx}) is where it was in document
   * coordinates, and so is every clip of its ancestors: it is not read again, nor are a control's states when they
   * were judged by such a box of its own and do not depend on the viewport now (no hit test then, none now: outside
   * the viewport by more than a pixel, where rounding cannot reach), or when that walk found no fixed or sticky box at
   * all and the box lies wholly in the viewport, clear of its scroll bars, then and now (its hit test is at the same
   * point of the document, and hits the same: ./geometry.ts).
   */
  private replayable(m: Memo): boolean {
    this.refreshed.length = 0;
    if (this.nodes + m.nodes >= this.flags.maxNodes) return false;
    const still = this.view.generation !== undefined && m.generation === this.view.generation;
    const steady = still || this.view.shape === undefined || m.shape !== this.view.shape ? undefined : steadyAt(m.shape);
    const scrolled = steady?.layout === true;
    const pinless = steady?.pinless === true;
    const { scrollX: x, scrollY: y } = this.view;
    for (let i = m.start; i < m.end; i++) {
      const e = m.tape.log[i]!;
      if (e.t === 'handle') {
        if (this.registry.existingHandle(e.el) !== e.h) return false;
      } else if (still) continue;
      else if (e.t === 'rect') {
        if (scrolled && !e.pinned) continue;
        const r = e.el.getBoundingClientRect();
        if (r.left + x !== e.r.left + e.sx || r.top + y !== e.r.top + e.sy || r.width !== e.r.width || r.height !== e.r.height) return false;
      } else if (e.t === 'use') {
        if (scrolled && !e.pinned && e.box && (!e.viewport || (!e.states.includes('covered') && outside(e.box, e.sx - x, e.sy - y, this.view)) || (pinless && clearBox(e.box, 0, 0, this.view) && clearBox(e.box, e.sx - x, e.sy - y, this.view)))) continue;
        const dx = e.sx - x, dy = e.sy - y;
        const clip = e.clip && (dx || dy ? { left: e.clip.left + dx, top: e.clip.top + dy, right: e.clip.right + dx, bottom: e.clip.bottom + dy } : e.clip);
        const basis: UseBasis = { viewport: false };
        const states = usability(e.el, this.cache, e.transparent, clip, this.view, e.labels ? () => this.labelsOf(e.el) : () => [], undefined, basis).join(' ');
        if (states !== e.states) return false;
        // The replay records what the states were judged by now (a later scroll compares with this place).
        this.refreshed.push([i, { ...e, clip, states, sx: x, sy: y, box: basis.box, viewport: basis.viewport }]);
      }
    }
    return true;
  }

  /** Writes what a memo's element wrote into `out`, and carries its record into this walk's log. */
  private replayMemo(m: Memo, out: Builder): void {
    let next = 0;
    for (let i = m.start; i < m.end; i++) {
      let e = m.tape.log[i]!;
      if (next < this.refreshed.length && this.refreshed[next]![0] === i) e = this.refreshed[next++]![1];
      if (e.t === 'text' || e.t === 'break' || e.t === 'push') {
        if (e.b !== m.out) this.log.push(e);
        else if (e.t === 'text') out.text(e.d);
        else if (e.t === 'break') out.break();
        else out.push(e.n);
      } else this.log.push(e);
    }
    for (let i = m.depStart; i < m.depEnd; i++) this.deps.push(m.tape.deps[i] ?? null);
    this.visited += m.visited;
    this.nodes += m.nodes;
    this.chars += m.chars;
    if (m.shifting) this.shifting++;
    if (m.fixed) this.fixed++;
  }

  /** The handle of `el`, recorded (a replay checks the registry still gives it). */
  private handle(el: Element): string {
    const h = this.registry.handleFor(el, this.describe);
    this.log.push({ t: 'handle', el, h });
    return h;
  }

  /** ./geometry.ts usability, recorded with what it was computed from; `pinned` as in {@link Ctx}, for `el` itself. */
  private usable(el: Element, transparent: boolean, clip: Clip | undefined, labels: boolean, pinned: boolean, rect?: DOMRect): string[] {
    const basis: UseBasis = { viewport: false };
    const states = usability(el, this.cache, transparent, clip, this.view, labels ? () => this.labelsOf(el) : () => [], rect, basis);
    this.log.push({ t: 'use', el, transparent, clip, labels, states: states.join(' '), sx: this.view.scrollX, sy: this.view.scrollY, pinned, box: basis.box, viewport: basis.viewport });
    return states;
  }

  /** Records the elements outside `el` its readings may include: its labels, the elements its IDREFs name. */
  private noteRefs(el: Element): void {
    const tag = el.localName;
    if (tag === 'label') {
      const c = (el as HTMLLabelElement).control;
      if (c) this.deps.push(c);
      else if (el.hasAttribute('for')) this.deps.push(null);
    }
    if (LABELABLE.has(tag)) {
      for (const l of this.cache.labels(el)) this.deps.push(l);
      if (el.id) this.deps.push(null);
    }
    for (const a of IDREFS) {
      const v = el.getAttribute(a);
      if (v === null) continue;
      const root = el.getRootNode() as Document | ShadowRoot;
      for (const id of v.trim().split(/\s+/)) {
        const t = id ? root.getElementById(id) : null;
        this.deps.push(t);
      }
    }
  }

  private node(n: Node, ctx: Ctx, out: Builder): void {
    if (n.nodeType === Node.TEXT_NODE) {
      this.visited++;
      const data = (n as Text).data;
      if (ctx.visible && !ctx.mute) {
        out.text(data);
        if (NOT_BLANK.test(data)) this.chars += data.length;
      }
      // Where its element's box is, so that new text in it that moves nothing keeps the geometry read (./text-moves.ts).
      const parent = n.parentNode;
      if (this.view.generation !== undefined && parent?.nodeType === Node.ELEMENT_NODE && NOT_BLANK.test(data)) {
        noteTextBox(parent as Element, this.cache.style(parent as Element).display, this.view.generation);
      }
    } else if (n.nodeType === Node.ELEMENT_NODE) {
      const el = n as Element;
      if (!this.tainted && ctx.shadow !== true) {
        const key = ctxKey(ctx);
        if (this.replay) {
          const m = recall(el, key, this.settingsKey, this.selectorText);
          // Only what stays short of where this call stops: the walk then stops where a fresh one does.
          if (m && this.chars + m.chars < this.target && this.replayable(m)) {
            const start = this.log.length, depStart = this.deps.length;
            this.replayMemo(m, out);
            // Kept again on this walk's record (checked just now), so it outlives the record it came from; so are the
            // memos inside it, found through the move when their own record is let go.
            if (!this.tainted) {
              const seq = currentSeq();
              noteMove(m, this.tape, start, depStart, out, seq, this.view.generation, this.view.shape);
              store(el, { ...m, seq, generation: this.view.generation, shape: this.view.shape, tape: this.tape, out, start, end: this.log.length, depStart, depEnd: this.deps.length });
            }
            return;
          }
        }
        // Below the frames the element's walk pushes: popped once all of it is done.
        this.stack.push({ k: 'memo', el, key, out, start: this.log.length, depStart: this.deps.length, seq: currentSeq(), generation: this.view.generation, shape: this.view.shape, visited: this.visited, nodes: this.nodes, chars: this.chars, dropped: this.dropped, kept: this.unkept, shifting: this.shifting, fixed: this.fixed });
      }
      this.element(el, ctx, out);
    }
  }

  /** Queues the DOM children of `el` as rendered: its shadow tree if it has one, a slot's assigned nodes, else its children. */
  private content(el: Element, ctx: Ctx, out: Builder): void {
    const shadow = this.cache.shadow(el);
    if (shadow) {
      this.redactor.shield(shadow);
      watchRoot(shadow);
      watchShadow(shadow);
      observeSecretFlips(shadow);
      this.stack.push({ k: 'kids', parent: shadow, last: null, ctx: { ...ctx, shadow: true }, out });
      return;
    }
    if (el.localName === 'slot') {
      // https://html.spec.whatwg.org/multipage/scripting.html#the-slot-element — fallback content when nothing is assigned.
      const assigned = (el as HTMLSlotElement).assignedNodes();
      if (assigned.length) {
        this.stack.push({ k: 'list', nodes: assigned, i: 0, ctx, out });
        return;
      }
    }
    if (el.localName === 'details' && !(el as HTMLDetailsElement).open) {
      // A closed <details> shows only its summary (https://html.spec.whatwg.org/multipage/interactive-elements.html#the-details-element).
      const summary = Array.from(el.children).find((c) => c.localName === 'summary');
      if (summary) this.stack.push({ k: 'list', nodes: [summary], i: 0, ctx, out });
      return;
    }
    this.stack.push({ k: 'kids', parent: el, last: null, ctx, out });
  }

  /**
   * Whether `el` is positioned otherwise than static or relative ({@link PLAIN_POSITIONS}), counting a fixed or sticky
   * one. Its position is read when the style sheets may position boxes, its `style` attribute may, or the browser's own
   * sheet may; otherwise nothing can.
   */
  private positioned(el: Element, style: CSSStyleDeclaration): boolean {
    if (!this.positions && !positionedByBrowser(el) && !INLINE_POSITION.test(el.getAttribute('style') ?? '')) return false;
    const position = style.position;
    if (position === 'fixed' || position === 'sticky') this.fixed++;
    return !PLAIN_POSITIONS.has(position);
  }

  /**
   * Notes a subtree the walk does not enter though the browser may render it: what it holds is looked at for what
   * moves boxes when the window scrolls (fixed, sticky, `content-visibility: auto`, a shadow tree, a drawing), up to
   * {@link SKIPPED_SCAN} elements; past that, or when one is found, no whole walk of this document can tell that none
   * moves (./changes.ts steady).
   */
  private skipping(el: Element): void {
    if (this.cache.style(el).display === 'none') return;
    const inside = el.getElementsByTagName('*');
    if (inside.length > SKIPPED_SCAN) {
      this.shifting++;
      return;
    }
    for (const e of [el, ...Array.from(inside)]) {
      const style = this.cache.style(e);
      if (style.display === 'none') continue;
      if (this.cache.shadow(e) || e.localName === 'foreignObject' || (style.display !== 'inline' && style.contentVisibility === 'auto')) {
        this.shifting++;
        return;
      }
      this.positioned(e, style);
    }
  }

  /**
   * Whether the browser skips rendering `el`'s content (`content-visibility: hidden`, which `hidden="until-found"`
   * also sets: https://drafts.csswg.org/css-contain-2/#content-visibility). The browser is asked through
   * `checkVisibility()` on the first element child (https://drafts.csswg.org/cssom-view/#dom-element-checkvisibility);
   * text alone in a skipped element is skipped with it.
   */
  private skipsContent(el: Element, contentVisibility: string | undefined): boolean {
    if (contentVisibility !== 'hidden') return false;
    const first = el.firstElementChild ?? this.cache.shadow(el)?.firstElementChild;
    if (!first || typeof (first as Element & { checkVisibility?: unknown }).checkVisibility !== 'function') return true;
    return !first.checkVisibility();
  }

  private element(el: Element, ctx: Ctx, out: Builder): void {
    this.visited++;
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) {
      // Some render when a page says so (noscript content without scripting, a style element shown).
      this.skipping(el);
      return;
    }
    if (tag === 'input' || tag === 'select' || tag === 'textarea') noteControl(el);
    // A custom element may take its role and states from internals the page sets with no mutation.
    if (tag.includes('-')) this.unkept++;
    if (this.nodes >= this.flags.maxNodes) {
      this.dropped++;
      return;
    }
    // https://www.w3.org/TR/wai-aria-1.2/#aria-hidden and https://html.spec.whatwg.org/multipage/interaction.html#the-inert-attribute
    if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert')) {
      this.skipping(el);
      return;
    }
    if (this.redactor.matchesUser(el)) {
      this.skipping(el);
      this.push(out, { role: 'redacted' }, ctx.depth);
      return;
    }
    const style = this.cache.style(el);
    const display = style.display;
    if (display === 'none') return;
    // Read once (each read of a computed value costs), for what moves boxes and what is skipped (`hidden`).
    const contentVisibility = display !== 'inline' && display !== 'contents' ? style.contentVisibility : undefined;
    if (contentVisibility === 'auto') this.shifting++;
    this.noteRefs(el);
    const visible = style.visibility === 'visible';
    const block = display !== 'contents' && !display.startsWith('inline') && display !== 'ruby';
    const transparent = ctx.transparent || style.opacity === '0';
    const pinned = this.positioned(el, style) || ctx.pinned;
    let clip = ctx.clip;
    /** The bounding box, when the overflow check needed it (handed on to the usability check). */
    let rect: DOMRect | undefined;
    // The shorthand answers `visible` for the common case in one read; the longhands only when it does not.
    if (display !== 'contents' && (display !== 'inline' || REPLACED.has(tag)) && style.overflow !== 'visible') {
      const ox = style.overflowX, oy = style.overflowY;
      if (ox !== 'visible' || oy !== 'visible') {
        const r = (rect = el.getBoundingClientRect());
        this.log.push({ t: 'rect', el, r, sx: this.view.scrollX, sy: this.view.scrollY, pinned });
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
    /** The browser renders none of the content (the element's own box still shows). */
    const skipped = block && this.skipsContent(el, contentVisibility);

    let role = visible ? this.cache.role(el) : null;
    /** The role as computed (the walker may call an element a textbox or clickable instead). */
    const computed = role;
    let act = false;
    if (role !== null && INTERACTIVE_ROLES.has(role)) act = true;
    if (visible && el instanceof HTMLElement && el.isContentEditable && !el.parentElement?.isContentEditable) {
      if (role === null || COLLAPSIBLE.has(role)) role = 'textbox';
      act = true;
    }
    // A draggable element (a card on a board, a sortable list item) is acted on by dragging, whatever it is inside.
    const draggable = visible && !act && el.getAttribute('draggable') === 'true';
    if (draggable) {
      if (role === null || COLLAPSIBLE.has(role) || role === 'img') role = 'clickable';
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
      const replaced = this.hiddenControlOfLabel(el as HTMLLabelElement, ctx, pinned);
      if (replaced) {
        this.push(out, replaced, ctx.depth);
        return;
      }
    }
    const inert = this.flags.inert === true || (this.env.modal && !ctx.inModal);
    if (tag === 'iframe' || tag === 'frame') {
      if (!visible) return;
      // Its frame's lines are stitched in by reference: not replayed.
      this.unkept++;
      const node: SnapNode = { role: 'iframe', handle: this.handle(el) };
      const name = this.cache.name(el, true);
      if (name) node.name = cap(name, this.flags.nameLimit);
      // A frame a person cannot see into shows nothing: a zero-size frame is not stitched; other states pass down.
      const states = usability(el, this.cache, ctx.transparent, ctx.clip, this.view, () => [], rect).filter((s) => s !== 'covered');
      for (const s of this.flags.inherit ?? []) if (!states.includes(s)) states.push(s);
      if (states.length) node.states = states;
      const ref = states.includes('zero-size') ? undefined : this.frameRef(el as HTMLIFrameElement);
      if (ref !== undefined) {
        node.frame = ref;
        this.frames.set(node, { inert, inherit: states.filter((s) => INHERITED.has(s)) });
      }
      this.nodes++;
      this.push(out, node, ctx.depth);
      return;
    }
    if (tag === 'svg' || tag === 'canvas' || (role === 'img' && tag === 'img')) {
      if (!visible) return;
      const name = collapseWhitespace(this.cache.name(el, true));
      // The parts of a drawing that act as controls (a chart's legend buttons, a map's regions), unless the whole
      // drawing is one control or sits inside one.
      // Its content is not walked: HTML in a foreignObject could be anything.
      if (tag === 'svg' && el.querySelector('foreignObject') !== null) this.shifting++;
      const parts = tag === 'svg' && !act && !ctx.inAct ? this.svgControls(el, ctx, inert) : [];
      if (!name && tag !== 'canvas' && !act) {
        for (const p of parts) this.push(out, p, ctx.depth);
        return;
      }
      const node: SnapNode = { role: tag === 'canvas' ? 'canvas' : act ? role ?? 'img' : 'img', handle: this.handle(el) };
      if (name) node.name = cap(name, this.flags.nameLimit);
      if (act) this.markAct(el, node, ctx.transparent, ctx.clip, rect, inert, pinned);
      if (draggable) node.states = [...(node.states ?? []), 'draggable'];
      if (parts.length) node.children = parts;
      this.nodes++;
      this.push(out, node, ctx.depth);
      return;
    }

    const emit = role !== null && (!COLLAPSIBLE.has(role) || this.hasAuthorName(el, role));
    if (!emit) {
      if (skipped) return;
      // A label's text names its control (https://html.spec.whatwg.org/multipage/forms.html#the-label-element).
      const control = tag === 'label' ? (el as HTMLLabelElement).control : null;
      const mute = ctx.mute || (control !== null && this.cache.style(control).display !== 'none');
      const inner: Ctx = { visible, transparent, clip, parent: style, inAct: ctx.inAct, depth: ctx.depth, mute, inModal: ctx.inModal, pinned };
      if (block) out.break();
      this.stack.push({ k: 'wrap', out, block });
      this.content(el, inner, out);
      return;
    }

    // An outline node.
    const node: SnapNode = { role: role! };
    this.nodes++;
    if (!UNNAMED.has(role!) && role !== 'clickable' && (role !== 'row' || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby'))) {
      const name = collapseWhitespace(this.cache.name(el, true, role === computed ? role! : undefined));
      if (name) node.name = cap(name, this.flags.nameLimit);
    }
    const redacted = isSecretField(el);
    const value = redacted ? undefined : controlValue(el, role!, this.flags.valueLimit);
    if (value !== undefined && value !== '') node.value = value;
    if (act && !redacted) {
      const desc = description(el, node.name);
      if (desc) node.description = desc;
    }
    const states = controlStates(el, role!, this.focused, redacted);
    if (redacted) states.push('redacted');
    const url = linkUrl(el);
    if (url) node.url = this.redactor.scrubUrl(url);
    if (act || READABLE.has(role!)) node.handle = this.handle(el);
    if (act) {
      node.act = 1;
      // Its own overflow clips its content, not its own box: judge it by its ancestors' clip.
      for (const st of this.usable(el, ctx.transparent, ctx.clip, true, pinned, rect)) states.push(st);
      for (const st of this.flags.inherit ?? []) if (!states.includes(st)) states.push(st);
    }
    if (draggable) states.push('draggable');
    if (role === 'cell' || role === 'gridcell' || role === 'columnheader' || role === 'rowheader') spans(el, states);
    const partial = ITEM_CONTAINERS.has(role!) && windowed(el) ? partialState(el) : undefined;
    if (partial) states.push(partial);
    const modal = states.includes('modal');
    if (modal && !this.env.modal && !this.flags.inert) {
      this.unexpectedModal = true;
      this.unkept++;
    }
    if (act && inert && !modal) states.push('inert');
    if (states.length) node.states = states;

    // Children: form controls own their content (options of a select are listed; text fields have a value).
    if (tag === 'select') {
      if (!redacted) node.children = this.options(el as HTMLSelectElement);
      this.place(out, node, block, ctx.depth);
      return;
    }
    if (redacted || skipped || tag === 'input' || tag === 'textarea' || (role === 'textbox' && (el as HTMLElement).isContentEditable)) {
      this.place(out, node, block, ctx.depth);
      return;
    }
    const deep = ctx.depth + 1 >= this.flags.maxDepth;
    // A container named from its content repeats what its children say: once an element child comes, the name goes.
    const nameMayDrop = node.name !== undefined && !act && NAME_FROM_CONTENT.has(role!) && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby');
    const open = new OpenNode(node, el, out, block, deep, nameMayDrop, this.flags.textLimit);
    open.kids.log = this.log;
    const inner: Ctx = { visible, transparent, clip, parent: style, inAct: ctx.inAct || act, depth: deep ? ctx.depth : ctx.depth + 1, mute: ctx.mute, inModal: ctx.inModal || modal, pinned };
    if (!deep) this.openChild.set(out, open);
    this.stack.push({ k: 'node', open });
    this.content(el, inner, deep ? out : open.kids);
  }

  /** Finishes an outline node whose content has been walked and hands it to its parent. */
  private finish(open: OpenNode): void {
    const { node } = open;
    if (!open.deep && this.openChild.get(open.out) === open) this.openChild.delete(open.out);
    const children = open.kids.done();
    if (node.role === 'clickable' && children.length && children.every((c) => c.role === 'text')) {
      node.name = cap(children.map((c) => c.name).join(' '), this.flags.nameLimit);
    } else if (children.length) {
      // A named node whose children are all text decides only now whether its first child repeats the name.
      if (!open.shiftDone && node.name && children.length > 1 && children[0]!.role === 'text' && children[0]!.name === node.name) children.shift();
      node.children = children;
    }
    open.done = true;
    this.place(open.out, node, open.block, -1);
  }

  /** Hands a finished node to its parent's builder (block boundaries end the text runs around it). */
  private place(out: Builder, node: SnapNode, block: boolean, depth: number): void {
    if (block) out.break();
    this.push(out, node, depth);
    if (block) out.break();
  }

  private push(out: Builder, node: SnapNode, depth: number): void {
    out.push(node);
    this.chars += lineEstimate(node) + Math.max(depth, 0);
  }

  /** Whether a collapsible role carries a name of its own (then it is kept: a named group, form or region). */
  private hasAuthorName(el: Element, role: string): boolean {
    if (UNNAMED.has(role)) return false;
    if (!(el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.localName === 'fieldset' || role === 'group' || role === 'region' || role === 'form')) return false;
    return collapseWhitespace(this.cache.name(el, true, role)) !== '';
  }

  /** `el.labels` from the walk's per-scope label map (the native getter searches the document for each element). */
  private labelsOf(el: Element): readonly Element[] {
    return this.cache.labels(el);
  }

  /**
   * A native checkbox or radio hidden with display:none or visibility:hidden behind a styled label (a "switch") is
   * still operable through its label: show the control, with its handle, where the label is.
   */
  private hiddenControlOfLabel(label: HTMLLabelElement, ctx: Ctx, pinned: boolean): SnapNode | undefined {
    const control = label.control;
    if (!(control instanceof HTMLInputElement) || (control.type !== 'checkbox' && control.type !== 'radio')) return undefined;
    const cs = this.cache.style(control);
    if (cs.display !== 'none' && cs.visibility === 'visible') return undefined;
    const role = control.getAttribute('role') === 'switch' ? 'switch' : control.type;
    const node: SnapNode = { role, handle: this.handle(control), act: 1 };
    const name = collapseWhitespace(label.textContent ?? '') || collapseWhitespace(this.cache.name(control));
    if (name) node.name = cap(name, this.flags.nameLimit);
    const states = controlStates(control, role, this.focused, isSecretField(control));
    // Its checkedness shows on this line: a later change of it must void the reading, as for a control read itself.
    noteControl(control);
    for (const st of this.usable(label, ctx.transparent, ctx.clip, false, pinned)) states.push(st);
    for (const st of this.flags.inherit ?? []) if (!states.includes(st)) states.push(st);
    if (this.flags.inert === true || (this.env.modal && !ctx.inModal)) states.push('inert');
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

  /**
   * The elements inside an `<svg>` that act as controls, each an outline node with a handle: an interactive ARIA role
   * (a `<g role="button">`), a link (`<a href>`), a tabindex, an inline click handler, or a pointer cursor of its own
   * (https://www.w3.org/TR/svg-aam-1.0/#include_elements). Named by `aria-label` or their `<title>` child (accname).
   * At most {@link SVG_SCAN} elements of one drawing are looked at.
   */
  private svgControls(svg: Element, ctx: Ctx, inert: boolean): SnapNode[] {
    const out: SnapNode[] = [];
    const all = svg.querySelectorAll('*');
    let inside: Element | undefined;
    for (let i = 0; i < all.length && i < SVG_SCAN; i++) {
      const el = all[i]!;
      if (inside?.contains(el)) continue;
      if (el.getAttribute('aria-hidden') === 'true' || SVG_NOT_SHOWN.has(el.localName)) continue;
      const explicit = el.hasAttribute('role') ? this.cache.role(el) : null;
      const link = el.localName === 'a' && (el.hasAttribute('href') || el.hasAttribute('xlink:href'));
      let role: string | null = explicit !== null && INTERACTIVE_ROLES.has(explicit) ? explicit : link ? 'link' : null;
      if (role === null) {
        const tabbable = el.hasAttribute('tabindex') && (el as SVGElement).tabIndex >= 0;
        if (tabbable || el.hasAttribute('onclick')) role = explicit ?? 'clickable';
        else if (this.cache.style(el).cursor === 'pointer' && el.parentElement && this.cache.style(el.parentElement).cursor !== 'pointer') role = explicit ?? 'clickable';
      }
      if (role === null) continue;
      const style = this.cache.style(el);
      if (style.display === 'none' || style.visibility !== 'visible') continue;
      inside = el;
      const node: SnapNode = { role, handle: this.handle(el) };
      const name = collapseWhitespace(this.cache.name(el, true)) || collapseWhitespace(svgTitle(el));
      if (name) node.name = cap(name, this.flags.nameLimit);
      // Inside a drawing (an HTML element in a foreignObject among them) whose positions the walk did not read: pinned.
      this.markAct(el, node, ctx.transparent, ctx.clip, undefined, inert, true);
      this.nodes++;
      out.push(node);
    }
    return out;
  }

  private markAct(el: Element, node: SnapNode, transparent: boolean, clip: Clip | undefined, rect: DOMRect | undefined, inert: boolean, pinned: boolean): void {
    node.act = 1;
    const states = this.usable(el, transparent, clip, false, pinned, rect);
    for (const st of this.flags.inherit ?? []) if (!states.includes(st)) states.push(st);
    if (inert) states.push('inert');
    if (states.length) node.states = [...(node.states ?? []), ...states];
  }
}

/** Most elements of one `<svg>` looked at for controls (a chart of thousands of marks is not read mark by mark). */
const SVG_SCAN = 2000;

/** SVG elements that draw nothing themselves (https://www.w3.org/TR/SVG2/struct.html#TermNeverRenderedElement). */
const SVG_NOT_SHOWN = new Set(['title', 'desc', 'defs', 'clipPath', 'clippath', 'mask', 'marker', 'pattern', 'linearGradient', 'lineargradient', 'radialGradient', 'radialgradient', 'symbol', 'style', 'script', 'metadata']);

/** The text of an SVG element's `<title>` child (https://www.w3.org/TR/svg-aam-1.0/#mapping_additional_nd), if any. */
function svgTitle(el: Element): string {
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (c.localName === 'title') return c.textContent ?? '';
  return '';
}

/** About how many characters a node's own line takes (the walker stops by this count; the emitter counts exactly). */
function lineEstimate(n: SnapNode): number {
  let c = n.role.length + 1;
  if (n.name) c += n.name.length + 3;
  if (n.value) c += n.value.length + 9;
  if (n.url) c += n.url.length + 1;
  if (n.handle) c += n.handle.length + 2;
  if (n.states) c += n.states.length * 8;
  return c;
}

/**
 * Whether `box`, read in viewport coordinates and moved by (`dx`, `dy`), lies outside `view`'s viewport by more than a
 * pixel (so a usability check would not come to a hit test: ./geometry.ts).
 */
function outside(box: DOMRect, dx: number, dy: number, view: View): boolean {
  return box.right + dx <= -1 || box.bottom + dy <= -1 || box.left + dx >= view.width + 1 || box.top + dy >= view.height + 1;
}

function intersect(a: Clip | undefined, b: Clip): Clip {
  if (!a) return b;
  return { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
}

/** How many rows and columns a table cell covers (https://html.spec.whatwg.org/multipage/tables.html#attributes-common-to-td-and-th-elements). */
function spans(el: Element, states: string[]): void {
  if (el.localName !== 'td' && el.localName !== 'th') {
    const rows = Number(el.getAttribute('aria-rowspan'));
    const cols = Number(el.getAttribute('aria-colspan'));
    if (rows > 1) states.push(`rowspan=${Math.floor(rows)}`);
    if (cols > 1) states.push(`colspan=${Math.floor(cols)}`);
    return;
  }
  const cell = el as HTMLTableCellElement;
  if (cell.rowSpan > 1 || cell.rowSpan === 0) states.push(`rowspan=${cell.rowSpan === 0 ? 'rest' : cell.rowSpan}`);
  if (cell.colSpan > 1) states.push(`colspan=${cell.colSpan}`);
}

const ITEM_CONTAINERS = new Set(['list', 'listbox', 'grid', 'table', 'treegrid', 'tree', 'feed', 'menu', 'rowgroup']);

function setAttributes(el: Element): boolean {
  return el.hasAttribute('aria-setsize') || el.hasAttribute('aria-rowindex') || el.hasAttribute('aria-posinset');
}

/**
 * Whether a list or grid says it is part of a larger set: `aria-rowcount` on it, or set positions on one of its first
 * items (or the first rows of its row groups). A virtualized list marks every item it renders, so a few suffice.
 */
function windowed(el: Element): boolean {
  if (el.hasAttribute('aria-rowcount')) return true;
  let k = 0;
  for (let c = el.firstElementChild; c !== null && k < 8; c = c.nextElementSibling, k++) {
    if (setAttributes(c)) return true;
    let j = 0;
    for (let g = c.firstElementChild; g !== null && j < 8; g = g.nextElementSibling, j++) if (setAttributes(g)) return true;
  }
  return false;
}

/**
 * Lists that render only a window of their rows say so through aria-setsize / aria-posinset on items or
 * aria-rowcount on the container (https://www.w3.org/TR/wai-aria-1.2/#aria-setsize): such a list is marked
 * `partial=first-last/total`, so the agent knows to scroll for more. Decided from the DOM before the walk enters the
 * list, so the list's line can be written before its items.
 */
export function partialState(el: Element): string | undefined {
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
  const shown = items.length || el.children.length;
  if (shown >= total) return undefined;
  return first <= last ? `partial=${first}-${last}/${total}` : `partial=${shown}/${total}`;
}
