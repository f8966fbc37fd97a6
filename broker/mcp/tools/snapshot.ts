// snapshot: the page outline with element handles (docs/snapshot-format.md).
import { SnapshotArgs } from '../../../shared/ops.js';
import type { ToolDefinition } from './types.js';
import { defineTool } from './define.js';
import { click } from './click.js';
import { type } from './input.js';
import { extract } from './read.js';
import { screenshot } from './screenshot.js';
import { pdfSnapshot } from '../pdf-snapshot.js';

export const snapshot: ToolDefinition = defineTool({
  name: 'snapshot',
  title: 'Read the page outline',
  description: () => `Reads the tab as an outline with a handle per element to act on. Start here; after a change (e.g. a ${click.name}) since=<snapshot id> returns only what changed.`,
  usage:
    'root limits it to a handle\'s subtree; query, roles and interactive_only filter it; max_chars is its budget (default 24000, up to 200000); cursor continues a cut outline; since=<snapshot id> returns only what changed since that snapshot',
  notes: () =>
    `Returns an outline of what a person sees in the shared tab: roles, accessible names, values, states, link URLs, and a handle (like @q7k2mzr4.3) for every element you can act on or read. Changes nothing. Start here, and again after the page changes. Handles are opaque: pass them unchanged to ${click.name}, ${type.name}, ${extract.name}. Long pages are cut at a character budget; pass the returned cursor to continue. For one value use ${extract.name}; for pixels use ${screenshot.name}.`,
  commonArgs: ['session', 'lease'],
  input: SnapshotArgs,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  capability: 'read',
  async handler(args, ctx) {
    const value = await ctx.callPage('snapshot', args);
    // A tab showing a PDF answers with the PDF itself: its text per page (../pdf-snapshot.ts).
    if ('pdf' in value) return pdfSnapshot(value, args);
    // The outline is the text content, once: structuredContent carries the data around it (ids, coverage, cursor,
    // changes), not the outline a second time (docs/tools.md, "Results").
    const { text, ...data } = value;
    return { structured: data, text };
  },
});
