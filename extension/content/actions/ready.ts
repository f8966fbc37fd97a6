// The wait-until-actionable loop shared by click and type: re-resolve, check, scroll, check stability, then act in
// the same synchronous step as the final check. The individual checks live in actionability.ts.
import { orielError } from '../../../shared/errors.js';
import type { ContentContext } from '../handlers.js';
import type { Redactor } from '../redaction.js';
import { checkPointerTarget, isDisabled, isInert, isVisible, nextFrame, sameRect, scrollIntoViewIfNeeded, settleOrChange, type Actionability, type PointOffset } from './actionability.js';
import { clip, noMatch, resolveNow, type TargetSpec } from './target.js';

/** Where the pointer lands when the act runs. */
export interface ActPoint {
  x: number;
  y: number;
  hit: Element;
}

export interface ReadyOptions {
  timeoutMs: number;
  /** Pointer actions need the centre to reach the element; typing focuses it directly. */
  hitTest: boolean;
  /** Whether a disabled element is refused. Default true (hover reaches disabled elements, as a person's does). */
  enabled?: boolean;
  /**
   * Without a hit test: whether the element must be visible. Default true; false for file inputs, which pages hide
   * behind a styled button.
   */
  visible?: boolean;
  /** Extra synchronous precondition (e.g. "is editable"); returns why it fails, or undefined. */
  extra?: (el: Element) => Unfit | undefined;
  /** The call's redaction policy: selector targets skip what it removes, and error messages do not describe it. */
  redactor: Redactor;
  /** With `hitTest`: the point to act at inside the element (its own box, not its label's). Default: the centre. */
  offset?: PointOffset | undefined;
}

/**
 * Why an element cannot take the action. `permanent` when waiting cannot change it (an element that can never be
 * typed into): the call then fails at once with `retryable: false` instead of waiting out its timeout.
 */
export interface Unfit {
  reason: string;
  permanent: boolean;
}

/** Retry delays after a failed check; further waits use the last one. Each also ends early on a DOM change. */
const BACKOFF = [0, 20, 50, 100, 250, 500];

/**
 * Waits until the target can take input, then calls `act` synchronously right after the final check, so the page
 * cannot change in between. Handle errors (no_snapshot, unknown_handle, detached) are thrown as soon as they occur.
 * @throws not_actionable with the last reason when the deadline passes; cancelled when the call is aborted.
 */
export async function whenActionable<T>(spec: TargetSpec, ctx: ContentContext, opts: ReadyOptions, act: (el: Element, at: ActPoint) => T): Promise<T> {
  const deadline = performance.now() + opts.timeoutMs;
  let reason = '';
  let cover: string | undefined;
  for (let attempt = 0; ; attempt++) {
    if (ctx.signal.aborted) throw orielError('cancelled', 'The call was cancelled before the element became actionable.');
    const el = resolveNow(spec, ctx, opts.redactor);
    if (!el) {
      reason = noMatch(spec.selector ?? '');
    } else {
      const first = check(el, opts);
      if (first.ok) {
        const before = el.getBoundingClientRect();
        if (!mayBeMoving(el, before)) return act(el, first.at);
        const hidden = document.visibilityState === 'hidden';
        const clocks = geometryClocks(el);
        // On a visible page, an animation or transition that moves the box and ends by itself decides: wait for it to
        // finish (https://drafts.csswg.org/web-animations-1/#dom-animation-finished). Comparing boxes instead would
        // let the machine's load decide, as a busy one renders frames late and far apart.
        const ending = hidden ? [] : clocks.map(([a]) => a).filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity));
        if (ending.length > 0) {
          ({ reason, cover } = { reason: 'it is moving (an animation or transition runs on it or an ancestor)', cover: undefined });
          const left = deadline - performance.now();
          if (left <= 0) throw notActionable(spec, reason, opts.timeoutMs, cover, true);
          await finishedOrDeadline(ending, left, ctx.signal);
          continue;
        }
        // Stable: the same box in two consecutive frames (an animating element would be clicked where it was).
        // Without frames (hidden page), give a running geometry animation's clock a moment to show whether it runs.
        // With an endless one running on a visible page, only a rendered frame tells: animations advance frame by
        // frame, so a box measured again without a new frame looks still however late the frame comes.
        let framed = true;
        if (hidden && clocks.length > 0) await new Promise((r) => setTimeout(r, 20));
        else if (clocks.length > 0) framed = await nextFrame(deadline - performance.now());
        else await nextFrame();
        const again = resolveNow(spec, ctx, opts.redactor);
        if (again === el) {
          const after = el.getBoundingClientRect();
          lastRect.set(el, after);
          const final = check(el, opts);
          // Hidden pages render no frames, so a moving box can look still: there, a geometry animation whose clock
          // advanced counts as motion (Firefox advances it; Chromium pauses it, and the box then stays put). Anywhere,
          // an animation still waiting to start (`pending`, as just after a load on a busy machine) holds the box at
          // its first keyframe for a while and is about to move it.
          const still =
            framed &&
            sameRect(before, after) &&
            !clocks.some(([a, t]) => a.playState === 'running' && (a.pending || (hidden && a.currentTime !== t)));
          if (final.ok && still) return act(el, final.at);
          ({ reason, cover } = final.ok ? { reason: 'it is still moving (animating or being laid out)', cover: undefined } : final);
        } else {
          reason = 'the selector now matches another element';
        }
        // Visible pages paced themselves by the frame just awaited; hidden ones wait for a change or a short delay.
        if (performance.now() < deadline && document.visibilityState !== 'hidden') continue;
      } else {
        ({ reason, cover } = first);
        if (first.permanent) throw notActionable(spec, reason, 0, undefined, false);
      }
    }
    const left = deadline - performance.now();
    if (left <= 0) throw notActionable(spec, reason, opts.timeoutMs, cover, true);
    await settleOrChange(Math.min(BACKOFF[Math.min(attempt, BACKOFF.length - 1)]!, left), ctx.signal);
  }
}

