// The bridge's page side in the MAIN world: turns an agent's message, handed over by the content script
// (extension/content/bridge.ts) as JSON text, into the page's documented event — `oriel-bridge-message` on `window`,
// `detail: { data }` (docs/bridge.md). Built here, in the page's own world, so the page reads `detail` as its own
// object in every browser.
import { BRIDGE_DELIVER, BRIDGE_EVENT } from '../../shared/page-channel.js';
import { primordials } from './primordials.js';

/** Listens for deliveries from the content script for the life of this document. */
export function installBridge(): void {
  const { parse, CustomEvent: PageEvent, dispatch, listen } = primordials;
  listen(BRIDGE_DELIVER, (event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    if (typeof detail !== 'string') return;
    let data: unknown;
    try {
      data = parse(detail);
    } catch {
      return;
    }
    // Acknowledge first: the content script reads a cancelled event as "the page side is here".
    event.preventDefault();
    dispatch(new PageEvent(BRIDGE_EVENT, { detail: { data } }));
  });
}
