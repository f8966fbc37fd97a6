// The `hover` page operation: move the pointer onto an element and leave it there, so `mouseenter` content and CSS
// `:hover` styles (emulated for synthetic input, the browser's own for trusted input) appear in the next snapshot.
// MCP side: broker/mcp/tools/pointer.ts.
import type { HoverResult } from '../../../shared/input-ops.js';
import { workMs, type ContentHandler } from '../handlers.js';
import { nextTask } from './actionability.js';
import { watchEffects } from './effects.js';
import { emulateHover, type MirrorReport } from './hover-styles.js';
import { hoverChain, movePointer, placePointer } from './pointer.js';
import { dispatchInput, pointerStep, type InputOutcome } from './trusted.js';
import { whenActionable } from './ready.js';
import { checkTarget } from './target.js';


export const hover: ContentHandler<'hover'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  checkTarget(args, 'the element to hover');
  const watch = watchEffects();
  try {
    let target!: Element;
    // Synthetic input mirrors the page's `:hover` rules; trusted input has the browser's own hover state.
    let mirror: MirrorReport | undefined;
    const input: InputOutcome = await whenActionable(args, ctx, { timeoutMs: workMs(ctx), hitTest: true, enabled: false, redactor }, (el, at) => {
      target = el;
      watch.start();
      return dispatchInput(ctx, pointerStep('move', at.x, at.y), () => {
        movePointer(at.hit, at.x, at.y);
        mirror = emulateHover(hoverChain(at.hit));
      }).then((outcome) => {
        if (outcome.trusted) placePointer(at.hit, at.x, at.y);
        return outcome;
      });
    });
    await nextTask();
    const seen = watch.stop();
    const result: HoverResult = {
      handle: ctx.registry.handleFor(target),
      ...input,
      hover_styles: mirror ? (mirror.rules > 0 ? 'mirrored' : 'none') : 'native',
      dom_changed: seen.mutated,
    };
    if (mirror) result.rules = mirror.rules;
    if (mirror && mirror.unreadable > 0) result.unreadable_sheets = mirror.unreadable;
    return result;
  } finally {
    watch.stop();
  }
};
