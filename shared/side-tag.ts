// The tag every message of the extension's side channels carries (./side-messages.ts), in a module of its own so the
// smallest content script (extension/content/early.iife.ts) can send one without loading the map's schemas.

/** The property naming a side message's kind on the extension's message bus. */
export const SIDE_TAG = 'oriel_side';
