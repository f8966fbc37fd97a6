// Page tools registered on `navigator.modelContext`, the older WebMCP shape that polyfills and libraries still use
// (`provideContext({ tools })`, `registerTool(tool)` → `{ unregister() }`, `unregisterTool(name)`, `clearContext()`;
// https://github.com/webmachinelearning/webmcp/blob/main/docs/proposal.md). Where a page has none, Oriel provides
// one (so a polyfill that defers to an existing object uses it); where the page's own library puts one there — before
// Oriel's page script, by assigning over Oriel's, or by redefining the property — Oriel wraps its registration methods
// and mirrors what they register. Either way the tools land in ./tool-registry.ts `navigatorTools`, which the page
// channel lists after `document.modelContext`'s (docs/architecture.md, "Pages that talk back").
import { primordials } from './primordials.js';
import { convertTool, navigatorTools as registry, type RegisteredTool } from './tool-registry.js';

/** Names registered through `provideContext`: the next `provideContext` replaces exactly these. */
const provided = new Set<string>();

/** Objects whose registrations are mirrored already (Oriel's own among them). */
const known = new WeakSet<object>();

/** Whether a page library's object was found only at a list request, after it may have registered tools unseen. */
let adoptedLate = false;

/** What a page's `navigator.modelContext` call registers, mirrored; `api` is the method the page's errors cite. */
function mirrorRegister(tool: unknown, api: string): RegisteredTool {
  const entry = convertTool(tool, 'navigator', api);
  if (registry.has(entry.name)) throw new primordials.DOMException(`Duplicate tool name ${entry.name}`, 'InvalidStateError');
  return entry;
}

/** Replaces the tools the last `provideContext` gave with `tools`, all checked before any is taken. */
function mirrorProvide(context: unknown, api: string): void {
  const tools = (context as { tools?: unknown } | null | undefined)?.tools;
  const list = tools === undefined ? [] : tools;
  if (!Array.isArray(list)) throw new primordials.TypeError(`Failed to execute ${api}: tools is not an array.`);
  const entries = list.map((t) => convertTool(t, 'navigator', api));
  const names = new Set<string>();
  for (const e of entries) {
    if (names.has(e.name) || (registry.has(e.name) && !provided.has(e.name))) {
      throw new primordials.DOMException(`Duplicate tool name ${e.name}`, 'InvalidStateError');
    }
    names.add(e.name);
  }
  for (const name of provided) registry.delete(name);
  provided.clear();
  for (const e of entries) {
    registry.set(e.name, e);
    provided.add(e.name);
  }
}

function mirrorUnregister(name: unknown): void {
  const key = primordials.String(name);
  registry.delete(key);
  provided.delete(key);
}

function mirrorClear(): void {
  registry.clear();
  provided.clear();
}

/** Removes `entry` when the page's `signal` (the newer registration option) aborts. */
function followSignal(entry: RegisteredTool, options: unknown): void {
  const signal = (options as { signal?: unknown } | null | undefined)?.signal;
  if (!(signal instanceof AbortSignal)) return;
  if (signal.aborted) {
    if (registry.get(entry.name) === entry) registry.delete(entry.name);
    return;
  }
  primordials.listenOn(signal, 'abort', () => {
    if (registry.get(entry.name) === entry) registry.delete(entry.name);
  }, { once: true });
}

/** Oriel's `navigator.modelContext`: the older shape's four methods, over the mirror itself. */
function ownContext(): object {
  const api = (method: string) => `'${method}' on 'ModelContext'`;
  const context = {
    /** Replaces the tools the previous call provided; tools from `registerTool` stay. @throws TypeError, InvalidStateError */
    provideContext(value: { tools?: unknown[] }): void {
      mirrorProvide(value, api('provideContext'));
    },
    /** Registers one tool until it is unregistered. @throws TypeError, DOMException `InvalidStateError` on a taken name. */
    registerTool(tool: unknown, options?: { signal?: AbortSignal }): { unregister(): void } {
      const entry = mirrorRegister(tool, api('registerTool'));
      registry.set(entry.name, entry);
      followSignal(entry, options);
      return primordials.freeze({
        unregister: () => {
          if (registry.get(entry.name) === entry) registry.delete(entry.name);
        },
      });
    },
    /** Unregisters the tool of that name, whichever way it came; an unknown name changes nothing. */
    unregisterTool(name: string): void {
      mirrorUnregister(name);
    },
    /** Unregisters every tool. */
    clearContext(): void {
      mirrorClear();
    },
  };
  known.add(context);
  return context;
}

