// The current document's identity in this frame: its handle registry, re-minted whenever the document is replaced.
import { cellsOf } from './cells.js';
import { describeNow } from './fingerprint.js';
import { HandleRegistry } from './registry.js';

let current: { registry: HandleRegistry; root: Element | null } | undefined;

/**
 * The registry of the document this frame shows now. `document.open()` keeps the window but replaces the
 * document's element tree (https://html.spec.whatwg.org/multipage/dynamic-markup-insertion.html#document-open-steps),
 * so a changed `documentElement` starts a new namespace: the old handles then answer `unknown_handle`.
 */
export function currentRegistry(): HandleRegistry {
  const root = document.documentElement;
  if (current === undefined || current.root !== root) current = { registry: new HandleRegistry(undefined, describeNow, cellsOf), root };
  return current.registry;
}

/** The namespace part of a handle (`q7k2mzr4.3` → `q7k2mzr4`). */
export function namespaceOf(handle: string): string {
  const dot = handle.indexOf('.');
  return dot < 0 ? handle : handle.slice(0, dot);
}
