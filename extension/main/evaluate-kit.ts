// evaluate's page side: answers the runner that evaluate puts into the page's world for each call
// (extension/background/ops/evaluate.ts) with the built-ins this script took when it arrived (./primordials.ts), so a
// page that replaced JSON.stringify, added a toJSON to every object or patched Promise since cannot change what
// evaluate returns. The channel: shared/page-channel.ts EVALUATE_KIT.
import { EVALUATE_KIT } from '../../shared/page-channel.js';
import { primordials } from './primordials.js';

/** Listens for the runner's question. Call once per document. */
export function installEvaluateKit(): void {
  const { evaluateKit, defineProperty, listenOn } = primordials;
  // In the capture phase, added before any page script where this script came first: the runner hears from it first.
  listenOn(
    window,
    EVALUATE_KIT,
    (event) => {
      const asked = (event as CustomEvent<unknown>).detail;
      if (typeof asked === 'object' && asked !== null) defineProperty(asked, 'kit', { value: evaluateKit, enumerable: true, configurable: true, writable: true });
    },
    { capture: true },
  );
}
