// type and select_options: filling fields as a person's keyboard and pickers do. Page side:
// extension/content/actions/type.ts, select.ts.
import { TypeArgs, TypeResult } from '../../../shared/ops.js';
import { SelectOptionsArgs, SelectOptionsResult } from '../../../shared/input-ops.js';
import { dialogNote, noteOf } from './dialogs.js';
import { orielError } from '../../../shared/errors.js';
import { quote } from '../../../shared/snapshot/escape.js';
import { defineTool } from './types.js';
import { withChanges } from '../changes.js';

export const type = defineTool({
  name: 'type',
  title: 'Type into a field',
  description:
    'Types into a field, or picks a <select> option by its label. For buttons and checkboxes use click.',
  usage:
    'text replaces the field\'s content unless clear is false; submit presses Enter after',
  notes:
    'Types text into one input, textarea or contenteditable element, or chooses an option of a <select> by its label or value, named by a handle from snapshot (or a CSS selector matching exactly one element). Clears the field first unless clear is false; keys go one by one to whatever has focus, so code boxes that advance fill in turn; submit presses Enter. Waits until the field is editable. To press a button or tick a checkbox use click; to read a value use extract.',
  input: TypeArgs,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  capability: 'act',
  timeout: { default: 15_000, max: 65_000 },
  async handler(args, ctx) {
    if ((args.handle === undefined) === (args.selector === undefined)) throw orielError('invalid_argument', 'Give exactly one of handle or selector.', { next: 'snapshot' });
    const timeoutMs = (args.timeout_ms ?? 5_000) + 5_000;
    const value = TypeResult.parse(await ctx.callPage('type', args, { timeoutMs }));
    const shown = value.redacted ? 'a redacted value' : quote(value.value ?? '');
    const effects = [value.submitted && 'submitted', value.navigation_started && 'navigation started', value.dom_changed && 'page changed'].filter(Boolean).join(', ');
    const focus = value.focused ? ` Focus moved on to ${value.focused}.` : '';
    return withChanges(ctx, {
      structured: value,
      text: `Typed into ${value.handle} (${value.trusted ? 'trusted' : 'synthetic'} input); it now holds ${shown}${effects ? ` (${effects})` : ''}.${focus}${noteOf(value.note)}${dialogNote(value.dialogs)}`,
    });
  },
});

export const selectOptions = defineTool({
  name: 'select_options',
  title: 'Choose several options of a list',
  description:
    'Sets the chosen options of a multi-select or listbox. For one option use type.',
  usage:
    'options are labels or values ([] clears); add keeps those already chosen',
  notes:
    'Chooses options of a <select multiple> or a multi-select listbox by their labels (or values), named by a handle or selector: options become the selection, or are added to it with add; [] clears it. Returns what is selected afterwards. For a single-choice select use type; for one listbox option use click.',
  input: SelectOptionsArgs,
  unlisted: ['dialog', 'dialog_text'],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  capability: 'act',
  timeout: { default: 10_000, max: 65_000 },
  async handler(args, ctx) {
    if ((args.handle === undefined) === (args.selector === undefined)) throw orielError('invalid_argument', 'Give exactly one of handle or selector.', { next: 'snapshot' });
    const value = SelectOptionsResult.parse(await ctx.callPage('select_options', args, { timeoutMs: (args.timeout_ms ?? 5_000) + 5_000 }));
    const shown = value.selected.length ? value.selected.map((s) => quote(s)).join(', ') : 'nothing';
    return withChanges(ctx, { structured: value, text: `${value.handle} now has ${shown} selected.${dialogNote(value.dialogs)}` });
  },
});
