// Pipeline stage 4: the caller's document guard. A call that names the document it expects fails with
// stale_document when the tab's top frame shows another one.
import { orielError } from '../../../shared/errors.js';
import { sendToFrame } from '../frames.js';
import type { Stage } from './types.js';

export const documentGuard: Stage = async (state) => {
  const expected = state.call.document;
  if (expected === undefined) return;
  const now = await sendToFrame(state.tab, 0, 'document', {});
  if (now.document !== expected) {
    throw orielError('stale_document', `The tab now shows another document (doc=${now.document}, expected ${expected}). Take a new snapshot.`, {
      details: { document: now.document },
    });
  }
};
