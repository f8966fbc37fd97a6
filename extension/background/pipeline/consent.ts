// Pipeline stage 3: may this caller use the op's capability on the target frame's origin? Sharing a tab grants read
// and act in it; exec (the agent's own JavaScript) needs the person's explicit allowance in the options page.
import { orielError } from '../../../shared/errors.js';
import { openedBy } from '../sharing.js';
import type { Stage } from './types.js';

export const consent: Stage = async (state) => {
  // A tab shared because a shared tab opened it covers the opener's origin only.
  const opened = await openedBy(state.tab);
  if (opened && state.target && state.target.origin !== opened.origin) {
    throw orielError(
      'permission_denied',
      `This tab was opened by a shared tab and is shared for ${opened.origin} only; it now shows ${state.target.origin}. Ask the user to share it from the Oriel popup to work there.`,
      { next: 'ask the user to share this tab, or go back to the opener with list_sessions' },
    );
  }
  if (state.call.capability === 'exec' && !state.settings.allowEvaluate) {
    throw orielError(
      'operation_disabled',
      'The user has not allowed agents to run JavaScript in their tabs. They can turn it on in Oriel\'s options ("Let agents run JavaScript in shared tabs"). To read the page use snapshot, extract or extract_rows instead.',
    );
  }
};
