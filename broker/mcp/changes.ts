// The part of a tool's answer that shows what its action changed in the page: the outline diff since the snapshot
// this client last saw of the tab, or the note saying a snapshot is better (docs/tools.md, "Results"). The browser makes
// it (extension/background/action-changes.ts) for the operations that report changes; here it is checked and appended.
import { ActionChangesSchema } from '../../shared/action-changes.js';
import type { ResponsePart } from './tools/response.js';

/**
 * The diff or note after the tool's own text (on a line of its own), and in `structuredContent.changes` its counts
 * and snapshot ids (the text is not repeated there). Nothing when the client had no snapshot of the tab to compare
 * with, or the browser sent nothing usable.
 */
export const changesPart: ResponsePart = {
  name: 'changes',
  add({ ctx }) {
    const parsed = ActionChangesSchema.safeParse(ctx.pageChanges.at(-1));
    if (!parsed.success) return undefined;
    const { text, ...data } = parsed.data;
    return { text: `\n${text}`, structured: { changes: data } };
  },
};
