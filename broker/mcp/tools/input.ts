// type: fill one field as a person's keyboard would (SPEC §4, §9). Page side: extension/content/actions/type.ts.
import { TypeArgs, TypeResult } from '../../../shared/ops.js';
import { orielError } from '../../../shared/errors.js';
import { defineTool } from './types.js';

export const type = defineTool({
  name: 'type',
  title: 'Type into a field',
  description:
    'Types text into one input, textarea or contenteditable element, or chooses an option of a <select> by its label or value, named by a handle from snapshot (or a CSS selector matching exactly one element). Clears the field first unless clear is false; submit presses Enter and submits the form as a person would. Waits until the field is visible, enabled and editable. Input is synthetic key events. To press a button or tick a checkbox use click; to read a value use extract.',
  input: TypeArgs,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  capability: 'act',
  timeout: { default: 15_000, max: 65_000 },
  async handler(args, ctx) {
    if ((args.handle === undefined) === (args.selector === undefined)) throw orielError('invalid_argument', 'Give exactly one of handle or selector.', { next: 'snapshot' });
    const timeoutMs = (args.timeout_ms ?? 5_000) + 5_000;
    const value = TypeResult.parse(await ctx.callPage('type', args, { timeoutMs }));
    const shown = value.redacted ? 'a redacted value' : JSON.stringify(value.value ?? '');
    const effects = [value.submitted && 'submitted', value.navigation_started && 'navigation started', value.dom_changed && 'page changed'].filter(Boolean).join(', ');
    return { structured: value, text: `Typed into ${value.handle}; it now holds ${shown}${effects ? ` (${effects})` : ''}.` };
  },
});
