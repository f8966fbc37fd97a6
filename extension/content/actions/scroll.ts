// The `scroll` page operation: the page or a scroll container, by an amount, to an edge, or step by step until some
// text shows (virtualized lists render rows only as they scroll into view). Reports the new position and whether
// more lies beyond each edge. MCP side: broker/mcp/tools/pointer.ts.
import type { ScrollResult } from '../../../shared/input-ops.js';
import { orielError } from '../../../shared/errors.js';
import { workMs, type ContentHandler } from '../handlers.js';
import type { Redactor } from '../redaction.js';
import { isVisible, nextFrame, nextTask } from './actionability.js';
import { scrollerOf } from './key-actions.js';
import { clip, noMatch, resolveNow } from './target.js';
import { findText } from './text.js';

/** A scroll step moves this share of the visible size, so consecutive views overlap and no row is skipped. */
const STEP = 0.8;

export const scroll: ContentHandler<'scroll'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  if (args.handle !== undefined && args.selector !== undefined) throw orielError('invalid_argument', 'Give at most one of "handle" or "selector" (the container, or an element inside it); without either the page scrolls.');
  if (args.to !== undefined && (args.until_text !== undefined || args.amount !== undefined || args.direction !== undefined)) {
    throw orielError('invalid_argument', 'Give "to" (an edge) on its own, or "direction" with "amount" or "until_text".');
  }
  let box: Element;
  if (args.handle !== undefined || args.selector !== undefined) {
    const el = resolveNow(args, ctx, redactor);
    if (!el) throw orielError('not_actionable', `${noMatch(args.selector ?? '').replace(/^n/, 'N')}.`);
    box = scrollerOf(el);
  } else box = pageScroller();
  const page = box === pageScroller();
  let steps = 0;
  let found: Element | undefined;
  if (args.to !== undefined) {
    const edge = args.to;
    await scrollTo(box, edge === 'top' ? { top: 0 } : edge === 'bottom' ? { top: box.scrollHeight } : edge === 'left' ? { left: 0 } : { left: box.scrollWidth });
    steps = 1;
  } else {
    const dir = args.direction ?? 'down';
    const vertical = dir === 'down' || dir === 'up';
    const sign = dir === 'down' || dir === 'right' ? 1 : -1;
    const size = vertical ? (page ? window.innerHeight : box.clientHeight) : page ? window.innerWidth : box.clientWidth;
    const amount = args.amount ?? Math.max(1, Math.round(size * STEP));
    if (args.until_text === undefined) {
      await scrollBy(box, vertical ? { top: sign * amount } : { left: sign * amount });
      steps = 1;
    } else {
      const waitMs = workMs(ctx);
      const deadline = performance.now() + waitMs;
      for (;;) {
        if (ctx.signal.aborted) throw orielError('cancelled', 'Stopped scrolling: the call was cancelled.');
        found = shown(args.until_text, box, page, redactor);
        if (found) break;
        const moved = await scrollBy(box, vertical ? { top: sign * amount } : { left: sign * amount });
        steps++;
        if (!moved) {
          // At the edge: a list that loads more as it is scrolled gets one more look before giving up.
          found = shown(args.until_text, box, page, redactor);
          break;
        }
        if (performance.now() > deadline) {
          throw orielError('timeout', `Scrolled ${steps} times for ${Math.round(waitMs)} ms without finding "${clip(args.until_text, 100)}". Scroll on, or snapshot to see what shows.`, {
            next: 'scroll again, or snapshot',
          });
        }
      }
      if (found) found.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' as ScrollBehavior });
    }
  }
  return position(box, page, steps, found ? ctx.registry.handleFor(found) : undefined, page ? undefined : ctx.registry.handleFor(box));
};

function pageScroller(): Element {
  return document.scrollingElement ?? document.documentElement;
}

/** The innermost visible element inside `box`'s visible area whose text contains `text`. */
function shown(text: string, box: Element, page: boolean, redactor: Redactor): Element | undefined {
  const view = page ? { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight } : box.getBoundingClientRect();
  return findText(text, 50, redactor, page ? undefined : box).find((el) => {
    if (!isVisible(el)) return false;
    const r = el.getBoundingClientRect();
    return r.bottom > view.top && r.top < view.bottom && r.right > view.left && r.left < view.right;
  });
}

async function scrollBy(box: Element, delta: { top?: number; left?: number }): Promise<boolean> {
  const x = box.scrollLeft, y = box.scrollTop;
  box.scrollBy({ ...delta, behavior: 'instant' as ScrollBehavior });
  return settle(box, x, y);
}

async function scrollTo(box: Element, to: { top?: number; left?: number }): Promise<boolean> {
  const x = box.scrollLeft, y = box.scrollTop;
  box.scrollTo({ ...to, behavior: 'instant' as ScrollBehavior });
  return settle(box, x, y);
}

/**
 * After a scroll: waits for the page to hear it (`scroll` fires when the browser next renders) and to re-render
 * (virtualized lists draw the new rows in their handler or the frame after). A hidden tab renders no frames, so its
 * `scroll` event would never come: Oriel then fires it, as the browser would once the tab shows.
 * @returns whether the position changed.
 */
async function settle(box: Element, x: number, y: number): Promise<boolean> {
  const moved = box.scrollLeft !== x || box.scrollTop !== y;
  if (!moved) return false;
  const target: EventTarget = box === pageScroller() ? document : box;
  let heard = false;
  const onScroll = () => (heard = true);
  target.addEventListener('scroll', onScroll, { once: true, passive: true });
  await nextFrame();
  target.removeEventListener('scroll', onScroll);
  if (!heard && document.visibilityState === 'hidden') target.dispatchEvent(new Event('scroll', { bubbles: target === document }));
  // The page's scroll handlers ran in that frame; renders they scheduled as tasks run next (one more frame otherwise).
  if (!heard && document.visibilityState !== 'hidden') await nextFrame();
  await nextTask();
  return true;
}

function position(box: Element, page: boolean, steps: number, found: string | undefined, handle: string | undefined): ScrollResult {
  const maxX = Math.max(0, box.scrollWidth - (page ? window.innerWidth : box.clientWidth));
  const maxY = Math.max(0, box.scrollHeight - (page ? window.innerHeight : box.clientHeight));
  const x = Math.round(box.scrollLeft), y = Math.round(box.scrollTop);
  const result: ScrollResult = {
    x,
    y,
    max_x: Math.round(maxX),
    max_y: Math.round(maxY),
    more_up: y > 0,
    more_down: y < maxY - 1,
    more_left: x > 0,
    more_right: x < maxX - 1,
    steps,
  };
  if (handle) result.handle = handle;
  if (found) result.found = found;
  return result;
}

