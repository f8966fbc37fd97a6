// The `click` page operation: wait until the target is actionable, then dispatch the events of a person's mouse click
// at its centre (./pointer.ts, or trusted input: ./trusted.ts) and report what was observed. MCP side:
// broker/mcp/tools/click.ts.
import type { ClickResult } from '../../../shared/ops.js';
import type { ContentHandler } from '../handlers.js';
import { nextTask } from './actionability.js';
import { watchEffects } from './effects.js';
import { clickAt, placePointer } from './pointer.js';
import { dispatchInput, pointerStep, type InputOutcome } from './trusted.js';
import { whenActionable } from './ready.js';
import { checkTarget } from './target.js';

const DEFAULT_TIMEOUT_MS = 5000;

export const click: ContentHandler<'click'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  checkTarget(args, 'the element to click');
  const watch = watchEffects();
  try {
    let target: Element | undefined;
    const input: InputOutcome = await whenActionable(args, ctx, { timeoutMs: args.timeout_ms ?? DEFAULT_TIMEOUT_MS, hitTest: true, redactor }, (el, at) => {
      target = el;
      watch.start();
      return dispatchInput(ctx, pointerStep('click', at.x, at.y), () => clickAt(at.hit, at.x, at.y)).then((outcome) => {
        if (outcome.trusted) placePointer(at.hit, at.x, at.y);
        return outcome;
      });
    });
    // Let microtask-scheduled renders (React, Vue) and the navigation machinery run before reading the evidence.
    await nextTask();
    const seen = watch.stop();
    const result: ClickResult = { dispatched: true, ...input, navigation_started: seen.navigation, dom_changed: seen.mutated };
    if (target) result.handle = ctx.registry.handleFor(target);
    return result;
  } finally {
    watch.stop();
  }
};
