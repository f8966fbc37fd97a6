// The `element_rect` internal operation: scrolls an element into view and reports its box in viewport CSS pixels,
// so the background can crop a screenshot to it (extension/background/ops/screenshot.ts).
import { orielError } from '../../../shared/errors.js';
import type { ContentHandler } from '../handlers.js';
import { isVisible, nextFrame, scrollIntoViewIfNeeded } from './actionability.js';
import { refuseRedacted, resolveForRead } from './extract.js';
import { checkTarget } from './target.js';

export const elementRect: ContentHandler<'element_rect'> = async (spec, ctx) => {
  checkTarget(spec, 'the element to capture');
  const redactor = ctx.redactor();
  const el = resolveForRead(spec, ctx, redactor);
  // An image of a redacted element would be nothing but its mask.
  refuseRedacted(el, redactor);
  if (!isVisible(el)) throw orielError('not_actionable', 'The element is not visible, so there is nothing to capture.', { details: { reason: 'hidden' } });
  const handle = ctx.registry.handleFor(el);
  // Let the scroll paint before the background captures the visible tab.
  if (scrollIntoViewIfNeeded(el)) await nextFrame();
  const r = el.getBoundingClientRect();
  return {
    handle,
    x: r.left,
    y: r.top,
    width: r.width,
    height: r.height,
    viewport: { width: window.innerWidth, height: window.innerHeight },
    dpr: window.devicePixelRatio,
  };
};
