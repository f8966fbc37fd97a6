// snapshot: the page outline with element handles (docs/snapshot-format.md).
import { SnapshotArgs, SnapshotResult } from '../../../shared/ops.js';
import { defineTool } from './types.js';
import { PdfTabValue, pdfSnapshot } from '../pdf-snapshot.js';

export const snapshot = defineTool({
  name: 'snapshot',
  title: 'Read the page outline',
  description:
    'Returns an outline of what a person sees in the shared tab: roles, accessible names, values, states, link URLs, and a handle (like @q7k2mzr4.3) for every element you can act on or read. Changes nothing. Start here, and again after the page changes. Handles are opaque: pass them unchanged to click, type, extract. Long pages are cut at a character budget; pass the returned cursor to continue. For one value use extract; for pixels use screenshot.',
  input: SnapshotArgs,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  capability: 'read',
  timeout: { default: 30_000, max: 60_000 },
  async handler(args, ctx) {
    const raw = await ctx.callPage('snapshot', args);
    // A tab showing a PDF answers with the PDF itself: its text per page (../pdf-snapshot.ts).
    const pdf = PdfTabValue.safeParse(raw);
    if (pdf.success) return pdfSnapshot(pdf.data, args);
    const value = SnapshotResult.parse(raw);
    // The text is the outline as paginated within max_chars; its coverage line already says how to continue.
    return { structured: value, text: value.text };
  },
});
