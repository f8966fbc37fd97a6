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

  it('resolves a row\'s cell as "<row handle>:<n>", and says how many cells a row has when n is past them', () => {
    const row = element();
    const notRow = element();
    const cells = [element(), element()];
    const r = new HandleRegistry('abcd1234', undefined, (el) => (el === row ? cells : undefined));
    const h = r.handleFor(row);
    const other = r.handleFor(notRow);
    expect(r.resolve(`${h}:1`)).toEqual({ status: 'ok', element: cells[0] });
    expect(r.resolve(`${h}:2`)).toEqual({ status: 'ok', element: cells[1] });
    expect(r.resolve(`${h}:3`)).toEqual({ status: 'no_cell', cells: 2 });
    expect(r.resolve(`${other}:1`)).toEqual({ status: 'no_cell', cells: undefined });
    // The row's own failures come first; a cell number is 1 to 999 without leading zeros.
    expect(r.resolve('abcd1234.zz:1').status).toBe('unknown_handle');
    expect(r.resolve(`${h}:0`).status).toBe('unknown_handle');
    expect(r.resolve(`${h}:01`).status).toBe('unknown_handle');
  });

  it('binds a handle to its item: the same element showing another row\'s record fails as changed', () => {
    const button = element();
    let item = 'Contact 003';
    const r = new HandleRegistry('abcd1234', () => ({ role: 'button', name: 'Call', item }));
    const h = r.handleFor(button);
    expect(r.resolve(h).status).toBe('ok');
    item = 'Contact 600';
    expect(r.resolve(h)).toMatchObject({ status: 'changed', was: { role: 'button', name: 'Call', item: 'Contact 003' } });
    expect(r.handleFor(button)).not.toBe(h);
  });
});
