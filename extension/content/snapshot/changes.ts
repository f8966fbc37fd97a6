// Whether this document may have changed since a moment: two counters, one moved by DOM mutations (of the document and
// of every shadow root a walk has entered, closed ones included), one also by whatever moves or repaints things without
// a mutation (scrolling, resizing, loads, fonts, animations and transitions; pointer, focus and input events when the
// page's style sheets select on what they change). Mutations that cannot restyle anything (below), and new text that
// left its element's box where it was (./text-moves.ts, judged at the next look), leave the second alone.
// Hit tests are reused while the second stands still (./geometry.ts); a reading reports a change when the first moved.
// A third, the shape, moves with the second except when the window alone scrolled: while it stands still, every box
// that is neither fixed nor sticky, nor inside one, is where it was in document coordinates (./walk.ts replays).

import { shadowRootOf } from './dom.js';
import { textKeptPlace } from './text-moves.js';

let started = false;
let mutations = 0;
let generation = 0;
let shape = 0;
let observer: MutationObserver | undefined;
/**
 * The observer stops at the first mutation it sees (the counters have moved; more mutations add nothing until the
 * next look), so a busy page costs nothing between snapshots; the next look connects it again.
 */
let connected = false;
const watched = new WeakSet<Node>();
/** The window's scroll offsets when last seen (at a look, or at a scroll of the window). */
let lastScroll = { x: 0, y: 0 };
/** Shadow roots watched so far, to observe again after a pause (weakly held: removed components are let go). */
const roots: Array<WeakRef<ShadowRoot>> = [];
const MAX_ROOTS = 10_000;
/** More shadow roots than MAX_ROOTS: some could not be observed again after a pause, so nothing is reused. */
let overflow = false;
const OPTIONS: MutationObserverInit = { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true, characterDataOldValue: true };

/** Events after which what is under a point, or what shows, may differ (listened to in the capture phase, passively). */
const MOVING_EVENTS = [
  'resize', 'load', 'error', 'transitionrun', 'transitionend', 'transitioncancel', 'animationstart', 'animationend',
  'animationcancel', 'toggle', 'fullscreenchange',
];
/**
 * Events that change only user-action pseudo-class matches (`:hover`, `:active`, `:focus` …) and the state of form
 * controls: they can move or hide something only through style sheets that select on those (what they do otherwise,
 * a page's handler does by mutations or scrolling, seen apart).
 */
const STATE_EVENTS = ['pointerover', 'pointerout', 'pointerdown', 'pointerup', 'click', 'keydown', 'focusin', 'focusout'];
/** Events of a control's new value: it can resize the control (`field-sizing`) or restyle through form pseudo-classes. */
const VALUE_EVENTS = ['input', 'change'];

/**
 * What the page's style sheets select on, as last read (./reuse.ts, at each look; a change of any sheet voids every
 * reading there and moves the generation). Until a first look, everything is assumed.
 */
let sheets: { css: string; state: boolean; form: boolean; sizing: boolean; positions: boolean; pins: boolean; shifts: boolean } | undefined;

/**
 * Words of a sheet's text without which it positions no box otherwise than static or relative: the keywords, and the
 * values it could take them from (a custom property, an attribute). Rules of a sheet another one imports, and of a
 * sheet the page cannot read (./reuse.ts marks it `@unreadable`), are not in the text.
 */
