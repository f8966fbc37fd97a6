// press_key: one key or chord as a person's keyboard presses it. Page side: extension/content/actions/press.ts.
import { PressKeyArgs, PressKeyResult } from '../../../shared/input-ops.js';
import { orielError } from '../../../shared/errors.js';
import { dialogNote, noteOf } from './dialogs.js';
import { defineTool } from './types.js';
import { withChanges } from '../changes.js';

export const pressKey = defineTool({
  name: 'press_key',
  title: 'Press a key or shortcut',
  description:
    'Presses a key or shortcut on an element or whatever has focus, as the browser would. For text use type.',
  usage:
    'key is a key name or chord (Enter, Escape, Tab, Shift+Tab, ArrowDown, PageUp, Control+K) or one character; repeat presses it again',
  notes:
    'Presses one key or chord (Enter, Escape, Tab, Shift+Tab, arrows, PageUp, Home, End, Backspace, Control+K, …) on an element (handle or selector; focused first) or on whatever has focus. Does what the browser would for a person where the page does not handle the key itself (Tab moves focus, Escape closes a modal, Enter submits, Space toggles) and says so. To enter text use type; to click use click.',
  input: PressKeyArgs,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  capability: 'act',
  timeout: { default: 10_000, max: 65_000 },
  async handler(args, ctx) {
    if (args.handle !== undefined && args.selector !== undefined) throw orielError('invalid_argument', 'Give at most one of handle or selector.');
    const value = PressKeyResult.parse(await ctx.callPage('press_key', args, { timeoutMs: (args.timeout_ms ?? 5_000) + 5_000 }));
    const on = value.handle ? ` on ${value.handle}` : '';
    const what = value.prevented
      ? 'the page handled it'
      : value.default_action
        ? `Oriel did what the browser would: ${value.default_action}`
        : value.trusted
          ? 'the browser did its default action'
          : 'no default action';
    const focus = value.focused ? ` Focus is on ${value.focused}.` : '';
    const effects = [value.navigation_started && 'navigation started', value.dom_changed && 'page changed'].filter(Boolean).join(', ');
    return withChanges(ctx, {
      structured: value,
      text: `Pressed ${value.key}${args.repeat && args.repeat > 1 ? ` ×${args.repeat}` : ''}${on} (${value.trusted ? 'trusted' : 'synthetic'} input): ${what}${effects ? `; ${effects}` : ''}.${focus}${noteOf(value.note)}${dialogNote(value.dialogs)}`,
    });
  },
});
