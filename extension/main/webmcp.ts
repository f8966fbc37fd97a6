// The WebMCP page API where the browser has none (Firefox, Chromium without WebMCP): `document.modelContext
// .registerTool(tool, { signal })` and its `toolchange` event, after the W3C draft
// (https://webmachinelearning.github.io/webmcp/), so the same page code works in every browser. Agents reach the tools
// through the content script (extension/content/page-tools.ts) over the events of shared/page-channel.ts. Where the
// browser has its own API (Chromium with WebMCP enabled) the page uses that, and this module does nothing.
import { PAGE_TOOL_LIMITS, WEBMCP_CALL, WEBMCP_LIST, WEBMCP_RESULT, WEBMCP_TOOLS } from '../../shared/page-channel.js';
import { primordials } from './primordials.js';

/** Provides `document.modelContext` unless the browser has its own, and answers the content script's requests. */
export function installModelContext(): void {
  if ('modelContext' in document) return;
  // Everything is built here, at install, so the bundle touches no page global before it is installed.
  const { parse, stringify, CustomEvent: PageEvent, Event: PageBaseEvent, EventTarget: PageEventTarget, DOMException: PageDOMException, TypeError: PageTypeError, String: toText } = primordials;

  /** One registered tool, as the registration converted it (the draft's `ModelContextTool` dictionary). */
  interface Registered {
    name: string;
    title: string;
    description: string;
    /** JSON text of the input schema, taken at registration (a page changing the object later changes nothing). */
    inputSchema?: string;
    readOnly: boolean;
    execute: (input: unknown, client: unknown) => unknown;
  }

  /** The draft's `ModelContextClient`: what a tool's `execute` receives to involve the person. */
  const client = Object.freeze({
    /** Runs `callback` at once: the person is at the page, and Oriel asks them before calls that need it. */
    requestUserInteraction: async (callback: () => unknown) => callback(),
  });

  /** Field `key` of the page's tool dictionary as text, or a TypeError like the browser's own binding throws. */
  function text(tool: Record<string, unknown>, key: string, required: boolean): string {
    const value = tool[key];
    if (value === undefined || value === null) {
      if (required) throw new PageTypeError(`Failed to execute 'registerTool' on 'ModelContext': required member ${key} is undefined.`);
      return '';
    }
    return toText(value);
  }

  /** The tools this document registered, by name. */
  const registry = new Map<string, Registered>();

  /** The page-facing object: `document.modelContext`. Its only members are the draft's. */
  class ModelContext extends PageEventTarget {
    /** The draft's event handler attribute for `toolchange`. */
    ontoolchange: ((event: Event) => unknown) | null = null;

    /**
     * Registers a tool until `options.signal` aborts.
     * @throws TypeError when `name`, `description` or `execute` is missing or the schema cannot be serialised;
     *   DOMException `InvalidStateError` when a tool of that name is registered already.
     */
    registerTool(tool: Record<string, unknown>, options?: { signal?: AbortSignal }): void {
      if (typeof tool !== 'object' || tool === null) throw new PageTypeError("Failed to execute 'registerTool' on 'ModelContext': the tool is not an object.");
      const name = text(tool, 'name', true);
      const description = text(tool, 'description', true);
      const execute = tool.execute;
      if (typeof execute !== 'function') throw new PageTypeError("Failed to execute 'registerTool' on 'ModelContext': required member execute is not a function.");
      if (name === '') throw new PageTypeError("Failed to execute 'registerTool' on 'ModelContext': the name is empty.");
      const schema = tool.inputSchema;
      if (schema !== undefined && (typeof schema !== 'object' || schema === null)) throw new PageTypeError("Failed to execute 'registerTool' on 'ModelContext': inputSchema is not an object.");
      // Serialised now, as the browser's binding does: a cyclic schema throws here, to the page.
      const inputSchema = schema === undefined ? undefined : stringify(schema);
      const annotations = tool.annotations as { readOnlyHint?: unknown } | undefined;
      if (registry.has(name)) throw new PageDOMException('Duplicate tool name', 'InvalidStateError');
      const signal = options?.signal;
      if (signal?.aborted) return;
      const entry: Registered = {
        name,
        title: text(tool, 'title', false),
        description,
        ...(inputSchema !== undefined && { inputSchema }),
        readOnly: Boolean(annotations?.readOnlyHint),
        execute: execute as Registered['execute'],
      };
      registry.set(name, entry);
      this.#changed();
      if (signal) {
        primordials.listenOn(signal, 'abort', () => {
          if (registry.get(name) !== entry) return;
          registry.delete(name);
          this.#changed();
        }, { once: true });
      }
    }

    /** Fires `toolchange` once the registering script's current step is done. */
    #changed(): void {
      queueMicrotask(() => {
        const event = new PageBaseEvent('toolchange');
        if (typeof this.ontoolchange === 'function') {
          try {
            this.ontoolchange.call(this, event);
          } catch (err) {
            reportError(err);
          }
        }
        primordials.dispatchOn(this, event);
      });
    }
  }

  /** The tools as the content script reads them. */
  function describeTools(): Array<Omit<Registered, 'execute'>> {
    return [...registry.values()].map(({ execute: _execute, ...rest }) => rest);
  }

  /** Runs tool `name` with `input`; resolves to its result's JSON text (cut at the bound) or rejects with the page's error. */
  async function run(name: string, input: unknown): Promise<{ result?: string; chars: number }> {
    const tool = registry.get(name);
    if (!tool) throw new PageDOMException(`No tool named ${name} is registered.`, 'NotFoundError');
    const value = await primordials.apply(tool.execute, undefined, [input, client]);
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

  const context = new ModelContext();
  Object.defineProperty(document, 'modelContext', { value: context, configurable: true, enumerable: true, writable: false });
  const answer = (type: string, detail: unknown) => primordials.dispatch(new PageEvent(type, { detail: stringify(detail) }));

  // In the capture phase: this listener, added before any page script ran, is the first the request reaches, so the
  // page cannot stop it before it answers (a page answering too is refused by the content script).
  primordials.listenOn(window, WEBMCP_LIST, (event) => {
    const id = (event as CustomEvent<unknown>).detail;
    if (typeof id === 'string') answer(WEBMCP_TOOLS, { id, tools: describeTools() });
  }, { capture: true });

  primordials.listen(WEBMCP_CALL, (event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    if (typeof detail !== 'string') return;
    let request: { id: string; name: string; input: unknown };
    try {
      const parsed = parse(detail) as { id?: unknown; name?: unknown; input?: unknown };
      if (typeof parsed.id !== 'string' || typeof parsed.name !== 'string' || typeof parsed.input !== 'string') return;
      request = { id: parsed.id, name: parsed.name, input: parse(parsed.input) };
    } catch {
      return;
    }
    run(request.name, request.input).then(
      (done) => answer(WEBMCP_RESULT, { id: request.id, ok: true, ...done }),
      (err: unknown) => answer(WEBMCP_RESULT, { id: request.id, ok: false, error: messageOf(err) }),
    );
  });
}
