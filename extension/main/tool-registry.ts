// The tools a document registered through either page API Oriel hears — `document.modelContext` (./webmcp.ts) and the
// older `navigator.modelContext` shape of polyfills and libraries (./navigator-context.ts) — as the page channel
// (./page-tools-channel.ts) lists and runs them for the content script (extension/content/page-tools.ts).
import { primordials } from './primordials.js';

/** Which page API a tool was registered with. */
export type ToolSource = 'document' | 'navigator';

/** One registered tool, as its registration converted it (the WebMCP draft's `ModelContextTool` dictionary). */
export interface RegisteredTool {
  name: string;
  title: string;
  description: string;
  /** JSON text of the input schema, taken at registration (a page changing the object later changes nothing). */
  inputSchema?: string;
  readOnly: boolean;
  execute: (input: unknown, client: unknown) => unknown;
  source: ToolSource;
}

/** The tools registered on `document.modelContext`, by name (Oriel's API only; the browser's own lists its own). */
export const documentTools = new Map<string, RegisteredTool>();

/** The tools registered on `navigator.modelContext` (Oriel's or a page library's object), by name. */
export const navigatorTools = new Map<string, RegisteredTool>();

/**
 * Converts the page's tool dictionary, as the browser's binding would: names and words to text, the schema to JSON
 * text now (a cyclic schema throws here, to the page), `annotations.readOnlyHint` to a flag.
 * @param api the method name the errors cite, e.g. `registerTool' on 'ModelContext`.
 * @throws TypeError when the tool is not an object, `name`/`description`/`execute` is missing, the name is empty or the
 *   schema is not an object.
 */
export function convertTool(tool: unknown, source: ToolSource, api: string): RegisteredTool {
  const { stringify, TypeError: PageTypeError, String: toText } = primordials;
  const fail = (why: string) => new PageTypeError(`Failed to execute ${api}: ${why}`);
  if (typeof tool !== 'object' || tool === null) throw fail('the tool is not an object.');
  const dict = tool as Record<string, unknown>;
  const text = (key: string, required: boolean): string => {
    const value = dict[key];
    if (value === undefined || value === null) {
      if (required) throw fail(`required member ${key} is undefined.`);
      return '';
    }
    return toText(value);
  };
  const name = text('name', true);
  const description = text('description', true);
  const execute = dict.execute;
  if (typeof execute !== 'function') throw fail('required member execute is not a function.');
  if (name === '') throw fail('the name is empty.');
  const schema = dict.inputSchema;
  if (schema !== undefined && (typeof schema !== 'object' || schema === null)) throw fail('inputSchema is not an object.');
  const inputSchema = schema === undefined ? undefined : stringify(schema);
  const annotations = dict.annotations as { readOnlyHint?: unknown } | undefined;
  return {
    name,
    title: text('title', false),
    description,
    ...(inputSchema !== undefined && { inputSchema }),
    readOnly: Boolean(annotations?.readOnlyHint),
    execute: execute as RegisteredTool['execute'],
    source,
  };
}