/** Resolves when every animation in `animations` has finished or was cancelled, after `ms`, or when `signal` aborts. */
function finishedOrDeadline(animations: Animation[], ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    void Promise.allSettled(animations.map((a) => a.finished)).then(done);
  });
}

function notActionable(spec: TargetSpec, reason: string, waited: number, cover: string | undefined, retryable: boolean) {
  const what = spec.handle !== undefined ? `Element ${spec.handle}` : `The target of "${clip(spec.selector ?? '', 200)}"`;
  return orielError('not_actionable', `${what} is not actionable: ${reason}.${waited > 0 ? ` Waited ${waited} ms.` : ''}`, {
    retryable,
    ...(retryable ? {} : { next: 'snapshot, and choose an element that takes this action' }),
    details: cover ? { reason, covered_by: cover } : { reason },
  });
}

/** The box each element had when an action last measured it, to notice script-driven motion between calls. */
const lastRect = new WeakMap<Element, DOMRect>();

/**
 * Whether the element might be moving, so that stability needs the two-frame comparison. The events are dispatched
 * in the same task as the hit test, so they reach the element verified at that instant; motion matters when a CSS
 * transition, animation or Web Animation runs on it or an ancestor, or when its box changed since an earlier call
 * measured it. Skipping the frame wait otherwise keeps a click by handle within a few milliseconds.
 */
function mayBeMoving(el: Element, now: DOMRect): boolean {
  const seen = lastRect.get(el);
  lastRect.set(el, now);
  if (seen && !sameRect(seen, now)) return true;
  for (let n: Element | null = el; n; n = n.parentElement ?? (n.parentNode instanceof ShadowRoot ? n.parentNode.host : null)) {
    if (n.getAnimations().some((a) => a.playState === 'running')) return true;
  }
  return false;
}

/** CSS properties whose animation moves or resizes a box. */
const GEOMETRY = /^(transform|translate|scale|rotate|left|top|right|bottom|inset|margin|padding|width|height|offset|position)/i;

/** Running animations on `el` or an ancestor that move or resize it, with their current times. */
function geometryClocks(el: Element): Array<[Animation, CSSNumberish | null]> {
  const out: Array<[Animation, CSSNumberish | null]> = [];
  for (let n: Element | null = el; n; n = n.parentElement ?? (n.parentNode instanceof ShadowRoot ? n.parentNode.host : null)) {
    for (const a of n.getAnimations()) {
      if (a.playState !== 'running' || !(a.effect instanceof KeyframeEffect)) continue;
      const moves =
        (a instanceof CSSTransition && GEOMETRY.test(a.transitionProperty)) || a.effect.getKeyframes().some((k) => Object.keys(k).some((p) => GEOMETRY.test(p)));
      if (moves) out.push([a, a.currentTime]);
    }
  }
  return out;
}

