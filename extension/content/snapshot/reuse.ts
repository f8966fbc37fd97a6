// Readings kept between snapshots of this document: what the walk (./walk.ts) wrote for an element's subtree, replayed
// in a later walk instead of walked again while nothing that could change it has changed. What invalidates them, and
// how, is described in docs/architecture.md ("Snapshot": "Warm snapshots"). When unsure, nothing is reused.
import type { SnapNode } from '../../../shared/snapshot/index.js';
import type { Builder } from './builder.js';
import type { Clip } from './geometry.js';
import { computeRole } from './cache.js';
import { animationRunning, moved, noteSheets, quietNames, valuesMove } from './changes.js';

/** One thing the walk did or read, in walk order (one log per walker; a memo is a slice of it). */
export type Entry =
  /** Builder operations: text into the current run, a run break, a finished node. */
  | { t: 'text'; b: Builder; d: string }
  | { t: 'break'; b: Builder }
  | { t: 'push'; b: Builder; n: SnapNode }
  /**
   * A box read in viewport coordinates (an overflow check), and the window's scroll offsets then; `pinned`: the element
   * or an ancestor is positioned otherwise than static or relative (./walk.ts: it may move when the window scrolls).
   */
  | { t: 'rect'; el: Element; r: DOMRect; sx: number; sy: number; pinned: boolean }
  /**
   * The usability states found for a control (./geometry.ts), with what they were computed from (the clip in viewport
   * coordinates at the window's scroll offsets `sx`, `sy`), whether it is pinned (as for `rect`), the box they were
   * judged by when it was the control's own, and whether they depend on where the viewport is (a hit test).
   */
  | { t: 'use'; el: Element; transparent: boolean; clip: Clip | undefined; labels: boolean; states: string; sx: number; sy: number; pinned: boolean; box: DOMRect | undefined; viewport: boolean }
  /** A handle issued. */
  | { t: 'handle'; el: Element; h: string }
  ;

/**
 * Elements outside a subtree that its readings depended on (a label by `for`, an element an IDREF names), or null for
 * a reference that named nothing (an element that comes to have that id would change the reading). One list per walker.
 */
export type Deps = Array<Element | null>;

/** What one element's subtree wrote, and what it depended on. */
export interface Memo {
  /** The change sequence number when the recording began: changes after it may invalidate the memo. */
  seq: number;
  /** The document's still-generation (./changes.ts) at the start, or undefined while things moved. */
  generation: number | undefined;
  /** Its shape count then (./changes.ts), undefined with the generation. */
  shape: number | undefined;
  /** The walk's context and the walker's settings the readings were taken under. */
  key: string;
  walker: string;
  /** The builder the element wrote into, and the slice [start, end) of the walk's log holding what it did. */
  out: Builder;
  tape: Tape;
  start: number;
  end: number;
  visited: number;
  nodes: number;
  chars: number;
  /** Its subtree holds something that may move boxes when the window scrolls, or a fixed or sticky box (./walk.ts). */
  shifting: boolean;
  fixed: boolean;
  /** The slice [depStart, depEnd) of the walk's dependencies this memo has. */
  depStart: number;
  depEnd: number;
}

/** What one walk recorded: its log and its dependencies. Dropped (emptied) once newer walks have replaced it. */
export interface Tape {
  log: Entry[];
  deps: Deps;
  alive: boolean;
  /** Where later walks copied parts of this record when they replayed a memo ({@link Move}); kept a while after it is let go. */
  moves: Move[] | undefined;
}

/**
 * A memo's slice of one record, copied into a later walk's record when that walk replayed the memo: the memos inside
 * the slice (each element's own) hold there too, moved by the same offsets. A memo whose record was let go is found at
 * its copy ({@link recall}), so a subtree replayed whole, then changed in one part, still replays its other parts.
 */
