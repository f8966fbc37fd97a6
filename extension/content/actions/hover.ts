// The `hover` page operation: move the synthetic pointer onto an element and leave it there, so `mouseenter` content
// and (emulated) CSS `:hover` styles appear in the next snapshot. MCP side: broker/mcp/tools/pointer.ts.
import type { HoverResult } from '../../../shared/input-ops.js';
import type { ContentHandler } from '../handlers.js';
import { nextTask } from './actionability.js';
import { watchEffects } from './effects.js';
import { emulateHover, type MirrorReport } from './hover-styles.js';
import { hoverChain, movePointer } from './pointer.js';
import { whenActionable } from './ready.js';
import { checkTarget } from './target.js';

const DEFAULT_TIMEOUT_MS = 5000;

export const hover: ContentHandler<'hover'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  checkTarget(args, 'the element to hover');
  const watch = watchEffects();
  try {
    let target!: Element;
    let mirror!: MirrorReport;
    await whenActionable(args, ctx, { timeoutMs: args.timeout_ms ?? DEFAULT_TIMEOUT_MS, hitTest: true, enabled: false, redactor }, (el, at) => {
      target = el;
      watch.start();
      movePointer(at.hit, at.x, at.y);
      mirror = emulateHover(hoverChain(at.hit));
    });
    await nextTask();
    const seen = watch.stop();
    const result: HoverResult = {
      handle: ctx.registry.handleFor(target),
      trusted: false,
      hover_styles: mirror.rules > 0 ? 'mirrored' : 'none',
      rules: mirror.rules,
      dom_changed: seen.mutated,
    };
    if (mirror.unreadable > 0) result.unreadable_sheets = mirror.unreadable;
    return result;
  } finally {
    watch.stop();
  }
};
