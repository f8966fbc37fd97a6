// Bounds in real Chromium and Firefox, through the real chain (shared tab, native messaging, hub, `oriel mcp`,
// official MCP client in both eras): a page larger than the budget comes in pages of whole lines within the budget;
// each page reads the page only as far as it needs (coverage says what was read and that more follows), and a cursor
// continues that reading exactly where the last page stopped: the pages together are the whole outline, line for line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './harness.js';
import { body, snapshotSession, strip, type Snap, type SnapSession } from './snapshot-setup.js';

/** A complete outline line: indentation, then a quoted text or a role with optional parts, never cut. */
const LINE = /^ *("(?:[^"\\]|\\.)*"|[a-z]+( "(?:[^"\\]|\\.)*")?( value="(?:[^"\\]|\\.)*")?( \S+)?( \[[^\]]+\])?( @[a-z0-9]+\.[0-9a-z]+)?(:( "(?:[^"\\]|\\.)*")+| \(headers\):( "(?:[^"\\]|\\.)*")+)?)$/;

describe.each(BROWSERS)('bounds in %s', (kind) => {
  let s: SnapSession;
  beforeAll(async () => {
    s = await snapshotSession(kind);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('pages through a large outline with a cursor: nothing twice, nothing skipped, lines whole (legacy era)', async () => {
    await s.load('big.html?n=60', 'legacy');
    const full = await s.snapshot({ max_chars: 200_000 }, 'legacy');
    expect(full.coverage.truncated).toBe(false);
    const all = body(full).split('\n');
    expect(all.length).toBeGreaterThan(2000);
    for (const l of all) expect(l).toMatch(LINE);

    const budget = 5000;
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let first: Snap | undefined;
    do {
      const r = await s.snapshot(cursor ? { max_chars: budget, cursor } : { max_chars: budget }, 'legacy');
      first ??= r;
      pages++;
      expect(r.text.length).toBeLessThanOrEqual(budget);
      const lines = body(r).split('\n');
      expect(r.coverage.shown).toBe(lines.length);
      seen.push(...lines);
      // Read only as far as the pages so far need; once read to the end, what remains is counted exactly.
      if (r.coverage.read_all) expect(r.coverage.omitted).toBe(all.length - seen.length);
      expect(r.coverage.visited).toBeLessThanOrEqual(full.coverage.visited);
      cursor = r.cursor;
      expect(r.coverage.truncated).toBe(cursor !== undefined);
      if (cursor) expect(r.text.split('\n').at(-1)).toContain(`cursor="${cursor}"`);
      if (!r.coverage.read_all) expect(r.text.split('\n').at(-1)).toContain('more not yet read');
    } while (cursor && pages < 100);
    expect(pages).toBeGreaterThan(5);
    // The first page read a small part of the page; following the cursor read the rest once, not once per page.
    expect(first!.coverage.visited).toBeLessThan(full.coverage.visited / 3);
    expect(seen).toEqual(all);
  });

  it('reads afresh where the cursor points when the place the reading stopped at is gone (modern era)', async () => {
    await s.load('big.html?n=30', 'modern');
    const first = await s.snapshot({ max_chars: 3000 }, 'modern');
    const start = Number(first.cursor!.split('~')[1]);
    // Everything the reading stood in is replaced by an equal copy: same outline, new elements and handles.
    await s.page.evaluate(() => {
      const m = document.getElementById('m')!;
      m.replaceWith(m.cloneNode(true));
    });
    const next = await s.snapshot({ max_chars: 3000, cursor: first.cursor! }, 'modern');
    const full = body(await s.snapshot({ max_chars: 200_000 }, 'modern')).split('\n');
    const lines = body(next).split('\n');
    expect(lines[0]).toMatch(/^note: continued at line \d+ \(@[a-z0-9.]+ is gone\), read afresh/);
    expect(strip(lines[1]!)).toBe(strip(full[start]!));
    expect(next.text.split('\n').at(-1)).toContain('the page changed while it was read');
  });

  it('resumes after its anchor when the page above it changed (modern era)', async () => {
    await s.load('big.html?n=20', 'modern');
    const first = await s.snapshot({ max_chars: 3000 }, 'modern');
    const shown = body(first).split('\n');
    const anchorAt = shown.findLastIndex((l) => / @[a-z0-9]+\.[0-9a-z]+$/.test(l));
    const anchor = shown[anchorAt]!;
    const after = shown.length - 1 - anchorAt;
    // Content is inserted above the cut: the cursor must not repeat or skip what follows the last shown element.
    await s.page.evaluate(() => document.querySelector('h1')!.insertAdjacentHTML('afterend', '<p>Inserted one</p><p>Inserted two</p>'));
    const full = body(await s.snapshot({ max_chars: 200_000 }, 'modern')).split('\n');
    const next = await s.snapshot({ max_chars: 3000, cursor: first.cursor! }, 'modern');
    const expectedStart = full.indexOf(anchor) + 1 + after;
    expect(full.indexOf(anchor)).toBe(full.lastIndexOf(anchor));
    expect(body(next).split('\n')[0]).toBe(full[expectedStart]);
  });

  it('refuses a cursor made with other filters (modern era)', async () => {
    await s.load('big.html?n=20', 'modern');
    const first = await s.snapshot({ max_chars: 2000 }, 'modern');
    const err = await s.snapshotError({ max_chars: 2000, cursor: first.cursor!, roles: ['button'] }, 'modern');
    expect(err.code).toBe('invalid_argument');
  });

  it('never exceeds max_chars, hint included, with a long title, a long URL and lines longer than the budget (modern era)', async () => {
    await s.load(`long.html?pad=${'p'.repeat(3000)}`, 'modern');
    for (const budget of [500, 1200]) {
      let cursor: string | undefined;
      let pages = 0;
      const seen: string[] = [];
      do {
        const r = await s.tool('snapshot', cursor ? { max_chars: budget, cursor } : { max_chars: budget }, 'modern');
        expect(r.isError, r.text).toBe(false);
        const snap = { ...r.structured, text: r.text } as unknown as Snap;
        // What the model reads (the text content, where the outline is) stays within the budget.
        expect(r.text.length).toBeLessThanOrEqual(budget);
        expect(r.text).not.toMatch(/[\u202a-\u202e]/);
        seen.push(...body(snap).split('\n'));
        cursor = snap.cursor;
        pages++;
      } while (cursor && pages < 50);
      expect(cursor).toBeUndefined();
      expect(seen.join('\n')).toMatch(/button "After" @/);
      expect(seen.join('\n')).toMatch(/textbox "Notes" value="n+/);
    }
  });

  it('keeps the default budget near 24,000 characters (legacy era)', async () => {
    await s.load('big.html?n=60', 'legacy');
    const r = await s.snapshot({}, 'legacy');
    expect(r.text.length).toBeLessThanOrEqual(24_000);
    expect(r.text.length).toBeGreaterThan(23_000);
    expect(r.cursor).toBeDefined();
  });
});