export interface Move {
  /** The slice [start, end) of the log, and [depStart, depEnd) of the dependencies, that were copied. */
  start: number;
  end: number;
  depStart: number;
  depEnd: number;
  /** The record copied to, and where the copies begin there. */
  to: Tape;
  at: number;
  depAt: number;
  /** The builder the memo wrote into, and the one its replay wrote into instead. */
  from: Builder;
  out: Builder;
  /** The change sequence number, still-generation and shape when the copy was made (every memo in the slice held then). */
  seq: number;
  generation: number | undefined;
  shape: number | undefined;
}

/** Walks whose records are kept; a memo of an older walk is void (its record is let go, bounding memory). */
const MAX_TAPES = 4;
const tapes: Tape[] = [];
/**
 * Records let go whose moves are still followed; past this many, the oldest's moves go too and memos left on it are
 * void (a memo is followed through at most this many copies).
 */
const MAX_GONE = 32;
const gone: Tape[] = [];

/** A new record for a walk; when `kept` (the walk may keep memos), the oldest kept record is let go. */
export function newTape(kept = true): Tape {
  const t: Tape = { log: [], deps: [], alive: true, moves: undefined };
  if (!kept) return t;
  tapes.push(t);
  while (tapes.length > MAX_TAPES) {
    const old = tapes.shift()!;
    old.alive = false;
    old.log = [];
    old.deps = [];
    gone.push(old);
    while (gone.length > MAX_GONE) gone.shift()!.moves = undefined;
  }
  return t;
}

/** Notes that a walk copied memo `m`'s slice into its record `to` (./walk.ts replay); see {@link Move}. */
export function noteMove(m: Memo, to: Tape, at: number, depAt: number, out: Builder, seq: number, generation: number | undefined, shape: number | undefined): void {
  (m.tape.moves ??= []).push({ start: m.start, end: m.end, depStart: m.depStart, depEnd: m.depEnd, to, at, depAt, from: m.out, out, seq, generation, shape });
}

/**
 * Memo `m`, whose record was let go, where a replay of a memo around it copied it to a record still kept; undefined
 * when there is none. It holds as it held when copied (its slice was checked with the copy), from then on.
 */
function follow(m: Memo): Memo | undefined {
  let { tape, start, end, depStart, depEnd, out, seq, generation, shape } = m;
  while (!tape.alive) {
    const mv = tape.moves?.find((v) => v.start <= start && end <= v.end);
    if (!mv) return undefined;
    start += mv.at - mv.start;
    end += mv.at - mv.start;
    depStart += mv.depAt - mv.depStart;
    depEnd += mv.depAt - mv.depStart;
    if (out === mv.from) out = mv.out;
    ({ seq, generation, shape, to: tape } = mv);
  }
  return { ...m, tape, start, end, depStart, depEnd, out, seq, generation, shape };
}

/** Largest subtree (DOM nodes visited) kept as one memo: a larger one is walked, its parts replayed. */
export const MAX_MEMO_VISITED = 2000;
/** Changes kept between two looks; past this, nothing is reused (a page rewriting itself gains nothing from it). */
const MAX_CHANGES = 500;
/** Form controls whose state (a property, not an attribute) is compared at each look. */
const MAX_CONTROLS = 20_000;

const memos = new WeakMap<Element, Memo>();
/** Roots of the subtrees that changed, in order; `changes[i]` has sequence number `base + i + 1`. */
let changes: Node[] = [];
let base = 0;
/** Memos begun at or before this sequence number are void (everything was invalidated then). */
let voidUpTo = 0;
/**
 * Changes of `data-*` attributes and class tokens no style sheet names (./changes.ts quietNames): they change nothing a
 * walk reads unless a redaction selector names them, so they void a memo only for a walk whose selectors do ({@link
 * recall}). Each with the sequence number when it was seen, the root of what it may alter, and its names.
 */
