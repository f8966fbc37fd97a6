// The handle registry's answers for handles it holds no entry for (extension/content/registry.ts): an entry dropped
// after its element was collected still answers detached, anything this document never issued answers unknown_handle.
import { describe, expect, it } from 'vitest';
import { HandleRegistry } from '../../extension/content/registry.js';

/** A stand-in element: the registry only keys on identity and reads isConnected. */
const element = (connected = true) => ({ isConnected: connected }) as unknown as Element;

describe('HandleRegistry', () => {
  it('tells issued handles without an entry (collected) from handles it never issued', () => {
    const r = new HandleRegistry('abcd1234');
    const kept = element();
    const handles = Array.from({ length: 40 }, () => r.handleFor(element()));
    const live = r.handleFor(kept);
    expect(r.resolve(live)).toEqual({ status: 'ok', element: kept });
    // Drop entries as the finalizer does once their elements are collected.
    for (const h of handles) (r as unknown as { byHandle: Map<string, unknown> }).byHandle.delete(h);
    expect(r.size).toBe(1);
    for (const h of handles) expect(r.resolve(h).status).toBe('detached');
    expect(r.resolve('abcd1234.1').status).toBe('detached');
    // Never issued: past the counter, another namespace, a non-canonical number, junk.
    for (const h of ['abcd1234.zz', 'abcd1234.0', 'abcd1234.01', 'abcd1234.-1', 'other123.1', 'abcd1234.', 'abcd1234.1.2']) {
      expect(r.resolve(h).status, h).toBe('unknown_handle');
    }
  });
});
