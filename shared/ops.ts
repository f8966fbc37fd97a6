// Page operations: the argument and result schemas of every call the hub sends to a browser (hub → background →
// content script). The MCP tools in broker/mcp/tools build on these; the background validates them again.
import { z } from 'zod';

/** An element handle as issued by a snapshot: `<document namespace>.<counter>` (SPEC §3). */
export const HandleSchema = z
  .string()
  .max(64)
  .regex(/^[a-z0-9]{4,16}\.[0-9a-z]{1,10}$/, 'not an Oriel handle (handles look like "q7k2mzr4.3"; take them from a snapshot)');

/** A document id: the handle namespace of a loaded document (SPEC §2, §3). */
export const DocumentIdSchema = z.string().regex(/^[a-z0-9]{4,16}$/, 'not an Oriel document id');

/** Snapshot arguments (SPEC §3). Limits in characters. */
export const SnapshotArgs = z.object({
  root: HandleSchema.optional().describe('Snapshot only the subtree under this handle. Default: the whole page.'),
  query: z.string().max(200).optional().describe('Keep only nodes whose name, text or value contains this text (case-insensitive), with their ancestors.'),
  roles: z.array(z.string().max(40)).max(40).optional().describe('Keep only nodes with these roles (e.g. ["button","link"]), with their ancestors.'),
  interactive_only: z.boolean().optional().describe('Keep only elements an agent can act on. Default false.'),
  max_chars: z.number().int().min(500).max(200_000).optional().describe('Character budget for the outline. Default 24000, hard cap 200000.'),
  cursor: z.string().max(100).optional().describe('The cursor a previous truncated snapshot returned, to continue where it stopped.'),
});
export type SnapshotArgs = z.infer<typeof SnapshotArgs>;

/** What a snapshot reports about how much of the page it covered. Counts are of DOM nodes / outline lines. */
export const CoverageSchema = z.object({
  visited: z.number().int(),
  shown: z.number().int(),
  omitted: z.number().int(),
  truncated: z.boolean(),
});
export type Coverage = z.infer<typeof CoverageSchema>;

export const SnapshotResult = z.object({
  document: z.string(),
  url: z.string(),
  title: z.string(),
  text: z.string(),
  coverage: CoverageSchema,
  cursor: z.string().optional(),
});
export type SnapshotResult = z.infer<typeof SnapshotResult>;

/** A target element: exactly one of a handle or a CSS selector that must match one element. */
export const TargetArgs = z.object({
  handle: HandleSchema.optional().describe('Element handle from a snapshot, e.g. "q7k2mzr4.3". Preferred.'),
  selector: z.string().max(1000).optional().describe('CSS selector that must match exactly one element, if you have no handle.'),
});

export const ClickArgs = TargetArgs.extend({
  timeout_ms: z.number().int().min(0).max(60_000).optional().describe('How long to wait for the target to become clickable. Default 5000.'),
});
export type ClickArgs = z.infer<typeof ClickArgs>;

export const ClickResult = z.object({
  handle: z.string().optional(),
  dispatched: z.boolean(),
  trusted: z.boolean(),
  navigation_started: z.boolean(),
  dom_changed: z.boolean(),
});
export type ClickResult = z.infer<typeof ClickResult>;

export const NavigateArgs = z.object({
  url: z.string().max(8192).optional().describe('Absolute http(s) URL to load. Omit when using action.'),
  action: z.enum(['back', 'forward', 'reload']).optional().describe('History action instead of a URL.'),
  wait_until: z.enum(['load', 'domcontentloaded', 'none']).optional().describe('What to wait for. Default "load".'),
  timeout_ms: z.number().int().min(100).max(120_000).optional().describe('Navigation timeout. Default 30000.'),
});
export type NavigateArgs = z.infer<typeof NavigateArgs>;

export const NavigateResult = z.object({
  document: z.string().optional(),
  url: z.string(),
  title: z.string(),
});
export type NavigateResult = z.infer<typeof NavigateResult>;

/** Every page operation: name → argument and result schema. */
export const OPS = {
  snapshot: { args: SnapshotArgs, result: SnapshotResult },
  click: { args: ClickArgs, result: ClickResult },
  navigate: { args: NavigateArgs, result: NavigateResult },
} as const;

export type OpName = keyof typeof OPS;
export type OpArgs<N extends OpName> = z.infer<(typeof OPS)[N]['args']>;
export type OpResult<N extends OpName> = z.infer<(typeof OPS)[N]['result']>;
export const OP_NAMES = Object.keys(OPS) as OpName[];
