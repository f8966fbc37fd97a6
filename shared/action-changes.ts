// What an action's result says changed in the page: the outline diff since the snapshot the caller last saw, or a
// one-line note saying why a snapshot is better (docs/tools.md, "Results"). Made in the background
// (extension/background/action-changes.ts), shown by the MCP tools (broker/mcp/changes.ts).
import { z } from 'zod';

/** Most characters of diff an action's result carries; a larger change gets the note instead. */
export const ACTION_DIFF_CHARS = 4_000;

/** Why the changes are a note rather than a diff. */
export const CHANGES_NOT_SHOWN = ['navigating', 'new_document', 'too_large', 'not_read', 'not_kept'] as const;

export const ActionChangesSchema = z.object({
  /** The snapshot compared with: the last one (snapshot, `since` diff or action diff) this caller saw of the tab. */
  since: z.string().max(20),
  shown_as: z.enum(['diff', 'note']),
  /** For a diff: the snapshot it brings the caller to (the next action compares with it; `since` may name it). */
  snapshot: z.string().max(20).optional(),
  changed: z.number().int().nonnegative(),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  reason: z.enum(CHANGES_NOT_SHOWN).optional(),
  /** Where the comparison's time went, ms: in the frames' content scripts, and in the browser altogether (benchmarks). */
  timing: z.object({ content_ms: z.number().nonnegative(), browser_ms: z.number().nonnegative() }).optional(),
  /** The diff in the outline's notation (docs/snapshot-format.md, "Changes since a snapshot"), or the note. */
  text: z.string().max(ACTION_DIFF_CHARS + 1_000),
});
export type ActionChanges = z.infer<typeof ActionChangesSchema>;