let quiet: Array<{ after: number; at: Node; names: string[] }> = [];
/** Sequence number of the last change to what IDREFs and `for` attributes can name (ids, labels). */
let refsChangedAt = 0;
let started = false;
let observer: MutationObserver | undefined;
let pending: MutationRecord[] = [];
/** An event after which any style may differ (hover, focus, toggles, transitions): everything is void at the next look. */
let eventDirty = false;
let lastKey = '';
let lastFocus: Element | null = null;
let checkedInTask = false;
/** The page's style sheets match elements by their descendants (`:has()`): any change may restyle anything. */
let hasSelector = false;
/** The page's style sheets style by form state: a control's new value may restyle its ancestors' other content. */
let formSelector = false;
/**
 * The page's style sheets select on user-action states (`:hover`, `:active`, `:focus` …): pointer, key and focus events
 * may restyle anything. Without such rules those events change nothing the walk reads but the focused element.
 */
let stateSelector = true;
let customStates = false;
const controls = new Map<Element, string>();
const shadowRoots: Array<WeakRef<ShadowRoot>> = [];
const observedRoots = new WeakSet<Node>();

const OPTIONS: MutationObserverInit = { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true };
/** Events after which styles may differ with no DOM mutation (transitions, `:target`, `:open`, drag states). */
const STYLE_EVENTS = [
  'toggle', 'fullscreenchange', 'transitionrun', 'transitionend', 'transitioncancel', 'animationstart', 'animationend', 'animationcancel',
  'resize', 'hashchange', 'popstate', 'dragstart', 'dragend', 'drop',
];
/** Events after which only user-action pseudo-classes (and form states, compared apart) match differently. */
const STATE_EVENTS = ['pointerover', 'pointerout', 'pointerdown', 'pointerup', 'mouseover', 'mouseout', 'click', 'keydown', 'keyup', 'focusin', 'focusout'];
const ID_ATTRIBUTES = new Set(['id', 'for', 'name', 'list', 'form']);
/**
 * User-action pseudo-classes (https://drafts.csswg.org/selectors-4/#useraction-pseudos) and the engine-prefixed ones
 * that follow interaction; matched on the sheets' lower-cased text, so any mention counts.
 */
const STATE_PSEUDO = /:(?:hover|active|focus|user-valid|user-invalid|-moz-focusring|-moz-ui-|-moz-drag-over|-webkit-drag)/;
const FORM_PSEUDO = /:(?:valid|invalid|user-valid|user-invalid|placeholder-shown|indeterminate|default|in-range|out-of-range|autofill|blank|checked|required|optional)\b/;

function dirty(): void {
  eventDirty = true;
}

function stateDirty(): void {
  if (stateSelector) eventDirty = true;
}

function seq(): number {
  return base + changes.length;
}

/** Everything recorded so far is void. */
function voidAll(): void {
  moved();
  voidUpTo = seq() + 1;
  base = voidUpTo;
  changes = [];
  quiet = [];
}

function observe(root: Document | ShadowRoot): void {
  if (observedRoots.has(root)) return;
  observedRoots.add(root);
  observer!.observe(root, OPTIONS);
}

function start(): void {
  if (started) return;
  started = true;
  observer = new MutationObserver((records) => {
    if (pending.length > MAX_CHANGES) return;
    for (const r of records) pending.push(r);
  });
  observe(document);
  for (const type of STYLE_EVENTS) addEventListener(type, dirty, { capture: true, passive: true });
  for (const type of STATE_EVENTS) addEventListener(type, stateDirty, { capture: true, passive: true });
  visualViewport?.addEventListener('resize', dirty, { passive: true });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', dirty);
  document.fonts?.addEventListener?.('loadingdone', dirty);
}

/** Watches a shadow root the walk entered (a document's observer does not see into it), and its style sheets. */
export function watchShadow(root: ShadowRoot): void {
  start();
  if (observedRoots.has(root)) return;
  observe(root);
  shadowRoots.push(new WeakRef(root));
}

/** The nearest composed ancestor (crossing from a shadow root to its host). */
function up(n: Node): Node | null {
  return n.parentNode ?? (n as ShadowRoot).host ?? null;
}

