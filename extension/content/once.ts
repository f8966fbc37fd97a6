// Keeps one live content script per document: the background may inject it into a frame that the registration by
// host also reached (docs/architecture.md, "What a page can see"). Imported first by the entry, so a second copy stops
// before it listens to anything. The mark lives in the isolated world, which pages cannot see.
import { CONTENT_MARK, marks } from './marks.js';

/** Whether this extension's runtime is reachable from here (false once the extension was reloaded or removed). */
function alive(): boolean {
  try {
    return chrome.runtime?.id !== undefined;
  } catch {
    return false;
  }
}

const earlier = marks[CONTENT_MARK];
// A copy left behind by an earlier install of the extension cannot answer: the new one takes over.
if (typeof earlier === 'function' && earlier()) throw new Error('Oriel: this frame has a content script already');
marks[CONTENT_MARK] = alive;
