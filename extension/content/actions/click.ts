// The `click` page operation: wait until the target is actionable, then dispatch the events of a person's mouse click
// — any button, one to three clicks, modifier keys held, at its centre or a point inside it — (./pointer.ts, or
// trusted input: ./trusted.ts) and report what was observed. MCP side: broker/mcp/tools/click.ts.
import type { ClickArgs, ClickResult } from '../../../shared/ops.js';
import { workMs, type ContentHandler } from '../handlers.js';
import { composedParent } from '../hit.js';
import { nextTask } from './actionability.js';
import { watchEffects } from './effects.js';
import { clickSequence, placePointer, type Modifiers } from './pointer.js';
import { dispatchInput, topLevelPoint, type InputOutcome } from './trusted.js';
import { whenActionable } from './ready.js';
import { checkTarget } from './target.js';


/** The KeyboardEvent flags of the modifiers a click holds. */
function modifierFlags(keys: ClickArgs['modifiers']): Modifiers {
  const held = new Set(keys ?? []);
  return { altKey: held.has('Alt'), ctrlKey: held.has('Control'), metaKey: held.has('Meta'), shiftKey: held.has('Shift') };
}

/** The DevTools protocol's modifier bits (Alt 1, Control 2, Meta 4, Shift 8). */
function modifierBits(m: Modifiers): number {
  return (m.altKey ? 1 : 0) | (m.ctrlKey ? 2 : 0) | (m.metaKey ? 4 : 0) | (m.shiftKey ? 8 : 0);
}

/** The hyperlink (`a` or `area` with `href`) a click on `el` follows, if any (https://html.spec.whatwg.org/multipage/links.html#following-hyperlinks-2). */
function linkAround(el: Element): HTMLAnchorElement | HTMLAreaElement | undefined {
  for (let n: Element | null = el; n; n = composedParent(n)) {
    if ((n instanceof HTMLAnchorElement || n instanceof HTMLAreaElement) && n.hasAttribute('href')) return n;
  }
  return undefined;
}

export const click: ContentHandler<'click'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  checkTarget(args, 'the element to click');
  const button = args.button ?? 'left';
  const count = args.count ?? 1;
  const mods = modifierFlags(args.modifiers);
  // A person's middle click, or a left click with Control, Meta or Shift, opens a link in a new tab or window.
  const newTabKind = button === 'middle' || (button === 'left' && (mods.ctrlKey || mods.metaKey || mods.shiftKey));
  const offset = args.x !== undefined || args.y !== undefined ? { x: args.x, y: args.y } : undefined;
  const watch = watchEffects();
  let newTabUrl: string | undefined;
  try {
    let target: Element | undefined;
    const input: InputOutcome = await whenActionable(args, ctx, { timeoutMs: workMs(ctx), hitTest: true, redactor, offset }, (el, at) => {
      target = el;
      watch.start();
      const top = topLevelPoint(at.x, at.y);
      const steps = top && [{ kind: 'mouse' as const, type: 'click' as const, x: top.x, y: top.y, button, count, modifiers: modifierBits(mods) }];
      return dispatchInput(ctx, steps, () => {
        const link = newTabKind ? linkAround(at.hit) : undefined;
        // Synthetic events cannot open a tab: where the page leaves a modified click on a link alone, Oriel keeps the
        // current tab from following it (the listener on the window runs after the page's own) and reports the URL.
        const stay = (e: Event) => {
          if (e.defaultPrevented || !link) return;
          e.preventDefault();
          newTabUrl = link.href;
        };
        if (link && button === 'left') window.addEventListener('click', stay);
        try {
          const { cancelled } = clickSequence(at.hit, at.x, at.y, button, count, mods);
          if (link && button === 'middle' && !cancelled) newTabUrl = link.href;
        } finally {
          window.removeEventListener('click', stay);
        }
      }).then((outcome) => {
        if (outcome.trusted) placePointer(at.hit, at.x, at.y);
        return outcome;
      });
    });
    // Let microtask-scheduled renders (React, Vue) and the navigation machinery run before reading the evidence.
    await nextTask();
    const seen = watch.stop();
    const result: ClickResult = { dispatched: true, ...input, navigation_started: seen.navigation, dom_changed: seen.mutated };
    if (newTabUrl !== undefined) result.new_tab_url = redactor.scrubUrl(newTabUrl);
    if (target) result.handle = ctx.registry.handleFor(target);
    return result;
  } finally {
    watch.stop();
  }
};
