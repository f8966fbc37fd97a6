// The check every outline line passes as it reaches the background from a content script (shared/snapshot/reading.ts
// `isLineArray`, inside the `snapshot.lines` result schema): the fields a line may have, with their types and bounds.
import { describe, expect, it } from 'vitest';
import { isLineArray } from '../../shared/snapshot/reading.js';
import { OPS } from '../../shared/ops.js';

const reply = (lines: unknown) => ({
  reading: 'r1',
  document: 'doc1',
  url: 'https://a.test/',
  title: 'A',
  ready_state: 'complete',
  lines,
  done: true,
  visited: 1,
  dropped: 0,
  changed: false,
  lateModal: false,
  ms: 1,
});

describe('outline lines from the content script', () => {
  it('accepts lines with text and depth, and the optional handle, count, role and query text', () => {
    expect(isLineArray([])).toBe(true);
    expect(isLineArray([{ t: 'button "OK"', d: 0 }, { t: 'link "A"', d: 3, h: 'q7k2mzr4.3', a: 1, r: 'link', q: 'a' }, { t: 'x', d: 1, h: undefined }])).toBe(true);
    expect(OPS['snapshot.lines'].result.safeParse(reply([{ t: 'heading "H"', d: 2 }])).success).toBe(true);
  });

  it('refuses what is not a line: wrong types, bounds, unknown keys, holes', () => {
    for (const bad of [
      null,
      'lines',
      [null],
      [[]],
      [{ d: 0 }],
      [{ t: 5, d: 0 }],
      [{ t: 'x', d: -1 }],
      [{ t: 'x', d: 1.5 }],
      [{ t: 'x', d: 0, h: 'h'.repeat(65) }],
      [{ t: 'x', d: 0, h: 7 }],
      [{ t: 'x', d: 0, a: -2 }],
      [{ t: 'x', d: 0, r: {} }],
      [{ t: 'x', d: 0, q: 1 }],
      [{ t: 'x', d: 0, extra: 'no' }],
    ]) {
      expect(isLineArray(bad), JSON.stringify(bad)).toBe(false);
      expect(OPS['snapshot.lines'].result.safeParse(reply(bad)).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
