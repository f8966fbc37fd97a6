// The `press_key` page operation: one key or chord, on an element or on whatever has focus, with the events a
// person's keyboard makes and the default action the browser would take (key-actions.ts) — or, with trusted input
// (./trusted.ts), the browser's own key events and default actions, which Oriel then does not repeat. MCP side:
// broker/mcp/tools/keyboard.ts.
import type { PressKeyResult } from '../../../shared/input-ops.js';
import { orielError } from '../../../shared/errors.js';
import { workMs, type ContentHandler } from '../handlers.js';
import { deepActiveElement } from '../snapshot/dom.js';
import { nextTask } from './actionability.js';
import { watchEffects } from './effects.js';
import { keyTarget, pressChord, type PressOutcome } from './key-actions.js';
import { parseChord } from './keys.js';
import { isFocusable } from './pointer.js';
import { whenActionable } from './ready.js';
import { chordSteps, dispatchInput, watchKeydowns, type InputOutcome } from './trusted.js';


export const pressKey: ContentHandler<'press_key'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  if (args.handle !== undefined && args.selector !== undefined) throw orielError('invalid_argument', 'Give at most one of "handle" or "selector"; without either the key goes to whatever has focus.');
  const chord = parseChord(args.key);
  const watch = watchEffects();
  try {
    let target!: Element;
    const outcomes: PressOutcome[] = [];
    let trustedPrevented = false;
    const act = async (el: Element | undefined): Promise<InputOutcome> => {
      watch.start();
      if (el && isFocusable(el) && deepActiveElement() !== el) (el as HTMLElement).focus();
      target = el ?? keyTarget();
      const repeat = args.repeat ?? 1;
      // Trusted keys go where the browser's focus is, and the browser does their default actions itself.
      const keydowns = watchKeydowns();
      try {
        const steps = Array.from({ length: repeat }, () => chordSteps(chord)).flat();
        const input = await dispatchInput(ctx, steps, () => {
          for (let i = 0; i < repeat; i++) outcomes.push(pressChord(chord, i === 0 ? target : keyTarget(), redactor));
        });
        if (input.trusted) trustedPrevented = keydowns.prevented();
        return input;
      } finally {
        keydowns.stop();
      }
    };
    const input =
      args.handle !== undefined || args.selector !== undefined
        ? await whenActionable(args, ctx, { timeoutMs: workMs(ctx), hitTest: false, redactor }, (el) => act(el))
        : await act(undefined);
    await nextTask();
    const seen = watch.stop();
    const actions = outcomes.map((o) => o.action).filter((a): a is string => a !== undefined);
    const result: PressKeyResult = {
      key: chord.label,
      ...input,
      prevented: trustedPrevented || outcomes.some((o) => o.prevented),
      navigation_started: seen.navigation,
      dom_changed: seen.mutated,
    };
    if (actions.length > 0) result.default_action = summarize(actions);
    const handleOf = (el: Element | null) => (el && el !== document.body && el.isConnected && !redactor.isRemoved(el) ? ctx.registry.handleFor(el) : undefined);
    const on = handleOf(target);
    if (on) result.handle = on;
    const focused = handleOf(deepActiveElement());
    if (focused) result.focused = focused;
    return result;
  } finally {
    watch.stop();
  }
};

/** The default actions of repeated presses, in words: "moved focus to …" or "set the slider to 3 (×5)". */
function summarize(actions: string[]): string {
  const last = actions.at(-1)!;
  return actions.length === 1 ? last : `${last} (${actions.length} presses acted)`;
}
