// inOrder (extension/background/in-order.ts) keeps the shared-tab sends in call order: a send that read older state
// slowly once posted after a newer one, and the hub kept a stale page title for good.
import { describe, expect, it } from 'vitest';
import { inOrder } from '../../extension/background/in-order.js';

describe('inOrder', () => {
  it('a later run starts only after a slow earlier one has posted, so the newest state is posted last', async () => {
    let state = 'old';
    const posted: string[] = [];
    const gates: Array<() => void> = [];
    const send = inOrder(async () => {
      const read = state;
      await new Promise<void>((r) => gates.push(r));
      posted.push(read);
    });
    const first = send();
    await new Promise((r) => setTimeout(r, 0));
    expect(gates).toHaveLength(1); // the first run has read 'old' and is slow to post
    state = 'new';
    const second = send();
    await new Promise((r) => setTimeout(r, 0));
    expect(gates).toHaveLength(1); // the second run waits for the first to post
    gates[0]!();
    await first;
    await new Promise((r) => setTimeout(r, 0));
    expect(gates).toHaveLength(2);
    gates[1]!();
    await second;
    expect(posted).toEqual(['old', 'new']);
  });

  it('a failed run reaches its own caller and the next run still goes', async () => {
    let n = 0;
    const send = inOrder(async () => {
      n += 1;
      if (n === 1) throw new Error('boom');
    });
    await expect(send()).rejects.toThrow('boom');
    await expect(send()).resolves.toBeUndefined();
    expect(n).toBe(2);
  });
});
