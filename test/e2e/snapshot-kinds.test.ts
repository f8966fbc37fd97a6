// Kinds of page the snapshot and extract_rows must read right (small pages in test/fixtures/snapshot), in real
// Chromium and Firefox through the real chain: content the browser skips rendering, controls told apart only by their
// description, spanning table cells, names from placeholders, frames of no size, roles and states set only through
// ElementInternals, a large table, a virtualized list, and sandboxed srcdoc frames.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, handleOf } from './harness.js';
import { body, snapshotSession, strip, type SnapSession } from './snapshot-setup.js';

describe.each(BROWSERS)('page kinds in %s', (kind) => {
  let s: SnapSession;
  beforeAll(async () => {
    s = await snapshotSession(kind);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('leaves out content the browser skips rendering: content-visibility, hidden=until-found, closed details', async () => {
    await s.load('content-visibility.html');
    const t = strip(body(await s.snapshot()));
    expect(t).toContain('button "Visible" @h');
    expect(t).toContain('"More options" [collapsed] @h');
    for (const gone of ['Skipped', 'Found later', 'Found text', 'Inside closed details']) expect(t).not.toContain(gone);
  });

  it('shows the descriptions that tell two same-named controls apart', async () => {
    await s.load('descriptions.html');
    const t = strip(body(await s.snapshot()));
    expect(t).toBe('button "Share" desc="Opens a preview" @h\nbutton "Share" desc="Sends immediately" @h');
  });

  it('says which cell spans in a compact row, and extract_rows fills spanned cells and says so', async () => {
    await s.load('table-spans.html');
    const r = await s.snapshot();
    expect(strip(body(r))).toBe('table "T" @h\n row @h (headers): "Region" "Store" "Q1"\n row @h: "North" [rowspan=2] "Oslo" "10"\n row @h: "Bergen" "7"');
    const rows = await s.tool('extract_rows', { handle: handleOf(r.text, /table "T"/) });
    expect(rows.isError).toBe(false);
    expect(rows.structured.columns).toEqual(['Region', 'Store', 'Q1']);
    expect(rows.structured.rows).toEqual([
      { Region: 'North', Store: 'Oslo', Q1: '10' },
      { Region: 'North', Store: 'Bergen', Q1: '7' },
    ]);
    expect(rows.structured.spanned).toEqual([{ row: 1, columns: ['Region'] }]);
    expect(rows.text).toContain('"Region": from a spanning cell');
  });

  it('names a field from its placeholder when nothing else names it', async () => {
    await s.load('placeholder-name.html');
    expect(strip(body(await s.snapshot()))).toBe('textbox "Search orders" @h');
  });

  it('omits a zero-size frame, or shows it as zero-size without content; a frame of some size is read', async () => {
    await s.load('zero-size-iframe.html');
    const t = strip(body(await s.snapshot()));
    expect(t).not.toContain('Beacon action');
    expect(t).not.toContain('not-loaded');
    const beacon = t.split('\n').find((l) => l.includes('"Beacon"'));
    if (beacon) expect(beacon).toBe('iframe "Beacon" [zero-size] @h');
    expect(t).toContain('iframe "Shown" @h\n button "Shown action" @h');
  });

  it('reads roles, names and states set through ElementInternals, and click refuses the disabled one', async () => {
    await s.load('element-internals.html');
    const r = await s.snapshot();
    expect(strip(body(r))).toBe('switch "Dark theme" @h\ntablist "Views" @h\n tab "List" @h\n tab "Board" @h\nbutton "Save" [disabled] @h');
    const save = await s.tool('click', { handle: handleOf(r.text, /button "Save"/), timeout_ms: 300 });
    expect(save.error?.code).toBe('not_actionable');
    expect(await s.page.$eval('#out', (e) => e.textContent)).toBe('');
    expect((await s.tool('click', { handle: handleOf(r.text, /switch "Dark theme"/) })).isError).toBe(false);
    expect(await s.page.$eval('#out', (e) => e.textContent)).toBe('theme dark');
    expect(strip(body(await s.snapshot()))).toMatch(/^switch "Dark theme" \[checked( focused)?\] @h$/m);
  });

  it('reads a table of 3,000 rows in one call, with the URLs of its links', async () => {
    await s.load('big-table.html');
    const r = await s.snapshot({ max_chars: 2000 });
    const rows = await s.tool('extract_rows', { handle: handleOf(r.text, /table "Orders"/), max_rows: 5000, link_urls: true });
    expect(rows.isError).toBe(false);
    const v = rows.structured as { columns: string[]; rows: Array<Record<string, string>>; total: number; truncated: boolean; complete: boolean };
    expect(v.columns).toEqual(['Order', 'Customer', 'Total', 'Link', 'Link url']);
    expect(v.total).toBe(3000);
    expect(v.rows).toHaveLength(3000);
    expect(v.truncated).toBe(false);
    expect(v.complete).toBe(true);
    expect(v.rows[0]).toEqual({ Order: '#10001', Customer: 'Customer 1', Total: '7.31', Link: 'View', 'Link url': `${s.a}/orders/10001` });
    expect(v.rows[2999]!['Link url']).toBe(`${s.a}/orders/13000`);
  });

  it('says extract_rows on a virtualized list saw a window of 1,000, not the whole list', async () => {
    await s.load('recycled-list.html');
    const r = await s.snapshot();
    expect(strip(body(r)).split('\n')[0]).toBe('list "People" [partial=1-8/1000] @h');
    const rows = await s.tool('extract_rows', { handle: handleOf(r.text, /list "People"/) });
    expect(rows.isError).toBe(false);
    expect(rows.structured.total).toBe(8);
    expect(rows.structured.complete).toBe(false);
    expect(rows.structured.set_size).toBe(1000);
    expect(rows.structured.window).toEqual({ first: 1, last: 8 });
    expect(rows.text).toContain('Partial: the page shows only a window (rows 1-8 of 1000)');
  });

  it('reaches sandboxed srcdoc frames (opaque origins)', async () => {
    await s.load('sandboxed-srcdoc.html');
    const t = strip(body(await s.snapshot()));
    expect(t).toContain('iframe "Sandboxed" @h\n button "Sandboxed button" @h');
    expect(t).toContain('iframe "Sandboxed with scripts" @h\n "Scripted sandbox"');
    expect(t).not.toContain('not-loaded');
  });
});