type Check = { ok: true; at: ActPoint } | { ok: false; reason: string; cover?: string | undefined; permanent?: boolean };

function check(el: Element, opts: ReadyOptions): Check {
  // What the element is comes first: no amount of waiting makes a paragraph editable.
  const why = opts.extra?.(el);
  if (why?.permanent) return { ok: false, ...why };
  const enabled = opts.enabled !== false;
  if (!opts.hitTest) {
    const visible = opts.visible !== false;
    if (visible && !isVisible(el)) return { ok: false, reason: 'it is not visible (display, visibility or zero size)' };
    if (enabled && isDisabled(el)) return { ok: false, reason: 'it is disabled' };
    if (isInert(el)) return { ok: false, reason: 'it is inert: an open modal dialog covers the rest of the page' };
    if (why) return { ok: false, reason: why.reason };
    if (!visible) return { ok: true, at: { x: 0, y: 0, hit: el } };
    scrollIntoViewIfNeeded(el);
    const r = el.getBoundingClientRect();
    return { ok: true, at: { x: r.left + r.width / 2, y: r.top + r.height / 2, hit: el } };
  }
  if (why) return { ok: false, reason: why.reason };
  const a = pointAt(el, opts.redactor, enabled, opts.offset);
  if (a.status === 'ok') return { ok: true, at: { x: a.x, y: a.y, hit: a.hit } };
  // A control a person operates through its label (a visually hidden checkbox behind a styled box) is clicked there.
  if (a.status !== 'disabled' && !opts.offset) {
    for (const label of visibleLabels(el)) {
      const l = pointAt(label, opts.redactor, enabled);
      if (l.status === 'ok') return { ok: true, at: { x: l.x, y: l.y, hit: l.hit } };
    }
  }
  return { ok: false, reason: a.reason, cover: a.cover };
}

/** Block alignments tried, in turn, to bring a covered target clear of fixed and sticky layers. */
const CLEAR_ALIGNMENTS: readonly ScrollLogicalPosition[] = ['center', 'end', 'start'];

/**
 * Scrolls `el` into view and hit-tests it. When something covers it, other scroll positions are tried (a fixed header
 * covers the top of the viewport, a cookie bar the bottom, a sticky table head the top of its table): `covered` is
 * the answer only when none of them frees it.
 */
function pointAt(el: Element, redactor: Redactor, requireEnabled: boolean, offset?: PointOffset): Actionability {
  if (isVisible(el) && !(requireEnabled && isDisabled(el))) {
    scrollIntoViewIfNeeded(el);
    if (offset) scrollPointIntoView(el, offset);
  }
  let a = checkPointerTarget(el, { requireEnabled, redactor, offset });
  if (a.status !== 'covered') return a;
  for (const block of CLEAR_ALIGNMENTS) {
    // 'instant' overrides a page's `scroll-behavior: smooth`, so the box is where it will stay.
    el.scrollIntoView({ block, inline: 'nearest', behavior: 'instant' as ScrollBehavior });
    const again = checkPointerTarget(el, { requireEnabled, redactor, offset });
    if (again.status !== 'covered') return again;
    a = again;
  }
  return a;
}

/**
 * Scrolls the page so that a point inside `el` (a spot on a map taller than the viewport) is in view, centred on the
 * axes where it was not. Scroll containers inside the page are not moved: their element was brought into view whole.
 */
function scrollPointIntoView(el: Element, offset: PointOffset): void {
  const box = el.getBoundingClientRect();
  const x = box.left + (offset.x ?? box.width / 2);
  const y = box.top + (offset.y ?? box.height / 2);
  const dx = x < 0 || x >= window.innerWidth ? x - window.innerWidth / 2 : 0;
  const dy = y < 0 || y >= window.innerHeight ? y - window.innerHeight / 2 : 0;
  if (dx !== 0 || dy !== 0) window.scrollBy({ left: dx, top: dy, behavior: 'instant' as ScrollBehavior });
}

/** The visible `<label>`s of a labelable control (https://html.spec.whatwg.org/multipage/forms.html#the-label-element). */
function visibleLabels(el: Element): HTMLLabelElement[] {
  const labels = (el as HTMLInputElement).labels;
  return labels ? Array.from(labels).filter((l) => isVisible(l) && !isInert(l)) : [];
}
