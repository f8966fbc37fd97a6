// Page operations the background runs itself because they need extension APIs (tabs, webNavigation, scripting,
// userScripts). The router (extension/background/router.ts) calls these before routing to a content script.
import type { FrameCallOptions } from '../frames.js';
import { evaluate } from './evaluate.js';
import { navigate } from './navigate.js';
import { screenshot } from './screenshot.js';

/**
 * op name → implementation; `tab` is the shared tab's id, `args` the call's arguments (validated against the op's
 * schema), `frameCall` what content calls made on the op's behalf must carry (call id, redaction policy, deadline).
 */
export const backgroundOps: Record<string, (tab: number, args: Record<string, unknown>, frameCall: FrameCallOptions) => Promise<unknown>> = {
  navigate,
  evaluate,
  screenshot,
};
