// Calls that waited on a permission prompt wait once more, for their turn on the session: while the person was
// deciding, the hub let the tab's other calls run, and it sends `turn` when this call may go on (broker/hub/hub.ts,
// call_resumed). Keeps the calls on one tab in the hub's order.
import { orielError } from '../../../shared/errors.js';

const waiting = new Map<number, () => void>();

/**
 * Resolves when the hub gives call `id` its turn again. Register before reporting `call_resumed`, so the answer
 * cannot arrive first.
 * @throws OrielError `cancelled` when `signal` aborts first (the hub cancelled the call, or its deadline passed).
 */
export function awaitTurn(id: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      waiting.delete(id);
      reject(orielError('cancelled', 'The call was stopped while it waited for its turn on the tab after the permission prompt.'));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    waiting.set(id, () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/** The hub gave call `id` its turn; a turn for a call that no longer waits is ignored. */
export function giveTurn(id: number): void {
  const go = waiting.get(id);
  waiting.delete(id);
  go?.();
}
