// type and select_options: filling fields as a person's keyboard and pickers do. Page side:
// extension/content/actions/type.ts, select.ts.
import { TypeArgs } from '../../../shared/ops.js';
import { SelectOptionsArgs } from '../../../shared/input-ops.js';
import { quote } from '../../../shared/snapshot/escape.js';
import type { ToolDefinition } from './types.js';
import { defineTool, oneElement } from './define.js';
import { click } from './click.js';
import { extract } from './read.js';
import { snapshot } from './snapshot.js';

export const type: ToolDefinition = defineTool({
  name: 'type',
  title: 'Type into a field',
  description: () => `Types into a field, or picks a <select> option by its label. For buttons and checkboxes use ${click.name}.`,
  usage:
    'text replaces the field\'s content unless clear is false; submit presses Enter after',
  notes: () =>
    `Types text into one input, textarea or contenteditable element, or chooses an option of a <select> by its label or value, named by a handle from ${snapshot.name} (or a CSS selector matching exactly one element). Clears the field first unless clear is false; keys go one by one to whatever has focus, so code boxes that advance fill in turn, and the result counts the characters that went to other elements. A tab or line break in text is text for the field (an <input> drops line breaks), not Tab or Enter: move focus with press_key, submit with submit, which presses Enter. A number input takes only a number (12, -3.5, 1e3); other text fails with invalid_argument. Waits until the field is editable. To press a button or tick a checkbox use ${click.name}; to read a value use ${extract.name}.`,
  input: TypeArgs,
  unlisted: ['dialog_policy'],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  capability: 'act',
  acting: true,
  choose: [oneElement(() => snapshot)],
  async handler(args, ctx) {
    const value = await ctx.callPage('type', args);
    const shown = value.redacted ? 'a redacted value' : quote(value.value ?? '');
    const effects = [value.submitted && 'submitted', value.navigation_started && 'navigation started', value.dom_changed && 'page changed'].filter(Boolean).join(', ');
    const away = value.elsewhere ? ` ${value.elsewhere} typed character${value.elsewhere === 1 ? '' : 's'} went to other elements than ${value.handle}, because focus moved on while typing.` : '';
    const focus = `${away}${value.focused ? ` Focus moved on to ${value.focused}.` : ''}`;
    return {
      structured: value,
      text: `Typed into ${value.handle} (${value.trusted ? 'trusted' : 'synthetic'} input); it now holds ${shown}${effects ? ` (${effects})` : ''}.${focus}`,
    };
  },
});

export const selectOptions: ToolDefinition = defineTool({
  name: 'select_options',
  title: 'Choose several options of a list',
  description: () => `Sets the chosen options of a multi-select or listbox. For one option use ${type.name}.`,
  usage:
    'options are labels or values ([] clears); add keeps those already chosen',
  notes: () =>
    `Chooses options of a <select multiple> or a multi-select listbox by their labels (or values), named by a handle or selector: options become the selection, or are added to it with add; [] clears it. Returns what is selected afterwards. For a single-choice select use ${type.name}; for one listbox option use ${click.name}.`,
  input: SelectOptionsArgs,
  unlisted: ['dialog', 'dialog_text', 'dialog_policy'],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  capability: 'act',
  acting: true,
  choose: [oneElement(() => snapshot)],
  async handler(args, ctx) {
    const value = await ctx.callPage('select_options', args);
    const shown = value.selected.length ? value.selected.map((s) => quote(s)).join(', ') : 'nothing';
    return { structured: value, text: `${value.handle} now has ${shown} selected.` };
  },
});
