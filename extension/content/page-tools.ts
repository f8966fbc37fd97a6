// Tools the top document registered (WebMCP), as the content script reads and calls them. Where the browser has the
// API (Chromium with WebMCP enabled), its own agent side — `document.modelContext.getTools()` and `executeTool()`, both
// reachable from this isolated world — is used; elsewhere Oriel's MAIN-world API (extension/main/webmcp.ts) answers
// over the events of shared/page-channel.ts. Names, descriptions, schemas and results are page content: checked
// against bounds here, never interpreted. Broker side: broker/mcp/tools/page-tools.ts.
import { errorData, orielError, OrielError } from '../../shared/errors.js';
import { MainResultSchema, MainToolsSchema, mainTools, PAGE_TOOL_LIMITS, PageToolNameSchema, type PageTool, type PageToolSource } from '../../shared/page-tools.js';
import { WEBMCP_CALL, WEBMCP_LIST, WEBMCP_RESULT, WEBMCP_TOOLS } from '../../shared/page-channel.js';
import { jsonBytes } from '../../shared/bridge.js';
import { currentRegistry } from './document.js';
import { pageHooks } from './page-hooks.js';
import { workMs, type ContentContext, type ContentHandlers } from './handlers.js';

/**
 * What agents are told when Oriel's page API came after the page's own scripts, or never came: a page that registers
 * its tools as it loads found no `document.modelContext` then (docs/architecture.md, "What a page can see").
 */
function lateNote(): string | undefined {
  const hooks = pageHooks();
  if (hooks === 'late') return "This page loaded before Oriel's page API reached it (the tab was shared after the page loaded, or the page came from another site): operations it registered while loading are missing. Reload the tab to list them.";
  if (hooks === 'missing') return "Oriel's page API has not reached this page (it reaches shared tabs only): the page could register no operations. Reload the tab to let it.";
  return undefined;
}

/** What agents are told when the page's own `navigator.modelContext` replaced Oriel's unseen until a list request. */
const NAVIGATOR_LATE =
  "The page's script replaced navigator.modelContext with its own after Oriel's page API reached the page, and Oriel noticed only at this list: operations it registered through it before are missing (later ones are listed).";

/** A request id for the MAIN-world channel (random: `crypto.randomUUID` needs a secure context, pages may lack one). */
function requestId(): string {
  return Array.from(crypto.getRandomValues(new Uint32Array(3)), (n) => n.toString(36)).join('-');
}

/** What to do after a page's operation failed. */
const PAGE_ERROR_NEXT = "snapshot to see the page's state; the operation's description may say what it needs";

/** The schema of a tool registered without one: any arguments object. */
const ANY_OBJECT = '{"type":"object"}';

/**
 * A tool of the browser's own agent side. Chromium 156 gives `inputSchema` as an object and takes arguments as an
 * object; some earlier versions gave the schema as JSON text and took the arguments as JSON text too.
 */
interface NativeTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean };
  /** The window that registered it: the browser lists a tab's frames together. */
  window?: unknown;
}

