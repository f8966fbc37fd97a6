// The per-document handle registry (docs/architecture.md, "Handles"), living in the content script's isolated world.
// Handles never sit on page elements: the registry maps element → handle in a WeakMap and handle → element through
// WeakRefs. Each handle is bound to what the agent was shown (role and name), so a recycled element fails as stale.
import { errorData, OrielError } from '../../shared/errors.js';
import { mintNamespace } from '../../shared/ids.js';

/**
 * What an agent was shown of an element when its handle was issued: its role and accessible name, and for an element
 * in a list item or table row (or such an item itself) what identifies that item (./fingerprint.ts), so that a
 * recycled row's button, whose own name did not change, does not act for another record.
 */
export interface Fingerprint {
  role: string | null;
  name: string;
  item?: string;
}

/** A handle of a row's cell: the row's handle, a colon, the cell's number from 1 (docs/snapshot-format.md, "Handles"). */
const CELL_HANDLE = /^(.+):([1-9][0-9]{0,2})$/;

/** The cells of a row, in order, or undefined when the element is not a row. */
export type CellsOf = (row: Element) => Element[] | undefined;

/** Computes an element's {@link Fingerprint} now. The same function must serve issue time and use time. */
export type Describe = (element: Element) => Fingerprint;

/** Outcome of resolving a handle: the element, or why there is none. */
export type Resolution =
  | { status: 'ok'; element: Element }
  | { status: 'no_snapshot' }
  | { status: 'unknown_handle' }
  | { status: 'detached' }
  /** The element is still there but shows something else than when the handle was issued (a recycled row). */
  | { status: 'changed'; element: Element; was: Fingerprint }
  /** A cell handle whose row is not a row, or has fewer cells. */
  | { status: 'no_cell'; cells: number | undefined };

interface Entry {
  ref: WeakRef<Element>;
  /** Set when the handle was issued with a describer. */
  seen?: Fingerprint;
}

/**
 * Handles of one document. A new document (navigation, reload, `document.open()`) gets a new registry and so a new
 * namespace; handles are `<namespace>.<base-36 counter>`, e.g. `q7k2mzr4.3` (at most 12 characters below 36⁴ elements).
 */
export class HandleRegistry {
  readonly namespace: string;
  private readonly byElement = new WeakMap<Element, string>();
  private readonly byHandle = new Map<string, Entry>();
  private counter = 0;
  /**
   * Collected elements drop their entry here, so the registry stays as large as the live elements it names (a page
   * that creates and removes elements for hours does not grow it). A dropped handle still answers `detached`: it was
   * issued, as its counter shows.
   */
  private readonly finalizer = new FinalizationRegistry<string>((handle) => {
    if (this.byHandle.get(handle)?.ref.deref() === undefined) this.byHandle.delete(handle);
  });

  /**
   * @param describe how handles are bound to what they show (role and name); without it handles are bound to the
   *   element alone.
   */
  constructor(
    namespace: string = mintNamespace(),
    private readonly describe?: Describe,
    private readonly cellsOf?: CellsOf,
  ) {
    this.namespace = namespace;
  }

  /** Whether any handle has been issued in this document. */
  get issued(): number {
    return this.counter;
  }