/** Whether `inner` is `outer` or inside it, across shadow roots. */
function within(outer: Node, inner: Node): boolean {
  for (let n: Node | null = inner; n; n = up(n)) if (n === outer) return true;
  return false;
}

const ITEM_ROLES = new Set(['row', 'listitem', 'treeitem', 'article']);

/**
 * The root of what a change at `n` may alter: its parent (sibling selectors, `:nth-child`, `:empty`), widened to the
 * list item or row it is in (a handle is bound to its row's key, ../fingerprint.ts).
 */
function widen(n: Node): Node {
  return widenAt(up(n) ?? n);
}

/** `root` widened to the list item or row it is in. */
function widenAt(root: Node): Node {
  let k = 0;
  for (let p: Node | null = root; p && k < 10; p = up(p), k++) {
    if (p.nodeType === Node.ELEMENT_NODE && ITEM_ROLES.has(computeRole(p as Element) ?? '')) root = p;
  }
  return root;
}

function namesIds(n: Node): boolean {
  if (n.nodeType !== Node.ELEMENT_NODE) return false;
  const el = n as Element;
  return el.hasAttribute('id') || el.localName === 'label' || el.querySelector('[id], label') !== null;
}

function takeRecords(): void {
  for (const r of observer!.takeRecords()) pending.push(r);
  if (pending.length > MAX_CHANGES || (hasSelector && pending.length)) {
    pending = [];
    voidAll();
    return;
  }
  for (const r of pending) {
    if (r.type === 'childList') {
      changes.push(widenAt(r.target));
      for (const list of [r.addedNodes, r.removedNodes]) for (const n of Array.from(list)) if (namesIds(n)) refsChangedAt = seq();
    } else {
      const names = quietNames(r);
      if (names) {
        quiet.push({ after: seq(), at: widen(r.target), names });
        continue;
      }
      changes.push(widen(r.target));
      if (r.type === 'attributes' && ID_ATTRIBUTES.has(r.attributeName ?? '')) refsChangedAt = seq();
    }
  }
  pending = [];
  if (changes.length > MAX_CHANGES || quiet.length > MAX_CHANGES) voidAll();
}

/** The text of every style sheet this document and its watched shadow roots use (sheets the page cannot read: their address). */
function styleText(): string {
  const parts: string[] = [];
  const sheets = (list: Iterable<CSSStyleSheet>) => {
    for (const s of list) {
      parts.push(s.disabled ? '0' : '1', s.media.mediaText);
      try {
        for (const r of Array.from(s.cssRules)) parts.push(r.cssText);
      } catch {
        parts.push(`@unreadable ${s.href ?? ''}`);
      }
    }
  };
  sheets(Array.from(document.styleSheets));
  sheets(document.adoptedStyleSheets ?? []);
  for (const ref of shadowRoots) {
    const r = ref.deref();
    if (!r) continue;
    sheets(Array.from(r.styleSheets));
    sheets(r.adoptedStyleSheets ?? []);
  }
  return parts.join('\n');
}

/** The state of a form control that lives in properties (value, checkedness, selectedness), as one string. */
function controlState(el: Element): string {
  if (el.localName === 'select') return Array.from((el as HTMLSelectElement).options, (o) => (o.selected ? '1' : '0')).join('');
  const input = el as HTMLInputElement;
  return `${input.value}\u0000${input.checked ? 1 : 0}${input.indeterminate ? 1 : 0}`;
}

/** Notes a form control the walk read, so a later change of its value or checkedness is noticed (compared at each look). */
export function noteControl(el: Element): void {
  if (controls.size < MAX_CONTROLS || controls.has(el)) controls.set(el, controlState(el));
}

/**
 * Brings the record of changes up to date, once per task (a walk continued in the same task sees the same page).
 * Returns whether readings may be reused in this walk at all: not while an animation runs (it changes style with no
 * event), nor when `fresh` is asked.
 */
