// The MAIN-world end of the page-tool channel (shared/page-channel.ts): answers the content script's list request with
// the tools of Oriel's `document.modelContext` and of `navigator.modelContext` (./tool-registry.ts), and runs one on
// request. Content-script end: extension/content/page-tools.ts.
import { PAGE_TOOL_LIMITS, WEBMCP_CALL, WEBMCP_LIST, WEBMCP_RESULT, WEBMCP_TOOLS } from '../../shared/page-channel.js';
import { primordials } from './primordials.js';
import { checkNavigatorContext } from './navigator-context.js';
import { documentTools, navigatorTools, type RegisteredTool, type ToolSource } from './tool-registry.js';

/** The WebMCP draft's `ModelContextClient`: what a tool's `execute` receives to involve the person. */
const client = Object.freeze({
  /** Runs `callback` at once: the person is at the page, and Oriel asks them before calls that need it. */
  requestUserInteraction: async (callback: () => unknown) => callback(),
});

/**
 * The text of an MCP `CallToolResult` that says it failed (`{ isError: true, content: [{ type: 'text', text }] }`, the
 * result shape of `navigator.modelContext` tools, https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result),
 * or undefined for any other value.
 */
function failureText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || (value as { isError?: unknown }).isError !== true) return undefined;
  const content = (value as { content?: unknown }).content;
  const texts: string[] = [];
  if (Array.isArray(content)) {
    for (const part of content) {
      if (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string') texts.push((part as { text: string }).text);
    }
  }
  return texts.join('\n') || 'the tool reported an error without text';
}

/** Installs the channel's two listeners. Call once per document, after the page APIs. */
export function installPageToolsChannel(): void {
  const { parse, stringify, CustomEvent: PageEvent, DOMException: PageDOMException, String: toText } = primordials;

  /**
   * The tools as the content script reads them: `document.modelContext`'s first, then `navigator.modelContext`'s. A
   * loop, not `Array.prototype.map`, which the page may have replaced since it registered them.
   */
  function describeTools(): Array<Omit<RegisteredTool, 'execute'>> {
    const out: Array<Omit<RegisteredTool, 'execute'>> = [];
    for (const registry of [documentTools, navigatorTools]) {
      for (const { execute: _execute, ...rest } of registry.values()) out[out.length] = rest;
    }
    return out;
  }

  /** Runs tool `name` of `source` with `input`; resolves to its result's JSON text (cut at the bound) or rejects with the page's error. */
  async function run(name: string, source: ToolSource, input: unknown): Promise<{ result?: string; chars: number }> {
    const tool = (source === 'navigator' ? navigatorTools : documentTools).get(name);
    if (!tool) throw new PageDOMException(`No tool named ${name} is registered.`, 'NotFoundError');
    const value = await primordials.apply(tool.execute, undefined, [input, client]);
    const failed = source === 'navigator' ? failureText(value) : undefined;
    if (failed !== undefined) throw new PageDOMException(failed, 'OperationError');
    const json = value === undefined ? undefined : stringify(value);
    if (json === undefined) return { chars: 0 };
    return { result: json.length > PAGE_TOOL_LIMITS.resultChars ? json.slice(0, PAGE_TOOL_LIMITS.resultChars) : json, chars: json.length };
  }

  /** Text of whatever a page's tool threw, bounded. */
  function messageOf(err: unknown): string {
    try {
      const message = typeof err === 'object' && err !== null && 'message' in err ? toText((err as { message: unknown }).message) : toText(err);
      return message.slice(0, PAGE_TOOL_LIMITS.errorChars);
    } catch {
      return 'the tool threw a value that cannot be shown';
    }
  }

  const answer = (type: string, detail: unknown) => primordials.dispatch(new PageEvent(type, { detail: stringify(detail) }));

  // In the capture phase: this listener, added before any page script ran, is the first the request reaches, so the
  // page cannot stop it before it answers (a page answering too is refused by the content script).
  primordials.listenOn(window, WEBMCP_LIST, (event) => {
    const id = (event as CustomEvent<unknown>).detail;
    if (typeof id !== 'string') return;
    const navigatorLate = checkNavigatorContext();
    answer(WEBMCP_TOOLS, { id, tools: describeTools(), ...(navigatorLate && { navigatorLate }) });
  }, { capture: true });

  primordials.listen(WEBMCP_CALL, (event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    if (typeof detail !== 'string') return;
    let request: { id: string; name: string; source: ToolSource; input: unknown };
    try {
      const parsed = parse(detail) as { id?: unknown; name?: unknown; source?: unknown; input?: unknown };
      if (typeof parsed.id !== 'string' || typeof parsed.name !== 'string' || typeof parsed.input !== 'string') return;
      request = { id: parsed.id, name: parsed.name, source: parsed.source === 'navigator' ? 'navigator' : 'document', input: parse(parsed.input) };
    } catch {
      return;
    }
    // Awaited, not `.then`: the page may have replaced `Promise.prototype.then`, which `await` does not look up.
    void (async () => {
      try {
        const done = await run(request.name, request.source, request.input);
        answer(WEBMCP_RESULT, { id: request.id, ok: true, ...done });
      } catch (err) {
        answer(WEBMCP_RESULT, { id: request.id, ok: false, error: messageOf(err) });
      }
    })();
  });
}
