// The per-document handle registry (SPEC §3), living in the content script's isolated world. Handles never sit
// on page elements: the registry maps element → handle in a WeakMap and handle → element through WeakRefs.
import { errorData, OrielError } from '../../shared/errors.js';
import { mintNamespace } from '../../shared/ids.js';


/** Outcome of resolving a handle: the element, or why there is none (SPEC §3). */
export type Resolution =
  | { status: 'ok'; element: Element }
  | { status: 'no_snapshot' }
  | { status: 'unknown_handle' }
  | { status: 'detached' };

/**
 * Handles of one document. A new document (navigation, reload, `document.open()`) gets a new registry and so a new
 * namespace; handles are `<namespace>.<base-36 counter>`, e.g. `q7k2mzr4.3` (at most 12 characters below 36⁴ elements).
 */
export class HandleRegistry {
  readonly namespace: string;
  private readonly byElement = new WeakMap<Element, string>();
  private readonly byHandle = new Map<string, WeakRef<Element>>();
  private counter = 0;
  /** Collected elements drop their WeakRef entry here, leaving a tombstone so the handle still answers `detached`. */
  private readonly finalizer = new FinalizationRegistry<string>((handle) => {
    if (this.byHandle.get(handle)?.deref() === undefined) this.byHandle.set(handle, DEAD);
  });

  constructor(namespace: string = mintNamespace()) {
    this.namespace = namespace;
  }

  /** Whether any handle has been issued in this document. */
  get issued(): number {
    return this.counter;
  }

  /** The handle of `element`, minting one the first time it is seen. Same element → same handle. */
  handleFor(element: Element): string {
    let handle = this.byElement.get(element);
    if (handle === undefined) {
      handle = `${this.namespace}.${(++this.counter).toString(36)}`;
      this.byElement.set(element, handle);
      this.byHandle.set(handle, new WeakRef(element));
      this.finalizer.register(element, handle);
    }
    return handle;
  }

  /** The handle already issued for `element`, if any; never mints. */
  existingHandle(element: Element): string | undefined {
    return this.byElement.get(element);
  }

  /**
   * Resolves a handle to a live, connected element of this document, synchronously. The caller acts on the element
   * in the same task, so nothing can swap it in between.
   */
  resolve(handle: string): Resolution {
    if (this.counter === 0) return { status: 'no_snapshot' };
    const ref = this.byHandle.get(handle);
    if (ref === undefined) return { status: 'unknown_handle' };
    const element = ref.deref();
    if (element === undefined || !element.isConnected) return { status: 'detached' };
    return { status: 'ok', element };
  }

  /** Like {@link resolve} but throws the matching {@link OrielError}. */
  require(handle: string): Element {
    const r = this.resolve(handle);
    if (r.status === 'ok') return r.element;
    throw new OrielError(errorData(r.status, RESOLVE_MESSAGES[r.status](handle)));
  }
}

/** Placeholder for a handle whose element was garbage-collected. */
const DEAD = new WeakRef({} as Element);

const RESOLVE_MESSAGES = {
  no_snapshot: () => 'This document has issued no handles yet. Take a snapshot first.',
  unknown_handle: (h: string) => `Handle ${h} was not issued by the document now in this frame (it is from a previous page, another tab, or made up). Take a new snapshot.`,
  detached: (h: string) => `Handle ${h} named an element that has been removed from the page. The page changed: take a new snapshot.`,
} as const;