interface NativeModelContext {
  getTools(): Promise<NativeTool[]>;
  executeTool(tool: NativeTool, input: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/** The browser's own WebMCP agent side, when it has one. */
function nativeContext(): NativeModelContext | undefined {
  const context = (document as unknown as { modelContext?: Partial<NativeModelContext> }).modelContext;
  return typeof context?.getTools === 'function' && typeof context.executeTool === 'function' ? (context as NativeModelContext) : undefined;
}

/** One tool as the page described it, before bounds: name, words, schema text, read-only flag. */
interface Described {
  name: string;
  title: string;
  description: string;
  /** JSON text of the input schema ({@link ANY_OBJECT} when the page gave none). */
  schema: string;
  readOnly: boolean;
  source: PageToolSource;
  /** Set for a tool of the browser's own WebMCP; the others are run by Oriel's page script. */
  native?: NativeTool;
}

function schemaText(schema: unknown): string {
  if (schema === undefined || schema === null || schema === '') return ANY_OBJECT;
  return typeof schema === 'string' ? schema : (JSON.stringify(schema) ?? ANY_OBJECT);
}

async function describeNative(context: NativeModelContext): Promise<Described[]> {
  const tools = await context.getTools();
  return tools
    .filter((t) => t.window === undefined || t.window === window)
    .map((t) => ({
      name: String(t.name),
      title: String(t.title ?? ''),
      description: String(t.description ?? ''),
      schema: schemaText(t.inputSchema),
      readOnly: t.annotations?.readOnlyHint === true,
      source: 'document' as const,
      native: t,
    }));
}

/**
 * Asks the MAIN-world API for its tools; it answers synchronously, while our event is being dispatched, and before any
 * listener of the page (its listener is the first one on the window, in the capture phase). The page sees the request
 * and could answer it too: a request answered more than once is refused, so the list is the MAIN-world API's or none.
 * @throws OrielError `page_error` when more than one answer came.
 */
function describeMain(): { tools: Described[]; navigatorLate: boolean; invalid: number } {
  const id = requestId();
  const answers: unknown[] = [];
  const listener = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    if (typeof detail !== 'string') return;
    try {
      const parsed = MainToolsSchema.safeParse(JSON.parse(detail));
      if (parsed.success && parsed.data.id === id) answers.push(parsed.data);
    } catch {
      /* not ours */
    }
  };
  window.addEventListener(WEBMCP_TOOLS, listener);
  try {
    window.dispatchEvent(new CustomEvent(WEBMCP_LIST, { detail: id }));
  } finally {
    window.removeEventListener(WEBMCP_TOOLS, listener);
  }
  if (answers.length > 1) {
    throw orielError('page_error', "The page answered Oriel's own request for its tool list itself, so no list from it can be trusted; nothing was listed.", {
      next: 'use snapshot and the page itself instead of its registered tools',
    });
  }
  const answer = answers[0] as { tools: unknown[]; navigatorLate?: boolean } | undefined;
  // Entry by entry: one the page made too big or malformed is skipped alone (counted), the others are listed.
  const { tools: entries, invalid } = mainTools(answer?.tools ?? []);
  const tools = entries.map((t) => ({ name: t.name, title: t.title, description: t.description, schema: schemaText(t.inputSchema), readOnly: t.readOnly, source: t.source as PageToolSource }));
  return { tools, navigatorLate: answer?.navigatorLate === true, invalid };
}

/**
 * Every tool of the top document, `document.modelContext`'s first (the browser's own where it has one), then
 * `navigator.modelContext`'s (always heard by Oriel's page script). A name on both is `document.modelContext`'s: the
 * first of a name wins here and in {@link bounded}.
 */
async function describe(): Promise<{ provider: 'browser' | 'oriel'; tools: Described[]; navigatorLate: boolean; invalid: number }> {
  const native = nativeContext();
  if (!native) return { provider: 'oriel', ...describeMain() };
  const own = await describeNative(native);
  const main = describeMain();
  return { provider: 'browser', tools: [...own, ...main.tools.filter((t) => t.source === 'navigator')], navigatorLate: main.navigatorLate, invalid: main.invalid };
}

/** The listing agents see: usable names only, words cut to their bounds, schemas over the bound left out. */
function bounded(tools: Described[]): { operations: PageTool[]; skipped: number } {
  const operations: PageTool[] = [];
  const names = new Set<string>();
  let skipped = 0;
  for (const t of tools) {
    if (operations.length >= PAGE_TOOL_LIMITS.tools || !PageToolNameSchema.safeParse(t.name).success || names.has(t.name)) {
      skipped++;
      continue;
    }
    names.add(t.name);
    let inputSchema: Record<string, unknown> | undefined;
    if (jsonBytes(t.schema, PAGE_TOOL_LIMITS.schemaBytes) <= PAGE_TOOL_LIMITS.schemaBytes) {
      try {
        const parsed: unknown = JSON.parse(t.schema);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) inputSchema = parsed as Record<string, unknown>;
      } catch {
        /* not JSON: listed without a schema, so it cannot be called */
      }
    }
    operations.push({
      name: t.name,
      title: t.title.slice(0, PAGE_TOOL_LIMITS.titleChars),
      description: t.description.slice(0, PAGE_TOOL_LIMITS.descriptionChars),
      ...(inputSchema && { input_schema: inputSchema }),
      read_only: t.readOnly,
      consequential: !t.readOnly,
      registered_on: t.source,
    });
  }
  return { operations, skipped };
}

