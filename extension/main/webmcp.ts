// The WebMCP page API where the browser has none (Firefox, Chromium without WebMCP): `document.modelContext
// .registerTool(tool, { signal })` and its `toolchange` event, after the W3C draft
// (https://webmachinelearning.github.io/webmcp/), so the same page code works in every browser. Agents reach the tools
// through the content script (extension/content/page-tools.ts) over the events of shared/page-channel.ts. Where the
// browser has its own API (Chromium with WebMCP enabled) the page uses that, and this module does nothing.
import { primordials } from './primordials.js';
import { convertTool, documentTools as registry } from './tool-registry.js';

/** Provides `document.modelContext` unless the browser has its own; the page channel (./page-tools-channel.ts) runs its tools. */
export function installModelContext(): void {
  if ('modelContext' in document) return;
  // Everything is built here, at install, so the bundle touches no page global before it is installed.
  const { EventTarget: PageEventTarget, Event: PageBaseEvent, DOMException: PageDOMException } = primordials;

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
      const entry = convertTool(tool, 'document', "'registerTool' on 'ModelContext'");
      const name = entry.name;
      if (registry.has(name)) throw new PageDOMException('Duplicate tool name', 'InvalidStateError');
      const signal = options?.signal;
      if (signal?.aborted) return;
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

  const context = new ModelContext();
  Object.defineProperty(document, 'modelContext', { value: context, configurable: true, enumerable: true, writable: false });
}
