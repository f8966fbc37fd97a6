// What a handle is bound to (./registry.ts): an element's role and accessible name, computed with the snapshot
// walker's own functions (./snapshot/cache.ts) so that issue time and use time agree.
import { collapseWhitespace } from '../../shared/snapshot/index.js';
import type { Describe } from './registry.js';
import { computeRole, WalkCache } from './snapshot/cache.js';

/**
 * A describer sharing `cache` (the walker passes its per-walk cache, so names it computed are not computed again).
 * Names are computed as for a rendered element: an element hidden since it was shown keeps its name, and is then
 * refused for being hidden rather than for having changed.
 */
export function describeWith(cache: WalkCache): Describe {
  return (el) => {
    const role = computeRole(el);
    // A row's name is its whole content, which the outline does not show as a name and which changes as the row's
    // cells do (row actions appearing on hover): a row is bound by role, its cells and controls by their own names.
    if (role === 'row' && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby')) return { role, name: '' };
    return { role, name: collapseWhitespace(cache.name(el, true)) };
  };
}

/** The registry's own describer: a fresh cache per element, released at once. */
export const describeNow: Describe = (el) => {
  const cache = new WalkCache();
  try {
    return describeWith(cache)(el);
  } finally {
    cache.clear();
  }
};