/** Resolves with the MAIN-world API's answer to call `id`, or rejects when `signal` aborts. */
function awaitMainResult(id: string, signal: AbortSignal): Promise<{ ok: true; result?: string; chars: number } | { ok: false; error: string }> {
  return new Promise((resolve, reject) => {
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<unknown>).detail;
      if (typeof detail !== 'string') return;
      let parsed;
      try {
        parsed = MainResultSchema.safeParse(JSON.parse(detail));
      } catch {
        return;
      }
      if (!parsed.success || parsed.data.id !== id) return;
      done();
      resolve(parsed.data);
    };
    const onAbort = () => {
      done();
      reject(signal.reason);
    };
    const done = () => {
      window.removeEventListener(WEBMCP_RESULT, listener);
      signal.removeEventListener('abort', onAbort);
    };
    window.addEventListener(WEBMCP_RESULT, listener);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The page tool's result: JSON text (or a value) → what agents get, bounded. */
function boundedResult(name: string, document: string, raw: unknown, chars?: number) {
  let json: string | undefined;
  if (typeof raw === 'string') json = raw;
  else if (raw !== undefined) json = JSON.stringify(raw);
  if (json === undefined) return { name, document, truncated: false, chars: 0 };
  const whole = chars ?? json.length;
  if (whole > PAGE_TOOL_LIMITS.resultChars || json.length > PAGE_TOOL_LIMITS.resultChars) {
    return { name, document, preview: json.slice(0, PAGE_TOOL_LIMITS.resultChars), truncated: true, chars: Math.max(whole, json.length) };
  }
  let result: unknown = json;
  try {
    result = JSON.parse(json);
  } catch {
    // The browser's own API passes a tool's plain-text result through as it is.
  }
  return { name, document, result, truncated: false, chars: json.length };
}

/** Aborted when the call's budget ends (less the slack kept for the answer) or when the hub cancels. */
function callSignal(ctx: ContentContext): AbortSignal {
  return AbortSignal.any([ctx.signal, AbortSignal.timeout(workMs(ctx))]);
}

function timedOut(name: string, signal: AbortSignal): OrielError {
  if (signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError') {
    return orielError('timeout', `The page's operation ${JSON.stringify(name)} did not answer in time. It may still finish: snapshot to see the page.`);
  }
  return orielError('cancelled', 'The call was cancelled.');
}

export const pageToolHandlers: ContentHandlers = {
  list_tab_operations: async () => {
    if (window !== window.top) throw orielError('unsupported', 'Page operations belong to the top document of the tab.');
    const { provider, tools, navigatorLate, invalid } = await describe();
    const notes = [provider === 'oriel' ? lateNote() : undefined, navigatorLate ? NAVIGATOR_LATE : undefined].filter(Boolean);
    const note = notes.join(' ');
    const listed = bounded(tools);
    return { document: currentRegistry().namespace, url: location.href, provider, ...listed, skipped: listed.skipped + invalid, ...(note && { note }) };
  },

  call_tab_operation: async (args, ctx) => {
    if (window !== window.top) throw orielError('unsupported', 'Page operations belong to the top document of the tab.');
    const document = currentRegistry().namespace;
    if (document !== args.document) {
      throw orielError('stale_document', `The tab now shows another document (doc=${document}) than the one whose operations were listed (doc=${args.document}).`, { next: 'list_tab_operations' });
    }
    const { tools } = await describe();
    const tool = tools.find((t) => t.name === args.name);
    if (!tool) throw orielError('invalid_argument', `The page no longer has an operation ${JSON.stringify(args.name)}.`, { next: 'list_tab_operations' });
    // The broker checked the arguments against the schema it listed; a page that changed it since gets nothing.
    if (tool.schema !== args.schema) {
      throw orielError('stale_document', `The page changed the input schema of ${JSON.stringify(args.name)} after it was listed; the arguments were not passed on.`, { next: 'list_tab_operations' });
    }
    const signal = callSignal(ctx);
    if (tool.native) {
      const native = nativeContext()!;
      // Arguments in the form this browser's tools take: JSON text where it gives schemas as text.
      const input = typeof tool.native?.inputSchema === 'string' ? JSON.stringify(args.arguments) : args.arguments;
      let raw: unknown;
      try {
        raw = await native.executeTool(tool.native!, input, { signal });
      } catch (err) {
        if (signal.aborted) throw timedOut(args.name, signal);
        // Chromium does not pass the tool's own exception on: its message says only that the invocation failed.
        const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        throw new OrielError(errorData('page_error', `The page's operation ${JSON.stringify(args.name)} failed (the browser does not pass the page's own error on): ${message.slice(0, PAGE_TOOL_LIMITS.errorChars)}`, { next: PAGE_ERROR_NEXT }));
      }
      return boundedResult(args.name, document, raw);
    }
    const id = requestId();
    const answer = awaitMainResult(id, signal);
    window.dispatchEvent(new CustomEvent(WEBMCP_CALL, { detail: JSON.stringify({ id, name: args.name, source: tool.source, input: JSON.stringify(args.arguments) }) }));
    let result;
    try {
      result = await answer;
    } catch {
      throw timedOut(args.name, signal);
    }
    if (!result.ok) throw new OrielError(errorData('page_error', `The page's operation ${JSON.stringify(args.name)} threw: ${result.error}`, { next: PAGE_ERROR_NEXT }));
    return boundedResult(args.name, document, result.result, result.chars);
  },
};