const POSITIONS = /fixed|sticky|absolute|var\(|attr\(|@import|@unreadable/;
/** The same, for fixed and sticky boxes alone (they, and what they hold, move with the viewport). */
const PINS = /fixed|sticky|var\(|attr\(|@import|@unreadable/;
/**
 * Words of a sheet's text without which nothing it says moves boxes when the window scrolls: animations driven by a
 * scroll timeline, container queries on scroll state.
 */
const SHIFTS = /timeline|scroll-state|@import|@unreadable/;

/** Tells what the page's style sheets (their text, lower-cased) select on; called at each look. */
export function noteSheets(css: string, state: boolean, form: boolean): void {
  sheets = { css, state, form, sizing: css.includes('field-sizing'), positions: POSITIONS.test(css), pins: PINS.test(css), shifts: SHIFTS.test(css) };
}

/**
 * Whether the page's style sheets, as of the last look, may position a box otherwise than static or relative (./walk.ts
 * then reads each element's position; when not, only elements the browser's own sheet positions, and those whose
 * `style` attribute may, can be).
 */
export function sheetsPosition(): boolean {
  return sheets?.positions ?? true;
}

/**
 * What a whole walk of the document found at one shape (./walk.ts): `layout`, nothing there moves a box in document
 * coordinates when the window alone scrolls but fixed and sticky ones and what they hold (no `content-visibility:
 * auto`, whose boxes change size as they near the viewport; no scroll-driven style in the sheets; nothing it did not
 * walk); `pinless`, besides, no box is fixed or sticky at all (pseudo-elements included), so what a point of the
 * document hits stays while the shape does.
 */
let steady: { shape: number; layout: boolean; pinless: boolean } | undefined;

/** Notes what a whole walk of the document found at `shape` ({@link steady}); the sheets' part is added here. */
export function noteSteady(shape: number, layout: boolean, pinless: boolean): void {
  const still = layout && sheets !== undefined && !sheets.shifts;
  steady = { shape, layout: still, pinless: still && pinless && !sheets!.pins };
}

/** What a whole walk found at `shape` ({@link steady}), if one was made at that shape. */
export function steadyAt(shape: number | undefined): { layout: boolean; pinless: boolean } | undefined {
  return steady && steady.shape === shape ? steady : undefined;
}

/** Whether a control's new value or checkedness can move or repaint other things (./reuse.ts compares them). */
export function valuesMove(): boolean {
  return sheets === undefined || sheets.form || sheets.sizing;
}

function bump(): void {
  generation++;
  shape++;
  // Text changes noted before are judged against boxes of older generations: they would move it anyway.
  pendingText = [];
}

/** The window has scrolled since the last look (a `scroll` event at the document); its offsets are read then. */
let windowScrolled = false;

/**
 * Whether the window scrolled since the last look (an event said so, or its offsets differ from then): what lies under
 * a point of the viewport moved, but in document coordinates no box did but fixed and sticky ones and what they hold
 * (the shape stands still). Text changes still waiting to be judged stay: their boxes were noted in the generation
 * before, so they move both counters when judged.
 */
function scrolled(): void {
  const x = scrollX, y = scrollY;
  if (!windowScrolled && x === lastScroll.x && y === lastScroll.y) return;
  windowScrolled = false;
  lastScroll = { x, y };
  generation++;
}

/**
 * A scroll event: of the window (fired at the document; its offsets are compared at the next look, since reading them
 * here would lay the page out at each event) or of an element, whose content moves in the document.
 */
function onScroll(e: Event): void {
  if (e.target === document) windowScrolled = true;
  else bump();
}

function stateBump(): void {
  if (sheets === undefined || sheets.state || sheets.form) bump();
}

function valueBump(): void {
  if (valuesMove()) bump();
}

/** A class token the sheets' text can name only as itself (an identifier that needs no CSS escape). */
const PLAIN_TOKEN = /^[a-z_][a-z0-9_-]*$/i;

function tokens(v: string | null): Set<string> {
  return new Set((v ?? '').split(/[ \t\n\f\r]+/).filter(Boolean));
}

/**
 * Whether a mutation cannot restyle or move anything: a `data-*` or `aria-*` attribute, or class tokens added or
 * removed, that no style sheet of the page names (neither browser's own style sheet selects on them; the sheets read
 * are the document's and those of the shadow roots walks entered), on an element that hosts no shadow root and is no
 * host's child (a shadow tree's sheets could select on them: `:host([data-x])`, `::slotted(.x)`). A new sheet naming
 * them voids everything at the next look anyway.
 */
function neutral(r: MutationRecord): boolean {
  if (r.type === 'characterData') return textChange(r);
  if (r.type !== 'attributes' || !sheets || r.attributeNamespace !== null) return false;
  const el = r.target as Element;
  const parent = el.parentElement;
  if (shadowRootOf(el) || (parent && shadowRootOf(parent))) return false;
  const name = r.attributeName ?? '';
  if (name === 'class') {
    if (sheets.css.includes('[class') || sheets.css.includes('attr(class')) return false;
    const before = tokens(r.oldValue), now = tokens(el.getAttribute('class'));
    for (const t of before) if (!now.has(t) && (!PLAIN_TOKEN.test(t) || sheets.css.includes(t.toLowerCase()))) return false;
    for (const t of now) if (!before.has(t) && (!PLAIN_TOKEN.test(t) || sheets.css.includes(t.toLowerCase()))) return false;
    return true;
  }
  return (name.startsWith('data-') || name.startsWith('aria-')) && !sheets.css.includes(name);
}

/**
 * What a change of a `data-*` attribute or of class tokens can be selected by, when it cannot restyle anything
 * ({@link neutral}): the attribute's name, or `class` and the tokens added or removed, lower-cased. Nothing else the
 * walk reads (roles, names, states, handles: ../fingerprint.ts) depends on them, so only a redaction selector could
 * (./reuse.ts). Undefined for any other change. The record must carry the attribute's old value.
 */
export function quietNames(r: MutationRecord): string[] | undefined {
  if (r.type !== 'attributes' || r.attributeNamespace !== null) return undefined;
  const name = r.attributeName ?? '';
  if (name !== 'class' && !name.startsWith('data-')) return undefined;
  if (!neutral(r)) return undefined;
  if (name !== 'class') return [name];
  const before = tokens(r.oldValue), now = tokens((r.target as Element).getAttribute('class'));
  const names = ['class'];
  for (const t of before) if (!now.has(t)) names.push(t.toLowerCase());
  for (const t of now) if (!before.has(t)) names.push(t.toLowerCase());
  return names;
}

/** Elements whose text changed since the last look, judged then (./text-moves.ts); at most MAX_PENDING_TEXT. */
let pendingText: Element[] = [];
const MAX_PENDING_TEXT = 50;
const NOT_BLANK = /\S/;

/**
 * New data of a text node that had text and still has (so no `:empty` changed, and no line box came or went): its
 * element is judged at the next look instead of moving the generation now.
 */
function textChange(r: MutationRecord): boolean {
  const el = r.target.parentNode;
  if (el?.nodeType !== Node.ELEMENT_NODE || !NOT_BLANK.test(r.oldValue ?? '') || !NOT_BLANK.test((r.target as Text).data)) return false;
  if (pendingText.includes(el as Element)) return true;
  if (pendingText.length >= MAX_PENDING_TEXT) return false;
  pendingText.push(el as Element);
  return true;
}

/** Judges the text changes since the last look: the generation moves unless each left its element's box in place. */
function judgeText(): void {
  if (!pendingText.length) return;
  const els = pendingText;
  pendingText = [];
  if (!els.every((el) => textKeptPlace(el, generation))) {
    generation++;
    shape++;
  }
}

/**
 * Moves the generation for a change found another way than by mutation or event (a style sheet rule edited through
 * the CSSOM, a form value set by script: ./reuse.ts), so no hit test from before it is reused.
 */
export function moved(): void {
  start();
  bump();
}

function connect(): void {
  if (connected) return;
  connected = true;
  observer!.observe(document, OPTIONS);
  for (let i = roots.length - 1; i >= 0; i--) {
    const r = roots[i]!.deref();
    if (r) observer!.observe(r, OPTIONS);
    else roots.splice(i, 1);
  }
}

function start(): void {
  if (started) return connect();
  started = true;
  observer = new MutationObserver((records) => {
    mutations++;
    if (records.every(neutral)) return;
    bump();
    observer!.disconnect();
    connected = false;
  });
  connect();
  addEventListener('scroll', onScroll, { capture: true, passive: true });
  for (const type of MOVING_EVENTS) addEventListener(type, bump, { capture: true, passive: true });
  for (const type of STATE_EVENTS) addEventListener(type, stateBump, { capture: true, passive: true });
  for (const type of VALUE_EVENTS) addEventListener(type, valueBump, { capture: true, passive: true });
  visualViewport?.addEventListener('resize', bump, { passive: true });
  visualViewport?.addEventListener('scroll', bump, { passive: true });
  document.fonts?.addEventListener?.('loadingdone', bump);
}

/** Folds in mutations not yet delivered to the observer (they happened in this task). */
function flush(): void {
  if (!connected) return;
  const records = observer!.takeRecords();
  if (!records.length) return;
  mutations++;
  if (records.every(neutral)) return;
  bump();
  observer!.disconnect();
  connected = false;
}

/** Watches a shadow root the walk entered (its mutations do not reach the document's observer). */
export function watchRoot(root: ShadowRoot): void {
  start();
  if (watched.has(root)) return;
  watched.add(root);
  if (roots.length < MAX_ROOTS) roots.push(new WeakRef(root));
  else overflow = true;
  observer!.observe(root, OPTIONS);
}

/** The count of DOM mutations seen so far (a difference means the DOM changed in between). */
export function mutationCount(): number {
  flush();
  start();
  return mutations;
}

/**
 * The count of everything that may change what is where, or `undefined` while an animation runs (then nothing that
 * depends on it may be reused: animations change style without events).
 */
export function stillGeneration(): number | undefined {
  flush();
  start();
  // The window scrolled in this task: its `scroll` event comes only with the next frame (then it moves nothing again).
  scrolled();
  judgeText();
  return animationRunning() || overflow ? undefined : generation;
}

/**
 * The shape count (see the top of this file), read right after {@link stillGeneration} in the same task (and only when
 * that gave a generation). Two equal shapes with different generations: the window alone scrolled in between.
 */
export function currentShape(): number {
  return shape;
}

let animationsAsked = false;
let animationsAnswer = false;

/**
 * Whether an animation or transition of the document runs now (they change style with no event), asked once per task:
 * `Document.getAnimations()` brings the document's style up to date, and nothing but this script runs until the task
 * ends (https://drafts.csswg.org/web-animations-1/#dom-documentorshadowroot-getanimations).
 */
export function animationRunning(): boolean {
  if (!animationsAsked) {
    animationsAsked = true;
    queueMicrotask(() => (animationsAsked = false));
    animationsAnswer = document.getAnimations?.().some((a) => a.playState === 'running') ?? false;
  }
  return animationsAnswer;
}
