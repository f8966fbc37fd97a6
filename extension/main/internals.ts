// ElementInternals' page side in the MAIN world: notes the internals custom elements attach, so the content script can
// read the roles, names and states set only through them (extension/content/internals.ts asks, element by element).
// attachInternals keeps its behaviour; an element answers only a query dispatched on that very element, with JSON text.
import { INTERNALS_FIELDS, INTERNALS_QUERY, INTERNALS_REPLY } from '../../shared/page-channel.js';
import { primordials } from './primordials.js';

/** Wraps `attachInternals` for the life of this document. */
export function installInternals(): void {
  const { stringify, CustomEvent: PageEvent, listenOn, dispatchOn, apply } = primordials;
  const proto = globalThis.HTMLElement?.prototype;
  const attach = proto?.attachInternals;
  if (typeof attach !== 'function') return;
  const internals = new WeakMap<HTMLElement, ElementInternals>();
  function answer(this: HTMLElement, event: Event): void {
    const i = internals.get(this);
    if (!i || event.target !== this) return;
    const out: Record<string, string> = {};
    for (const f of INTERNALS_FIELDS) {
      const v = (i as unknown as Record<string, unknown>)[f];
      if (typeof v === 'string') out[f] = v.slice(0, 300);
    }
    dispatchOn(this, new PageEvent(INTERNALS_REPLY, { detail: stringify(out) }));
  }
  // A proxy keeps the method's name and length.
  const wrapped = new Proxy(attach, {
    apply(target, self: HTMLElement, args: []) {
      const i = apply(target, self, args) as ElementInternals;
      internals.set(self, i);
      listenOn(self, INTERNALS_QUERY, answer);
      return i;
    },
  });
  // The native's own descriptor, value aside (WebIDL operations are writable, enumerable and configurable).
  Object.defineProperty(proto, 'attachInternals', { value: wrapped, writable: true, configurable: true, enumerable: true });
}
