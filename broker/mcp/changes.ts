// The part of an acting tool's answer that shows what the action changed in the page: the outline diff since the
// snapshot this client last saw of the tab, or the note saying a snapshot is better (docs/tools.md, "Results"). The
// browser makes it (extension/background/action-changes.ts); here it is checked, bounded and appended.
import { ActionChangesSchema } from '../../shared/action-changes.js';
import type { ToolContext, ToolOutput } from './tools/types.js';

/**
 * `out` with the changes the call's page action reported: the diff or note after the tool's own text, and in
 * `structuredContent.changes` its counts and snapshot ids (the text is not repeated there). `out` unchanged when the
 * client had no snapshot of the tab to compare with, or the browser sent nothing usable.
 */
export function withChanges(ctx: Pick<ToolContext, 'pageChanges'>, out: ToolOutput): ToolOutput {
  const parsed = ActionChangesSchema.safeParse(ctx.pageChanges.at(-1));
  if (!parsed.success) return out;
  const { text, ...data } = parsed.data;
  return { ...out, structured: { ...out.structured, changes: data }, text: `${out.text}\n${text}` };
}