  /**
   * The handle of `element`, minting one the first time it is seen. Same element showing the same thing → same
   * handle. An element that now shows another role or name than its handle was issued for (a virtualized list reused
   * it for another row) gets a new handle; the old one then fails as stale.
   * @param describe the fingerprint function to use for this call (the snapshot walker passes one sharing its
   *   per-walk caches); the registry's own by default.
   */
  handleFor(element: Element, describe: Describe | undefined = this.describe): string {
    const seen = describe?.(element);
    let handle = this.byElement.get(element);
    if (handle !== undefined) {
      const entry = this.byHandle.get(handle);
      if (!seen || !entry?.seen || sameFingerprint(entry.seen, seen)) {
        if (entry && seen && !entry.seen) entry.seen = seen;
        return handle;
      }
    }
    handle = `${this.namespace}.${(++this.counter).toString(36)}`;
    this.byElement.set(element, handle);
    this.byHandle.set(handle, { ref: new WeakRef(element), ...(seen && { seen }) });
    this.finalizer.register(element, handle);
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
    const cell = CELL_HANDLE.exec(handle);
    if (cell) {
      const row = this.resolve(cell[1]!);
      if (row.status !== 'ok') return row;
      const cells = this.cellsOf?.(row.element);
      const element = cells?.[Number(cell[2]) - 1];
      return element ? { status: 'ok', element } : { status: 'no_cell', cells: cells?.length };
    }
    const entry = this.byHandle.get(handle);
    if (entry === undefined) return this.wasIssued(handle) ? { status: 'detached' } : { status: 'unknown_handle' };
    const element = entry.ref.deref();
    if (element === undefined || !element.isConnected) return { status: 'detached' };
    if (entry.seen && this.describe && !sameFingerprint(entry.seen, this.describe(element))) return { status: 'changed', element, was: entry.seen };
    return { status: 'ok', element };
  }

  /** Whether this registry issued `handle`: its namespace, and a counter in canonical base 36 not above ours. */
  private wasIssued(handle: string): boolean {
    const prefix = `${this.namespace}.`;
    if (!handle.startsWith(prefix)) return false;
    const digits = handle.slice(prefix.length);
    const n = parseInt(digits, 36);
    return Number.isSafeInteger(n) && n >= 1 && n <= this.counter && n.toString(36) === digits;
  }

  /** Handles whose elements may still be alive (entries not yet dropped by garbage collection). */
  get size(): number {
    return this.byHandle.size;
  }

  /** Like {@link resolve} but throws the matching {@link OrielError} (`changed` is reported as `detached`). */
  require(handle: string): Element {
    const r = this.resolve(handle);
    if (r.status === 'ok') return r.element;
    throw resolutionError(handle, r);
  }
}

/** The error for a handle that does not resolve. A changed element is `detached`: what the handle named is gone. */
export function resolutionError(handle: string, r: Exclude<Resolution, { status: 'ok' }>): OrielError {
  if (r.status === 'no_cell') {
    const row = handle.slice(0, handle.lastIndexOf(':'));
    const message =
      r.cells === undefined
        ? `Handle ${handle} names a cell of ${row}, which is not a table row: only a row's cells are numbered (row handle, colon, cell number from 1).`
        : `Handle ${handle} names cell ${handle.slice(row.length + 1)} of row ${row}, which has ${r.cells} cell${r.cells === 1 ? '' : 's'}.`;
    return new OrielError(errorData('unknown_handle', message, { details: { reason: 'no_cell' } }));
  }
  if (r.status === 'changed') {
    const was = `${r.was.role ?? 'element'}${r.was.name ? ` "${clipName(r.was.name)}"` : ''}${r.was.item ? ` in the item "${clipName(r.was.item)}"` : ''}`;
    return new OrielError(
      errorData('detached', `Handle ${handle} named ${was}, but that element's role, name or row has changed since (a label that changed after an action, or a list row the page reused for other content). Nothing was done: handles stand for what you saw. Take a new snapshot and use the handle it gives.`, {
        details: { reason: 'changed' },
      }),
    );
  }
  return new OrielError(errorData(r.status, RESOLVE_MESSAGES[r.status](handle)));
}

function sameFingerprint(a: Fingerprint, b: Fingerprint): boolean {
  return a.role === b.role && a.name === b.name && a.item === b.item;
}

function clipName(s: string): string {
  return s.length <= 80 ? s : `${s.slice(0, 79)}…`;
}

const RESOLVE_MESSAGES = {
  no_snapshot: () => 'This document has issued no handles yet. Take a snapshot first.',
  unknown_handle: (h: string) => `Handle ${h} was not issued by the document now in this frame (it is from a previous page, another tab, or made up). Take a new snapshot.`,
  detached: (h: string) => `Handle ${h} named an element that has been removed from the page. The page changed: take a new snapshot.`,
} as const;
