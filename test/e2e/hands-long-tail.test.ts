// The long tail of a person's hands, through MCP in real browsers: double, right, middle and modifier clicks and
// clicks at a point inside an element; handles for table and grid cells, draggable cards, SVG controls and rows of
// recycled lists; names and text read as a person reads them. One browser per run of the file.
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, call, handleOf, until, type Rig, type ToolCall } from './harness.js';
import { closeSharedTab, openSharedTab, type SharedTab } from './shared-tab.js';
import { inPage, textOf } from './actions-setup.js';

describe.each(BROWSERS)('the long tail of hands in %s', (kind) => {
  let rig: Rig;
  let site: { url: string; close(): Promise<void> };
  let client: Client;
  let page: Page;
  let session: string;

  const tool = (name: string, args: Record<string, unknown> = {}): Promise<ToolCall> => call(client, name, { session, ...args });
  const load = async (file: string) => {
    const r = await tool('navigate', { url: `${site.url}/hands/${file}` });
    if (r.isError) throw new Error(`navigate ${file}: ${r.error?.message}`);
  };
  const outline = async () => {
    const r = await tool('snapshot');
    if (r.isError) throw new Error(`snapshot: ${r.error?.message}`);
    return r.text;
  };
  const out = () => textOf(page, '#out');
  const ok = async (name: string, args: Record<string, unknown>) => {
    const r = await tool(name, args);
    if (r.isError) throw new Error(`${name}: ${r.error?.code} ${r.error?.message}`);
    return r;
  };

  let tab: SharedTab | undefined;
  beforeAll(async () => {
    ({ rig, site, client, page, session } = tab = await openSharedTab(kind, { era: 'modern', name: 'long-tail', path: 'hands/keys.html?shared', viewport: { width: 1000, height: 700 } }));
  });
  afterAll(() => closeSharedTab(tab));

  it('double-clicks, right-clicks and middle-clicks with the events in the order a mouse makes them', async () => {
    await load('clicks.html');
    let text = await outline();
    const seq = handleOf(text, /button "Sequence"/);
    await ok('click', { handle: seq, count: 2 });
    expect(await textOf(page, '#log')).toBe('pointerdown mousedown:1 pointerup mouseup:1 click:1 pointerdown mousedown:2 pointerup mouseup:2 click:2 dblclick:2');
    await ok('click', { handle: seq, button: 'right' });
    expect(await textOf(page, '#log')).toMatch(/dblclick:2 pointerdown\/2 mousedown:1\/2 contextmenu:0\/2 pointerup\/2 mouseup:1\/2 auxclick:1\/2$/);
    await ok('click', { handle: seq, count: 3 });
    expect(await textOf(page, '#log')).toMatch(/auxclick:1\/2 pointerdown mousedown:1 pointerup mouseup:1 click:1 pointerdown mousedown:2 pointerup mouseup:2 click:2 dblclick:2 pointerdown mousedown:3 pointerup mouseup:3 click:3$/);

    // A cell edited on double-click, addressed as its row's cell: a single click does nothing.
    const row = handleOf(text, /row @\S+: "Pen" "3"/);
    await ok('click', { handle: `${row}:2` });
    expect(await out()).toBe('');
    await ok('click', { handle: `${row}:2`, count: 2 });
    expect(await out()).toBe('editing qty');
    expect(await outline()).toMatch(/textbox "Qty" value="3"/);

    // A custom context menu, then one of its items.
    text = await outline();
    await ok('click', { handle: handleOf(text, /clickable "report\.pdf"|"report\.pdf"/), button: 'right' });
    expect(await out()).toBe('menu open');
    await ok('click', { handle: handleOf(await outline(), /menuitem "Rename"/) });
    expect(await out()).toBe('rename report.pdf');
    await ok('click', { selector: '#file', button: 'middle' });
    expect(await out()).toBe('middle file');
  });

  it('selects a word on double-click and a paragraph on triple-click, as a person\'s clicks do', async () => {
    await load('clicks.html');
    const selected = () => inPage(page, () => getSelection()!.toString().trim());
    await ok('click', { selector: '#w', count: 2 });
    expect(await selected()).toBe('Bravo');
    await ok('click', { selector: '#w', count: 3 });
    expect(await selected()).toBe('Alpha Bravo Charlie');
    await ok('click', { selector: '#who', count: 2 });
    expect(await inPage(page, () => {
      const f = document.getElementById('who') as HTMLInputElement;
      return [document.activeElement === f, f.selectionStart, f.selectionEnd];
    })).toEqual([true, 0, 12]);
    // A single click selects nothing new.
    await ok('click', { selector: '#para' });
    expect(await inPage(page, () => (document.getElementById('who') as HTMLInputElement) === document.activeElement)).toBe(false);
  });

  it('clicks at a point inside an element: a slider track, a canvas; a point outside it is refused', async () => {
    await load('clicks.html');
    const text = await outline();
    const slider = handleOf(text, /slider "Volume"/);
    await ok('click', { handle: slider, x: 150, y: 10 });
    expect(await out()).toBe('volume 50');
    await ok('click', { handle: slider, x: 270 });
    expect(await out()).toBe('volume 90');
    const board = handleOf(text, /canvas "Board"/);
    await ok('click', { handle: board, x: 30, y: 70 });
    expect(await out()).toBe('board 30,70');
    // A point of a map taller than the viewport is scrolled into view first.
    await ok('click', { selector: '#map', x: 40, y: 1500 });
    expect(await out()).toBe('map 40,1500');
    await ok('click', { selector: '#map', y: 30 });
    expect(await out()).toBe('map 150,30');
    const outside = await tool('click', { handle: board, x: 30, y: 400, timeout_ms: 200 });
    expect(outside.error?.code).toBe('not_actionable');
    expect(outside.error?.message).toMatch(/outside its box of 20\d×10\d CSS px/);
  });

  it('holds modifier keys: Control toggles and Shift extends a selection; a modified or middle click on a link opens it in a new shared tab', async () => {
    await load('clicks.html');
    const text = await outline();
    const a = handleOf(text, /option "a\.txt"/);
    const c = handleOf(text, /option "c\.txt"/);
    await ok('click', { handle: a });
    await ok('click', { handle: c, modifiers: ['Control'] });
    expect(await out()).toBe('selected a.txt,c.txt');
    await ok('click', { handle: handleOf(text, /option "d\.txt"/), modifiers: ['Shift'] });
    expect(await out()).toBe('selected c.txt,d.txt');

    // Each opens the link in a new tab, shared with this one as its opener; this tab stays where it was.
    const link = handleOf(text, /link "Docs"/);
    const opened: string[] = [];
    for (const how of [{ modifiers: ['Control'] }, { button: 'middle' }, { modifiers: ['Meta'] }]) {
      const r = await ok('click', { handle: link, ...how });
      expect(r.structured.new_tab_url).toBe(`${site.url}/hands/popup-target.html`);
      expect(r.structured.new_tab_session).toMatch(/^[a-z0-9]+-\d+$/);
      expect(r.text).toContain('in a new tab, shared as session');
      opened.push(r.structured.new_tab_session as string);
    }
    expect(await inPage(page, () => location.pathname)).toBe('/hands/clicks.html');
    const sessions = await until(async () => {
      const list = (await call(client, 'list_sessions')).structured.sessions as Array<{ id: string; url: string; opener?: string }>;
      return list.filter((s) => s.opener === session && s.url.endsWith('/hands/popup-target.html')).length === 3 ? list : undefined;
    }, 15_000, 'the opened tabs to become sessions');
    expect(sessions.filter((s) => s.opener === session).map((s) => s.id).sort()).toEqual([...opened].sort());
    expect((await call(client, 'snapshot', { session: opened[0] })).text).toMatch(/heading "Opened"/);
    // A tab the extension opened may reach the driver's page list a moment late: close what is there until none is left.
    await until(async () => {
      for (const p of await rig.browser.pages()) if (p.url().includes('popup-target.html')) await p.close();
      return ((await call(client, 'list_sessions')).structured.sessions as unknown[]).length === 1;
    }, 15_000, 'the opened tabs to end');
    await page.bringToFront();
    const bad = await tool('click', { handle: link, button: 'side' });
    expect(bad.error?.code).toBe('invalid_argument');
  });

  it('gives a table or grid row\'s cells handles as "row:n", to hover, double-click, right-click and extract one cell', async () => {
    await load('cells.html');
    const before = await outline();
    // Rows stay one line each: cells take no lines of their own.
    expect(before).toMatch(/row @\S+: "Pen" "\$1"/);
    const pen = handleOf(before, /row @\S+: "Pen"/);
    const ink = handleOf(before, /row @\S+: "Ink"/);
    await ok('hover', { handle: `${pen}:2` });
    expect(await out()).toBe('hover $1');
    expect((await ok('extract', { handle: `${pen}:2` })).structured.value).toBe('$1');
    // The hidden cell is not counted, as the outline does not show it.
    expect((await ok('extract', { handle: `${ink}:2` })).structured.value).toBe('$7');
    await ok('click', { handle: `${ink}:1`, count: 2 });
    expect(await out()).toBe('edit Ink');
    // A grid's cells carry handles of their own; its rows number them all the same.
    const ada = /row @(\S+)\n\s+gridcell "Ada"/.exec(before)![1]!;
    await ok('click', { handle: `${ada}:2`, button: 'right' });
    expect(await out()).toBe('menu London');
    await ok('click', { handle: handleOf(before, /gridcell "36"/), count: 2 });
    expect(await out()).toBe('edit 36');
    // A cell by selector, as any element.
    await ok('click', { selector: '#prices tr:nth-child(2) .price', count: 2 });
    expect(await out()).toBe('edit $1');
    const missing = await tool('extract', { handle: `${pen}:3` });
    expect(missing.error?.code).toBe('unknown_handle');
    expect(missing.error?.message).toContain('has 2 cells');
    const notRow = await tool('click', { handle: `${handleOf(before, /table/)}:1` });
    expect(notRow.error?.message).toContain('not a table row');
  });

  it('gives draggable cards handles and drags them between columns', async () => {
    await load('board.html');
    const text = await outline();
    expect(text).toMatch(/listitem \[draggable\] @\S+: "Fix login"/);
    expect(text).toMatch(/clickable "Ship v2" \[draggable\] @/);
    const card = handleOf(text, /"Write docs"/);
    await ok('drag', { handle: card, to_handle: handleOf(text, /heading "Done"/) });
    expect(await out()).toBe('Write docs -> Done');
    await ok('drag', { handle: handleOf(text, /"Ship v2"/), to_handle: handleOf(text, /heading "To do"/) });
    expect(await out()).toBe('Ship v2 -> To do');
  });

  it('finds the SVG elements that act as controls, named by their label or title, and clicks them', async () => {
    await load('svg-controls.html');
    const text = await outline();
    for (const [pattern, expected] of [
      [/button "Zoom in"/, 'zoom in'],
      [/clickable "Norway"/, 'region Norway'],
      [/clickable "Point 3"/, 'point 3'],
      [/clickable "Show revenue"/, 'revenue shown'],
      [/button "Close"/, 'closed'],
    ] as const) {
      await ok('click', { handle: handleOf(text, pattern) });
      await until(async () => (await out()) === expected, 5_000, expected);
    }
    // An SVG link is listed as a link. Nested under the chart they belong to.
    expect(text).toMatch(/link "Details" @/);
    expect(text).toMatch(/img "Sales chart" @\S+\n\s+button "Zoom in"/);
    await ok('click', { handle: handleOf(text, /clickable "Norway"/), button: 'right' });
    expect(await out()).toBe('menu Norway');
  });

  it('binds a handle to the row it was in: a recycled row\'s "Call" or "Edit" does not act for another record', async () => {
    await load('recycled-rows.html');
    for (const [list, button, first, expected] of [
      ['Contacts', 'Call', 'Contact 003', 'calling 3'],
      ['Orders', 'Edit', '', 'editing 3'],
    ] as const) {
      const text = await outline();
      const buttons = text.split('\n').filter((l) => l.includes(`button "${button}"`));
      const fourth = /@(\S+)/.exec(buttons[3]!)![1]!;
      await ok('click', { handle: fourth });
      expect(await out()).toBe(expected);
      await inPage(page, () => (document.getElementById('out')!.textContent = ''));
      await ok('scroll', { handle: handleOf(text, new RegExp(`(list|grid) "${list}"`)), direction: 'down', amount: 4000 });
      const stale = await tool('click', { handle: fourth });
      expect(stale.error?.code).toBe('detached');
      if (first) expect(stale.error?.message).toContain(first);
      expect(await out()).toBe('');
    }
  });

  it('reads names and text as a person does: no soft hyphens or zero-width characters, letters in boxes as words', async () => {
    await load('names.html');
    const text = await outline();
    expect(text).toMatch(/button "Submit order" @/);
    expect(text).toMatch(/link "PayPal checkout"/);
    expect(text).toMatch(/button "Save" @/);
    expect(text).toMatch(/heading "Deals"/);
    expect(text).toMatch(/button "Close dialog" @/);
    expect(text).toMatch(/"Information about shipping"/);
    expect(text).toMatch(/"Total: 12"|"Total:" "12"|Total: "12"/);
    expect(text).toMatch(/button "Two lines"/);
    expect(text).not.toMatch(/\\u\{(ad|200b|2060|feff)\}/);
    // wait_for finds text split by invisible characters, and by what a person types.
    await ok('click', { handle: handleOf(text, /button "Two lines"/) });
    expect((await ok('wait_for', { text: 'Order confirmed', timeout_ms: 5000 })).structured.state).toBe('visible');
    expect((await ok('wait_for', { text: 'Information about shipping', timeout_ms: 2000 })).structured.state).toBe('visible');
    // A handle bound to such a name still resolves.
    await ok('click', { handle: handleOf(text, /button "Save"/) });
    expect(await out()).toBe('clicked b2');
  });
});
