// Pipeline stage 3: may this caller use the op's capability on the target frame's origin? Sharing a tab grants read
// and act in it; exec (the agent's own JavaScript) needs the person's explicit allowance in the options page.
import { orielError } from '../../../shared/errors.js';
import type { Stage } from './types.js';

export const consent: Stage = async (state) => {
  if (state.call.capability === 'exec' && !state.settings.allowEvaluate) {
    throw orielError(
      'operation_disabled',
      'The user has not allowed agents to run JavaScript in their tabs. They can turn it on in Oriel\'s options ("Let agents run JavaScript in shared tabs"). To read the page use snapshot, extract or extract_rows instead.',
    );
  }
};
