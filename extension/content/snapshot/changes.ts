// Whether this document may have changed since a moment: two counters, one moved by DOM mutations (of the document and
// of every shadow root a walk has entered, closed ones included), one also by whatever moves or repaints things without
// a mutation (scrolling, resizing, loads, fonts, animations and transitions, pointer, focus and input events).
// Hit tests are reused while the second stands still (./geometry.ts); a reading reports a change when the first moved.

let started = false;
let mutations = 0;
let generation = 0;
let observer: MutationObserver | undefined;
/**
 * The observer stops at the first mutation it sees (the counters have moved; more mutations add nothing until the
 * next look), so a busy page costs nothing between snapshots; the next look connects it again.
 */
let connected = false;
const watched = new WeakSet<Node>();
/** Shadow roots watched so far, to observe again after a pause (weakly held: removed components are let go). */
const roots: Array<WeakRef<ShadowRoot>> = [];
const MAX_ROOTS = 10_000;
/** More shadow roots than MAX_ROOTS: some could not be observed again after a pause, so nothing is reused. */
let overflow = false;
const OPTIONS: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true };

/** Events after which what is under a point, or what shows, may differ (listened to in the capture phase, passively). */
const MOVING_EVENTS = [
  'scroll', 'resize', 'load', 'error', 'transitionrun', 'transitionend', 'transitioncancel', 'animationstart', 'animationend',
  'animationcancel', 'pointerover', 'pointerout', 'pointerdown', 'pointerup', 'click', 'keydown', 'focusin', 'focusout',
  'input', 'change', 'toggle', 'fullscreenchange',
];

function bump(): void {
  generation++;
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
  observer = new MutationObserver(() => {
    mutations++;
    generation++;
    observer!.disconnect();
    connected = false;
  });
  connect();
  for (const type of MOVING_EVENTS) addEventListener(type, bump, { capture: true, passive: true });
  visualViewport?.addEventListener('resize', bump, { passive: true });
  visualViewport?.addEventListener('scroll', bump, { passive: true });
  document.fonts?.addEventListener?.('loadingdone', bump);
}

/** Folds in mutations not yet delivered to the observer (they happened in this task). */
function flush(): void {
  if (connected && observer!.takeRecords().length) {
    mutations++;
    generation++;
  }
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
  const running = document.getAnimations?.().some((a) => a.playState === 'running') ?? false;
  return running || overflow ? undefined : generation;
}
