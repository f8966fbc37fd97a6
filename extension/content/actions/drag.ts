// The `drag` page operation: press on one element, move to another and release there. A draggable source gets the
// HTML drag-and-drop events (https://html.spec.whatwg.org/multipage/dnd.html#drag-and-drop-processing-model) with
// one DataTransfer shared by all of them; any other source gets pointer and mouse moves (pointer-driven sorting).
// MCP side: broker/mcp/tools/pointer.ts.
import type { DragResult } from '../../../shared/input-ops.js';
import { orielError } from '../../../shared/errors.js';
import { workMs, type ContentHandler } from '../handlers.js';
import { deepElementFromPoint, nextTask } from './actionability.js';
import { watchEffects } from './effects.js';
import { movePointer, pressPointer, releasePointer } from './pointer.js';
import { whenActionable, type ActPoint } from './ready.js';
import { checkTarget, resolveNow } from './target.js';

/** Pointer moves between the two points, so pages that track movement see a path, not a jump. */
const MOVES = 8;

export const drag: ContentHandler<'drag'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  checkTarget(args, 'the element to drag');
  checkTarget({ handle: args.to_handle, selector: args.to_selector }, 'the element to drop on (to_handle or to_selector)');
  const to = { handle: args.to_handle, selector: args.to_selector };
  const watch = watchEffects();
  try {
    // The drop target must be actionable first (it may need scrolling); the source is checked last, in the same step
    // as the act, and the drop point measured again there.
    // The budget covers two waits (shared/ops.ts): the drop target may take half of what is left, the source the rest.
    await whenActionable(to, ctx, { timeoutMs: Math.round(workMs(ctx) / 2), hitTest: true, enabled: false, redactor }, () => undefined);
    let outcome!: { source: Element; target: Element; kind: 'html' | 'pointer'; dropped?: boolean };
    await whenActionable(args, ctx, { timeoutMs: workMs(ctx), hitTest: true, redactor }, (source, from) => {
      const target = resolveNow(to, ctx, redactor);
      if (!target) throw orielError('not_actionable', 'The element to drop on is gone.');
      const r = target.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const hit = deepElementFromPoint(x, y) ?? target;
      watch.start();
      outcome = { source, target, ...dragBetween(source, from, { x, y, hit }) };
    });
    await nextTask();
    const seen = watch.stop();
    const result: DragResult = {
      handle: ctx.registry.handleFor(outcome.source),
      to_handle: ctx.registry.handleFor(outcome.target),
      kind: outcome.kind,
      trusted: false,
      dom_changed: seen.mutated,
    };
    if (outcome.dropped !== undefined) result.dropped = outcome.dropped;
    return result;
  } finally {
    watch.stop();
  }
};

/** The nearest draggable element at or above `el` (links and images are draggable by default). */
function draggableOf(el: Element): HTMLElement | undefined {
  for (let n: Element | null = el; n; n = n.parentElement) if (n instanceof HTMLElement && n.draggable) return n;
  return undefined;
}

/** Press at `from`, move along the way to `to`, release there: drag-and-drop events when the source is draggable. */
function dragBetween(source: Element, from: ActPoint, to: ActPoint): { kind: 'html' | 'pointer'; dropped?: boolean } {
  movePointer(from.hit, from.x, from.y);
  const compat = pressPointer(from.hit, from.x, from.y);
  const draggable = draggableOf(from.hit) ?? draggableOf(source);
  if (draggable) {
    const dropped = html(draggable, from, to);
    if (dropped !== undefined) return { kind: 'html', dropped };
  }
  for (let i = 1; i <= MOVES; i++) {
    const x = from.x + ((to.x - from.x) * i) / MOVES;
    const y = from.y + ((to.y - from.y) * i) / MOVES;
    movePointer(i === MOVES ? to.hit : deepElementFromPoint(x, y) ?? to.hit, x, y, 1);
  }
  releasePointer(to.hit, to.x, to.y, compat, to.hit === from.hit);
  return { kind: 'pointer' };
}

/**
 * HTML drag and drop: dragstart on the source (cancelled: no drag happens, undefined is returned), then drag,
 * dragenter and dragover on the target (cancelling dragover accepts a drop), drop when accepted, dragend on the
 * source. Returns whether the target accepted the drop.
 */
function html(source: HTMLElement, from: ActPoint, to: ActPoint): boolean | undefined {
  const data = new DataTransfer();
  const ev = (type: string, p: ActPoint, cancelable = true) =>
    new DragEvent(type, { bubbles: true, cancelable, composed: true, clientX: p.x, clientY: p.y, screenX: window.screenX + p.x, screenY: window.screenY + p.y, dataTransfer: data, buttons: 1, view: window });
  data.effectAllowed = 'all';
  if (!source.dispatchEvent(ev('dragstart', from))) return undefined;
  // The browser cancels the pointer when a drag starts (https://w3c.github.io/pointerevents/#suppressing-a-pointer-event-stream).
  from.hit.dispatchEvent(new PointerEvent('pointercancel', { bubbles: true, composed: true, pointerId: 1, pointerType: 'mouse', isPrimary: true }));
  source.dispatchEvent(ev('drag', from));
  to.hit.dispatchEvent(ev('dragenter', to));
  source.dispatchEvent(ev('drag', to));
  const accepted = !to.hit.dispatchEvent(ev('dragover', to));
  if (accepted) {
    if (data.dropEffect === 'none') data.dropEffect = 'move';
    to.hit.dispatchEvent(ev('drop', to));
  } else to.hit.dispatchEvent(ev('dragleave', to, false));
  source.dispatchEvent(ev('dragend', to, false));
  return accepted;
}
