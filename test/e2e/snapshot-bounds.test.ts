// Bounds (SPEC §3) in real Chromium and Firefox: a page larger than the budget comes in pages of whole lines within
// the budget, with true coverage and a cursor that continues exactly where the last page stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, KINDS, launchSnapRig, type SnapRig } from './snapshot-rig/rig.js';

/** A complete outline line: indentation, then a quoted text or a role with optional parts, never cut. */
const LINE = /^ *("(?:[^"\\]|\\.)*"|[a-z]+( "(?:[^"\\]|\\.)*")?( value="(?:[^"\\]|\\.)*")?( \S+)?( \[[^\]]+\])?( @[a-z0-9]+\.[0-9a-z]+)?(:( "(?:[^"\\]|\\.)*")+| \(headers\):( "(?:[^"\\]|\\.)*")+)?)$/;

describe.each(KINDS)('bounds in %s', (kind) => {
  let rig: SnapRig;
  beforeAll(async () => {
    rig = await launchSnapRig(kind);
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('pages through a large outline with a cursor: nothing twice, nothing skipped, lines whole', async () => {
    const page = await rig.open('big.html?n=60');
    try {
      const full = await rig.snapshot(page, { max_chars: 200_000 });
      expect(full.coverage.truncated).toBe(false);
      const all = body(full).split('\n');
      expect(all.length).toBeGreaterThan(2000);
      for (const l of all) expect(l).toMatch(LINE);

      const budget = 5000;
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const r = await rig.snapshot(page, cursor ? { max_chars: budget, cursor } : { max_chars: budget });
        pages++;
        expect(r.text.length).toBeLessThanOrEqual(budget);
        const lines = body(r).split('\n');
        expect(r.coverage.shown).toBe(lines.length);
        expect(r.coverage.omitted).toBe(all.length - lines.length);
        expect(r.coverage.visited).toBe(full.coverage.visited);
        seen.push(...lines);
        cursor = r.cursor;
        expect(r.coverage.truncated).toBe(cursor !== undefined);
        if (cursor) expect(r.text.split('\n').at(-1)).toContain(`cursor="${cursor}"`);
      } while (cursor && pages < 100);
      expect(pages).toBeGreaterThan(5);
      expect(seen).toEqual(all);
    } finally {
      await page.close();
    }
  });

  it('resumes after its anchor when the page above it changed', async () => {
    const page = await rig.open('big.html?n=20');
    try {
      const first = await rig.snapshot(page, { max_chars: 3000 });
      const shown = body(first).split('\n');
      const anchorAt = shown.findLastIndex((l) => / @[a-z0-9]+\.[0-9a-z]+$/.test(l));
      const anchor = shown[anchorAt]!;
      const after = shown.length - 1 - anchorAt;
      // Content is inserted above the cut: the cursor must not repeat or skip what follows the last shown element.
      await page.evaluate(() => document.querySelector('h1')!.insertAdjacentHTML('afterend', '<p>Inserted one</p><p>Inserted two</p>'));
      const full = body(await rig.snapshot(page, { max_chars: 200_000 })).split('\n');
      const next = await rig.snapshot(page, { max_chars: 3000, cursor: first.cursor! });
      const expectedStart = full.indexOf(anchor) + 1 + after;
      expect(full.indexOf(anchor)).toBe(full.lastIndexOf(anchor));
      expect(body(next).split('\n')[0]).toBe(full[expectedStart]);
    } finally {
      await page.close();
    }
  });

  it('refuses a cursor made with other filters', async () => {
    const page = await rig.open('big.html?n=20');
    try {
      const first = await rig.snapshot(page, { max_chars: 2000 });
      const err = await rig.snapshotError(page, { max_chars: 2000, cursor: first.cursor!, roles: ['button'] });
      expect(err.code).toBe('invalid_argument');
    } finally {
      await page.close();
    }
  });

  it('keeps the default budget near 24,000 characters', async () => {
    const page = await rig.open('big.html?n=60');
    try {
      const r = await rig.snapshot(page);
      expect(r.text.length).toBeLessThanOrEqual(24_000);
      expect(r.text.length).toBeGreaterThan(23_000);
      expect(r.cursor).toBeDefined();
    } finally {
      await page.close();
    }
  });
});
