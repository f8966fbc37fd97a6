// What the MAIN-world scripts use of the page's globals, taken once when the page script installs itself — before any page script
// where the browser allows it (extension/background/page-hooks.ts) — so a page that later replaces JSON, CustomEvent or
// addEventListener does not change how Oriel's side behaves. (A page
// can still break its own tools; it cannot make Oriel do anything else: the content script treats all it hears as
// page content.)
import { EVALUATE_KIT_VERSION, type EvaluateKit } from '../../shared/page-channel.js';

/**
 * What evaluate's runner may use of the page's built-ins (shared/page-channel.ts). The runner, for a page without this
 * script, takes the same as they are then (extension/background/ops/evaluate.ts, `currentKit`).
 */
function takeEvaluateKit(win: Window, apply: typeof Reflect.apply, freeze: typeof Object.freeze): EvaluateKit {
  const set = win.setTimeout;
  const clear = win.clearTimeout;
  return freeze({
    version: EVALUATE_KIT_VERSION,
    isArray: Array.isArray,
    keys: Object.keys,
    getPrototypeOf: Object.getPrototypeOf,
    apply,
    slice: String.prototype.slice,
    charCodeAt: String.prototype.charCodeAt,
    objectPrototype: Object.prototype,
    arrayPrototype: Array.prototype,
    unbox: freeze([
      freeze([Number.prototype, Number.prototype.valueOf] as const),
      freeze([String.prototype, String.prototype.valueOf] as const),
      freeze([Boolean.prototype, Boolean.prototype.valueOf] as const),
    ]),
    Promise,
    setTimeout: (run: () => void, ms: number) => apply(set, win, [run, ms]),
    clearTimeout: (id: unknown) => void apply(clear, win, [id]),
    String,
  });
}

/** Takes the page's globals as they are now (nothing is read before: a script that checks first touches nothing). */
function take() {
  const win = window;
  const addListener = EventTarget.prototype.addEventListener;
  const dispatchEvent = EventTarget.prototype.dispatchEvent;
  const apply = Reflect.apply;
  return {
    /** evaluate's built-ins (./evaluate-kit.ts). */
    evaluateKit: takeEvaluateKit(win, apply, Object.freeze),
    parse: JSON.parse,
    stringify: JSON.stringify,
    CustomEvent,
    Event,
    EventTarget,
    DOMException,
    TypeError,
    String,
    /** `Reflect.apply` as it was. */
    apply,
    /** `Reflect.defineProperty` as it was: false, not an exception, when the object refuses. */
    defineProperty: Reflect.defineProperty,
    freeze: Object.freeze,
    /** Dispatches `event` on `window`; false when a listener cancelled it. */
    dispatch: (event: Event): boolean => apply(dispatchEvent, win, [event]) as boolean,
    /** Listens on `window` for `type`. */
    listen: (type: string, listener: (event: Event) => void): void => apply(addListener, win, [type, listener]),
    /** Listens on `target` for `type`. */
    listenOn: (target: EventTarget, type: string, listener: (event: Event) => void, options?: AddEventListenerOptions): void =>
      apply(addListener, target, [type, listener, options]),
    dispatchOn: (target: EventTarget, event: Event): boolean => apply(dispatchEvent, target, [event]) as boolean,
  };
}

export type Primordials = ReturnType<typeof take>;

/** The globals taken by {@link takePrimordials}; read only after it ran. */
export let primordials: Primordials;

/** Takes the page's globals once; call first thing when installing. */
export function takePrimordials(): void {
  primordials ??= take();
}
