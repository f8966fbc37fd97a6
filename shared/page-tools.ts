// Tools a page registers for agents (WebMCP, https://webmachinelearning.github.io/webmcp/): how Oriel describes them
// and what the MAIN-world side hands the content script. Page side: extension/main/webmcp.ts (the API where the browser
// lacks it) and extension/content/page-tools.ts; broker side: broker/mcp/tools/page-tools.ts (lists, validates the
// arguments with the page's schema, calls). Names and bounds of the page channel: shared/page-channel.ts.
import { z } from 'zod';
import { PAGE_TOOL_LIMITS } from './page-channel.js';

export { PAGE_TOOL_LIMITS };

/**
 * A tool name as MCP accepts one (1–128 characters of letters, digits, `_`, `-`, `.`). Names the page gives otherwise
 * are skipped: they could not be passed back unambiguously.
 */
export const PageToolNameSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'not a page tool name (1–128 letters, digits, "_", "-" or ".")');

/** The page API a tool was registered with. */
export const PageToolSourceSchema = z.enum(['document', 'navigator']);
export type PageToolSource = z.infer<typeof PageToolSourceSchema>;

/** One tool the page registered, as agents see it. Everything but `read_only` and `consequential` is the page's own words. */
export const PageToolSchema = z.object({
  name: PageToolNameSchema,
  title: z.string().max(PAGE_TOOL_LIMITS.titleChars),
  description: z.string().max(PAGE_TOOL_LIMITS.descriptionChars),
  /** The page's JSON Schema for the arguments (`{"type":"object"}` when it gave none); absent when over the bound. */
  input_schema: z.record(z.string(), z.unknown()).optional(),
  /** The page declared it changes nothing (`annotations.readOnlyHint`). */
  read_only: z.boolean(),
  /** Anything not declared read-only may change something that matters: agents should ask the person first. */
  consequential: z.boolean(),
  /**
   * The page API it was registered with: `document` (`document.modelContext`, the WebMCP draft's) or `navigator`
   * (`navigator.modelContext`, the older shape polyfills and libraries use). A name on both is `document`'s.
   */
  registered_on: PageToolSourceSchema,
});
export type PageTool = z.infer<typeof PageToolSchema>;

/** Which side provides the page API: the browser's own (Chromium with WebMCP enabled) or Oriel's. */
export const PageToolProviderSchema = z.enum(['browser', 'oriel']);

/** Longest text of one field the MAIN side's description of a tool may carry, characters; longer is cut to it. */
const MAIN_FIELD_CHARS = 100_000;
/** A text field of a tool's description: cut to {@link MAIN_FIELD_CHARS}, so one long field costs nothing else. */
const mainText = z.string().transform((s) => s.slice(0, MAIN_FIELD_CHARS));

/**
 * A tool as the MAIN side describes it to the content script (shared/page-channel.ts WEBMCP_TOOLS); validated there,
 * one entry at a time: an entry that does not fit is skipped alone, never the whole list. An input schema over the
 * bound is kept only as long as it takes to tell it is over (the tool is then listed without one, and cannot be called).
 */
export const MainToolSchema = z.object({
  name: z.string().max(1000),
  title: mainText,
  description: mainText,
  inputSchema: z
    .string()
    .transform((s) => s.slice(0, PAGE_TOOL_LIMITS.schemaBytes * 4 + 1))
    .optional(),
  readOnly: z.boolean(),
  source: PageToolSourceSchema.default('document'),
});
export type MainTool = z.infer<typeof MainToolSchema>;
/** The MAIN side's list: its entries are checked one by one with {@link MainToolSchema} (see {@link mainTools}). */
export const MainToolsSchema = z.object({
  id: z.string().max(40),
  tools: z.array(z.unknown()).max(1000),
  /** The page's own `navigator.modelContext` object was first seen at this request: what it registered before is missing. */
  navigatorLate: z.boolean().optional(),
});

/** The entries of a MAIN-side list that fit {@link MainToolSchema}, and how many did not. */
export function mainTools(entries: readonly unknown[]): { tools: MainTool[]; invalid: number } {
  const tools: MainTool[] = [];
  let invalid = 0;
  for (const entry of entries) {
    const parsed = MainToolSchema.safeParse(entry);
    if (parsed.success) tools.push(parsed.data);
    else invalid++;
  }
  return { tools, invalid };
}

/** The MAIN side's answer to one call. */
export const MainResultSchema = z.union([
  z.object({ id: z.string().max(40), ok: z.literal(true), result: z.string().max(PAGE_TOOL_LIMITS.resultChars).optional(), chars: z.number().int().min(0) }),
  z.object({ id: z.string().max(40), ok: z.literal(false), error: z.string().max(PAGE_TOOL_LIMITS.errorChars) }),
]);