export function look(focused: Element | null): boolean {
  start();
  if (!checkedInTask) {
    checkedInTask = true;
    queueMicrotask(() => (checkedInTask = false));
    const css = styleText();
    const lower = css.toLowerCase();
    hasSelector = lower.includes(':has(');
    // Custom states (`:state()`) change with no mutation and no event.
    customStates = lower.includes(':state(') || lower.includes(':--');
    formSelector = FORM_PSEUDO.test(lower);
    const stateBefore = stateSelector;
    stateSelector = STATE_PSEUDO.test(lower);
    noteSheets(lower, stateSelector, formSelector);
    const key = [innerWidth, innerHeight, devicePixelRatio, document.designMode, location.href, document.baseURI, css].join('\u0001');
    takeRecords();
    if (eventDirty || key !== lastKey || controls.size >= MAX_CONTROLS) voidAll();
    else if (focused !== lastFocus) {
      // The focused element shows as such; with focus rules in the sheets (then `stateBefore`), anything may restyle.
      if (stateBefore || stateSelector) voidAll();
      else for (const f of [lastFocus, focused]) if (f?.isConnected && f !== document.body && f !== document.documentElement) changes.push(widen(f));
    }
    eventDirty = false;
    lastKey = key;
    lastFocus = focused;
    for (const [el, state] of controls) {
      if (!el.isConnected) {
        controls.delete(el);
        continue;
      }
      const now = controlState(el);
      if (now === state) continue;
      controls.set(el, now);
      if (formSelector) voidAll();
      else {
        // A new value moves nothing unless a control sizes to its content (`field-sizing`): ./changes.ts.
        if (valuesMove()) moved();
        changes.push(widen(el));
      }
    }
    if (changes.length > MAX_CHANGES) voidAll();
  }
  return !customStates && !animationRunning();
}

/** The current change sequence number (a memo begun now is invalidated by changes after it). */
export function currentSeq(): number {
  return seq();
}

export function store(el: Element, memo: Memo): void {
  memos.set(el, memo);
}

/** Whether one of `names` (./changes.ts quietNames) may be what a redaction selector of `selectors` matches by. */
function named(selectors: string, names: string[]): boolean {
  // An escaped identifier could spell a name other than as it is written.
  return selectors.includes('\\') || names.some((n) => selectors.includes(n));
}

/**
 * The memo of `el` taken under the same context and settings, when no change since it began can have touched the
 * element's subtree or what its readings depended on. Geometry is checked by the caller (it moves without changes).
 * `selectors`: the walk's redaction selectors, joined and lower-cased (quiet changes count for those they name).
 */
export function recall(el: Element, key: string, walker: string, selectors: string): Memo | undefined {
  let m = memos.get(el);
  if (!m || m.key !== key || m.walker !== walker) return undefined;
  if (!m.tape.alive) {
    m = follow(m);
    if (!m) {
      memos.delete(el);
      return undefined;
    }
    memos.set(el, m);
  }
  const refs = m.depEnd > m.depStart;
  if (m.seq < voidUpTo || (refs && refsChangedAt > m.seq)) {
    memos.delete(el);
    return undefined;
  }
  if (selectors !== '') {
    for (const q of quiet) {
      if (q.after < m.seq || !named(selectors, q.names)) continue;
      let hit = within(q.at, el) || within(el, q.at);
      for (let j = m.depStart; j < m.depEnd && !hit; j++) {
        const d = m.tape.deps[j];
        if (d) hit = within(q.at, d) || within(d, q.at);
      }
      if (hit) {
        memos.delete(el);
        return undefined;
      }
    }
  }
  const from = m.seq - base;
  if (from < changes.length) {
    for (let i = Math.max(from, 0); i < changes.length; i++) {
      const c = changes[i]!;
      let hit = within(c, el) || within(el, c);
      for (let j = m.depStart; j < m.depEnd && !hit; j++) {
        const d = m.tape.deps[j];
        if (d) hit = within(c, d) || within(d, c);
      }
      if (hit) {
        memos.delete(el);
        return undefined;
      }
    }
  }
  return m;
}