/**
 * Wraps the registration methods `target` has, as own properties of `target`, so what the page's library registers is
 * mirrored after the library accepted it (a call it refuses by throwing mirrors nothing). A frozen object or a
 * method that cannot be replaced is left as it is: its tools are not listed.
 */
function adopt(target: object): void {
  if (known.has(target)) return;
  known.add(target);
  const wrap = (method: string, after: (result: unknown, args: unknown[]) => void) => {
    const original = (target as Record<string, unknown>)[method];
    if (typeof original !== 'function') return;
    function wrapped(this: unknown, ...args: unknown[]): unknown {
      const result = primordials.apply(original as (...a: unknown[]) => unknown, this, args);
      try {
        after(result, args);
      } catch {
        // The library accepted what Oriel cannot list (a schema it cannot serialise, a name taken): not listed.
      }
      return result;
    }
    primordials.defineProperty(target, method, { value: wrapped, configurable: true, writable: true, enumerable: false });
  };
  wrap('provideContext', (_result, [value]) => mirrorProvide(value, 'provideContext'));
  wrap('registerTool', (result, [tool, options]) => {
    const entry = mirrorRegister(tool, 'registerTool');
    registry.set(entry.name, entry);
    followSignal(entry, options);
    // The handle the older shape returns: its `unregister` ends the mirror too.
    const handle = result as { unregister?: unknown } | null;
    if (typeof handle === 'object' && handle !== null && typeof handle.unregister === 'function') {
      const unregister = handle.unregister as (...a: unknown[]) => unknown;
      primordials.defineProperty(handle, 'unregister', {
        value(this: unknown, ...args: unknown[]) {
          const done = primordials.apply(unregister, this, args);
          if (registry.get(entry.name) === entry) registry.delete(entry.name);
          return done;
        },
        configurable: true, writable: true, enumerable: false,
      });
    }
  });
  wrap('unregisterTool', (_result, [name]) => mirrorUnregister(name));
  wrap('clearContext', () => mirrorClear());
}

/** The value at `navigator.modelContext` now, or undefined (a page getter that throws counts as none). */
function readCurrent(): unknown {
  try {
    return (navigator as unknown as { modelContext?: unknown }).modelContext;
  } catch {
    return undefined;
  }
}

/**
 * Provides `navigator.modelContext` where the page has none (an accessor: a library assigning its own object is
 * adopted at once), or adopts the page's own. Call once per document.
 */
export function installNavigatorContext(): void {
  if ('modelContext' in navigator) {
    const existing = readCurrent();
    if (typeof existing === 'object' && existing !== null) adopt(existing);
    return;
  }
  let current: unknown = ownContext();
  primordials.defineProperty(navigator, 'modelContext', {
    configurable: true,
    enumerable: true,
    get() {
      return current;
    },
    set(value: unknown) {
      current = value;
      if (typeof value === 'object' && value !== null) adopt(value);
    },
  });
}

/**
 * Adopts a page library's object that replaced Oriel's by redefining the property (no setter ran), before a list.
 * @returns whether the page's `navigator.modelContext` was adopted only by such a check, so tools it registered
 *   before the first one are missing.
 */
export function checkNavigatorContext(): boolean {
  const value = readCurrent();
  if (typeof value === 'object' && value !== null && !known.has(value)) {
    adopt(value);
    adoptedLate = true;
  }
  return adoptedLate;
}
