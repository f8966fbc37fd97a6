// press_key: one key or chord as a person's keyboard presses it. Page side: extension/content/actions/press.ts.
import { PressKeyArgs } from '../../../shared/input-ops.js';
import type { ToolDefinition } from './types.js';
import { AT_MOST_ONE_ELEMENT, defineTool } from './define.js';
import { click } from './click.js';
import { type } from './input.js';

export const pressKey: ToolDefinition = defineTool({
  name: 'press_key',
  title: 'Press a key or shortcut',
  description: () => `Presses a key or shortcut on an element or whatever has focus, as the browser would. For text use ${type.name}.`,
  usage:
    'key is a key name or chord (Enter, Escape, Tab, Shift+Tab, ArrowDown, PageUp, Control+K) or one character; repeat presses it again',
  notes: () =>
    `Presses one key or chord (Enter, Escape, Tab, Shift+Tab, arrows, PageUp, Home, End, Backspace, Control+K, …) on an element (handle or selector; focused first) or on whatever has focus. Does what the browser would for a person where the page does not handle the key itself (Tab moves focus, Escape closes a modal, Enter submits, Space toggles) and says so. To enter text use ${type.name}; to click use ${click.name}.`,
  input: PressKeyArgs,
  unlisted: ['dialog_policy'],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  capability: 'act',
  acting: true,
  choose: [AT_MOST_ONE_ELEMENT],
  async handler(args, ctx) {
    const value = await ctx.callPage('press_key', args);
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
    return {
      structured: value,
      text: `Pressed ${value.key}${args.repeat && args.repeat > 1 ? ` ×${args.repeat}` : ''}${on} (${value.trusted ? 'trusted' : 'synthetic'} input): ${what}${effects ? `; ${effects}` : ''}.${focus}`,
    };
  },
});
