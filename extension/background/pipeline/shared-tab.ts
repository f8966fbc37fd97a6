// Pipeline stage 1: the call's tab must be shared right now (a tab the person did not share is out of reach).
import { orielError } from '../../../shared/errors.js';
import { isShared } from '../sharing.js';
import type { Stage } from './types.js';

export const sharedTab: Stage = async (state) => {
  if (!(await isShared(state.tab))) throw orielError('session_gone', 'This tab is no longer shared.');
};
