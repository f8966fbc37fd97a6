// Trusted input, content side (docs/architecture.md, "Input"): the steps of a click, hover, key press or typing, sent
// to the background to dispatch through the DevTools protocol while this script keeps the checks and the evidence.
// Counterpart: extension/background/trusted-input.ts; messages in shared/trusted-input.ts.
import type { TrustedInputRequest, TrustedStep } from '../../../shared/trusted-input.js';
import { orielError } from '../../../shared/errors.js';
import type { ContentContext } from '../handlers.js';
import { MODIFIER_KEYS, type Chord, type KeySpec } from './keys.js';
import { sendSide } from '../../side-channel.js';

/** How an action's input went: trusted, or Oriel's own events, with why when the person wanted trusted input. */
export interface InputOutcome {
  trusted: boolean;
  note?: string;
}

/** Why a pointer action in this frame cannot be trusted, or undefined when it can. */
const CROSS_ORIGIN_NOTE =
  'trusted input reaches the top frame and frames of its origin; this frame is cross-origin, so Oriel used its own events';

/**
 * A point in this frame's viewport (CSS pixels) as a point in the top-level viewport: the offsets of every frame
 * element on the way up, each with its border and padding. Undefined when an ancestor document is another origin
 * (its frame element cannot be read).
 */
export function topLevelPoint(x: number, y: number): { x: number; y: number } | undefined {
  let w: Window = window;
  while (w !== w.top) {
    let frame: Element | null;
    try {
      frame = w.frameElement;
    } catch {
      return undefined;
    }
    if (!frame) return undefined;
    const box = frame.getBoundingClientRect();
    const style = getComputedStyle(frame);
    x += box.left + frame.clientLeft + parseFloat(style.paddingLeft);
    y += box.top + frame.clientTop + parseFloat(style.paddingTop);
    w = w.parent;
  }
  return { x, y };
}

/** The DevTools protocol's modifier bits (Alt 1, Control 2, Meta 4, Shift 8) of a chord. */
function modifierBits(m: Pick<Chord, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'>): number {
  return (m.altKey ? 1 : 0) | (m.ctrlKey ? 2 : 0) | (m.metaKey ? 4 : 0) | (m.shiftKey ? 8 : 0);
}

function keyStep(type: 'down' | 'up', spec: KeySpec, modifiers: number): TrustedStep {
  // Enter types a carriage return (https://w3c.github.io/uievents/#keypress-event-order); a modified key types nothing.
  const text = spec.key === 'Enter' ? '\r' : spec.text;
  return { kind: 'key', type, key: spec.key, code: spec.code, keyCode: spec.keyCode, modifiers, ...(text !== undefined && (modifiers & 7) === 0 && { text }) };
}

/** A chord as key steps: modifiers down, the key down and up, modifiers up (https://w3c.github.io/uievents/#events-keyboard-event-order). */
export function chordSteps(chord: Chord): TrustedStep[] {
  const held = { ctrlKey: false, altKey: false, shiftKey: false, metaKey: false };
  const steps: TrustedStep[] = [];
  for (const [flag, spec] of MODIFIER_KEYS) {
    if (!chord[flag]) continue;
    held[flag] = true;
    steps.push(keyStep('down', spec, modifierBits(held)));
  }
  const all = modifierBits(chord);
  steps.push(keyStep('down', chord.key, all), keyStep('up', chord.key, all));
  for (const [flag, spec] of [...MODIFIER_KEYS].reverse()) {
    if (!chord[flag]) continue;
    held[flag] = false;
    steps.push(keyStep('up', spec, modifierBits(held)));
  }
  return steps;
}

/**
 * Dispatches `steps` as trusted input when the call was offered it, else runs `synthetic` (Oriel's own events).
 * `steps` undefined means this action cannot be trusted here (a pointer in a cross-origin frame). When the background
 * cannot dispatch at all (the debugger could not attach), `synthetic` runs and the note says why.
 * @throws OrielError `internal` when trusted input stopped partway (some input reached the page; repeating it with
 *   Oriel's own events would send that part twice).
 */
export async function dispatchInput(ctx: ContentContext, steps: TrustedStep[] | undefined, synthetic: () => void): Promise<InputOutcome> {
  const offer = ctx.input;
  if (!offer?.trusted) {
    synthetic();
    return offer?.note ? { trusted: false, note: offer.note } : { trusted: false };
  }
  if (!steps) {
    synthetic();
    return { trusted: false, note: CROSS_ORIGIN_NOTE };
  }
  const request: TrustedInputRequest = { call: ctx.call, steps };
  const reply = await sendSide('trusted_input', request).catch(() => undefined);
  if (!reply) {
    synthetic();
    return { trusted: false, note: 'the background gave no usable answer about trusted input, so Oriel used its own events' };
  }
  if (reply.ok) return { trusted: true };
  if (reply.dispatched > 0) throw orielError('internal', `Trusted input stopped partway (${reply.message}); part of the input reached the page. Take a snapshot before acting again.`, { next: 'snapshot' });
  synthetic();
  return { trusted: false, note: `${reply.message}; Oriel used its own events` };
}

/** A pointer step at (x, y) of this frame, or undefined when the frame is cross-origin to the top. */
export function pointerStep(type: 'move' | 'click', x: number, y: number): TrustedStep[] | undefined {
  const at = topLevelPoint(x, y);
  return at ? [{ kind: 'mouse', type, x: at.x, y: at.y }] : undefined;
}

/**
 * Records `keydown` events that reach this document while trusted keys are dispatched, so the result can say whether
 * the page cancelled one (checked after dispatch, when every listener has run).
 */
export function watchKeydowns(): { prevented(): boolean; stop(): void } {
  const seen: Event[] = [];
  const on = (e: Event) => {
    if (e.isTrusted) seen.push(e);
  };
  window.addEventListener('keydown', on, true);
  window.addEventListener('keypress', on, true);
  return {
    prevented: () => seen.some((e) => e.defaultPrevented),
    stop() {
      window.removeEventListener('keydown', on, true);
      window.removeEventListener('keypress', on, true);
    },
  };
}
