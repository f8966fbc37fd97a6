// Pure snapshot logic: escaping, rendering rules, lines of nodes still open, line filters, pages, cursors and diffs
// (shared/snapshot).
import { describe, expect, it } from 'vitest';
import {
  cap,
  composePage,
  decodeCursor,
  diffOutlines,
  encodeCursor,
  fitLines,
  LineFilter,
  lineText,
  openLine,
  quote,
  render,
  resumeIndex,
  toLines,
  type Line,
  type SnapNode,
} from '../../shared/snapshot/index.js';

describe('escaping', () => {
  it('quotes page text so it cannot break a line or spoof the format', () => {
    expect(quote('say "hi"\nbutton "x" @a.1')).toBe('"say \\"hi\\"\\nbutton \\"x\\" @a.1"');
    expect(quote('back\\slash')).toBe('"back\\\\slash"');
    expect(quote('evil\u202Etxt\u2066')).toBe('"evil\\u{202e}txt\\u{2066}"');
    expect(quote('שלום 👋')).toBe('"שלום 👋"');
    // Invisible characters that would make two names look the same are shown; joiners inside emoji and scripts stay.
    expect(quote('zero\u200bwidth\u2060\ufeff')).toBe('"zero\\u{200b}width\\u{2060}\\u{feff}"');
    expect(quote('👩\u200d💻')).toBe('"👩\u200d💻"');
  });
  it('caps with a marker and never splits a surrogate pair', () => {
    expect(cap('abcdef', 3)).toBe('abc…(+3)');
    expect(cap('ab👋cd', 3)).toBe('ab…(+4)');
    expect(cap('abc', 3)).toBe('abc');
  });
});

describe('render', () => {
  it('writes one node per line with name, value, description, url, states and handle', () => {
    const tree: SnapNode[] = [
      { role: 'heading', name: 'Title', states: ['level=1'], handle: 'abcdefgh.1' },
      { role: 'list', handle: 'abcdefgh.2', children: [
        { role: 'listitem', children: [{ role: 'link', name: 'Home', url: '/', handle: 'abcdefgh.3', act: 1, children: [{ role: 'text', name: 'Home' }] }] },
        { role: 'listitem', children: [{ role: 'text', name: 'Plain' }] },
      ] },
      { role: 'textbox', name: 'Email', value: 'a@b.c', states: ['required'], handle: 'abcdefgh.4', act: 1 },
      { role: 'button', name: 'Share', description: 'Sends immediately', handle: 'abcdefgh.5', act: 1 },
    ];
    expect(render(tree)).toBe(
      [
        'heading "Title" [level=1] @abcdefgh.1',
        'list @abcdefgh.2',
        ' link "Home" / @abcdefgh.3',
        ' listitem: "Plain"',
        'textbox "Email" value="a@b.c" [required] @abcdefgh.4',
        'button "Share" desc="Sends immediately" @abcdefgh.5',
      ].join('\n'),
    );
  });
  it('writes a row of plain cells on one line, says when they are headers, and which cell spans', () => {
    const cell = (role: string, name: string, states?: string[]): SnapNode => ({ role, name, children: [{ role: 'text', name }], ...(states ? { states } : {}) });
    const tree: SnapNode[] = [{ role: 'table', children: [
      { role: 'row', children: [cell('columnheader', 'A'), cell('columnheader', 'B')] },
      { role: 'row', children: [cell('cell', '1', ['rowspan=2']), { role: 'cell' }] },
    ] }];
    expect(render(tree)).toBe('table\n row (headers): "A" "B"\n row: "1" [rowspan=2] ""');
  });
});

describe('lines of a node whose children are still coming', () => {
  const settled = { nameMayDrop: false, shiftMayApply: false };
  it('is written only once later children cannot change it, and then as the whole tree writes it', () => {
    const list: SnapNode = { role: 'list', handle: 'a.1' };
    const item = (n: string): SnapNode => ({ role: 'listitem', children: [{ role: 'text', name: n }] });
    expect(openLine(list, [], settled)).toBeUndefined();
    expect(openLine(list, [item('x')], settled)).toBe('list @a.1');
    expect(render([{ ...list, children: [item('x'), item('y')] }]).split('\n')[0]).toBe('list @a.1');
  });
  it('waits where a later child decides: inline forms, list items written as their child, names from content', () => {
    const cell: SnapNode = { role: 'cell', name: 'x', children: [{ role: 'text', name: 'x' }] };
    expect(openLine({ role: 'row' }, [cell, cell], settled)).toBeUndefined();
    expect(openLine({ role: 'listitem' }, [{ role: 'link', name: 'a', handle: 'a.2' }], settled)).toBeUndefined();
    expect(openLine({ role: 'listitem' }, [{ role: 'text', name: 't' }], settled)).toBeUndefined();
    expect(openLine({ role: 'clickable', handle: 'a.3' }, [{ role: 'text', name: 't' }, { role: 'text', name: 'u' }], settled)).toBeUndefined();
    expect(openLine({ role: 'heading', name: 'H' }, [{ role: 'text', name: 'H' }], { nameMayDrop: true, shiftMayApply: true })).toBeUndefined();
    expect(openLine({ role: 'group', name: 'G' }, [{ role: 'text', name: 'G' }], { nameMayDrop: false, shiftMayApply: true })).toBeUndefined();
    expect(openLine({ role: 'group', name: 'G' }, [{ role: 'text', name: 'G' }, { role: 'button', name: 'b', handle: 'a.4' }], settled)).toBe('group "G"');
  });
});

describe('line filters', () => {
  const lines: Line[] = toLines([{ role: 'main', children: [
    { role: 'heading', name: 'Shop' },
    { role: 'button', name: 'Buy keyboard', act: 1 },
    { role: 'text', name: 'Keyboard facts' },
  ] }], 0, [], { role: true, search: true });
  const run = (spec: ConstructorParameters<typeof LineFilter>[0]) => {
    const f = new LineFilter(spec);
    const out: Line[] = [];
    for (const l of lines) f.push(l, out);
    return out.map(lineText).join('\n');
  };
  it('keeps matches with their ancestors', () => {
    expect(run({ roles: ['button'] })).toBe('main\n button "Buy keyboard"');
    expect(run({ query: 'KEYBOARD' })).toBe('main\n button "Buy keyboard"\n "Keyboard facts"');
    expect(run({ interactiveOnly: true })).toBe('main\n button "Buy keyboard"');
  });
  it('keeps what is under a query match', () => {
    const t = toLines([{ role: 'list', name: 'Cart', children: [{ role: 'listitem', children: [{ role: 'text', name: 'Pen' }] }] }], 0, [], { search: true });
    const f = new LineFilter({ query: 'cart' });
    const out: Line[] = [];
    for (const l of t) f.push(l, out);
    expect(out.map(lineText)).toEqual(['list "Cart"', ' listitem: "Pen"']);
  });
});

describe('pages and cursors', () => {
  const lines = toLines(Array.from({ length: 50 }, (_, i) => ({ role: 'button', name: `Button number ${i}`, handle: `abcdefgh.${i.toString(36)}`, act: 1 as const })));
  it('fits whole lines within a budget, at least one', () => {
    const n = fitLines(lines, 300);
    expect(lines.slice(0, n).map(lineText).join('\n').length).toBeLessThanOrEqual(300);
    expect(lines.slice(0, n + 1).map(lineText).join('\n').length).toBeGreaterThan(300);
    expect(fitLines(lines, 1)).toBe(1);
  });
  it('round-trips a cursor and resumes after its anchor when lines moved, or at its index when it is gone', () => {
    const c = { snapshot: 'sabc123', start: 10, anchor: 'abcdefgh.9', after: 0, filters: 'f1' };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    const moved = [{ t: 'new', d: 0 }, ...lines];
    expect(moved[resumeIndex(moved, c, true)!]!.t).toBe(lines[10]!.t);
    expect(resumeIndex(lines.slice(0, 5), c, false)).toBeUndefined();
    expect(resumeIndex(lines.slice(0, 5), c, true)).toBe(5);
  });
  it('never exceeds max_chars, header and coverage included, whatever the title, URL or line lengths', () => {
    const meta = { title: 'T\u202E'.repeat(3000), url: `http://x/${'q'.repeat(5000)}`, document: 'abcdefgh', snapshot: 'sabcdefgh' };
    const nodes: SnapNode[] = [
      { role: 'heading', name: 'Top', handle: 'abcdefgh.1' },
      { role: 'row', handle: 'abcdefgh.2', children: Array.from({ length: 60 }, (_, i) => ({ role: 'cell', name: `cell ${i} "${'w'.repeat(280)}"` })) },
      { role: 'textbox', name: 'Notes', value: `v\n${'z'.repeat(9000)}`, handle: 'abcdefgh.3', act: 1 },
      { role: 'text', name: '\u2066'.repeat(4000) },
      ...Array.from({ length: 50 }, (_, i) => ({ role: 'button', name: `Button number ${i}`, handle: `abcdefgh.${(i + 10).toString(36)}`, act: 1 as const })),
    ];
    const all = toLines(nodes);
    for (const budget of [500, 777, 2000, 24_000]) {
      let first = 0;
      for (let guard = 0; guard < 500 && first < all.length; guard++) {
        const p = composePage({ meta, notes: [], ready: all.slice(first), first, budget, visited: 123456, readAll: true, dropped: 7, changed: false, filters: 'f' });
        expect(p.text.length, `budget ${budget} from line ${first}`).toBeLessThanOrEqual(budget);
        for (const line of p.text.split('\n').slice(1, -1)) {
          // Quotes stay balanced (escapes aside) even in a cut line, so page text never runs into Oriel's words.
          expect(line.replace(/\\./g, '').split('"').length % 2, line.slice(0, 80)).toBe(1);
        }
        expect(p.taken).toBeGreaterThan(0);
        first += p.taken;
        if (!p.cursor) break;
        expect(p.cursor.start).toBe(first);
      }
      expect(first).toBe(all.length);
    }
    // A cut line keeps its handle, so the element can still be acted on; title and URL are capped with a marker.
    const page = composePage({ meta, notes: [], ready: all.slice(2), first: 2, budget: 500, visited: 1, readAll: true, dropped: 0, changed: false, filters: 'f' });
    expect(page.text.split('\n')[1]).toMatch(/^textbox "Notes" value="v\\nz+"…\(\+\d+\) @abcdefgh\.3$/);
    expect(page.text.split('\n')[0]).toMatch(/^page "(T\\u\{202e\})+T?…\(\+\d+\)" http:\/\/x\/q+…\(\+\d+\) doc=abcdefgh snapshot=sabcdefgh$/);
  });
  it('rejects strings that are not cursors', () => {
    expect(decodeCursor('12~x~1')).toBeUndefined();
    expect(decodeCursor('DROP TABLE')).toBeUndefined();
  });
});

describe('diffs', () => {
  const outline = (checked: boolean, extra = false): Line[] =>
    toLines([
      { role: 'heading', name: 'Cart', handle: 'a.1' },
      { role: 'list', handle: 'a.2', children: [
        { role: 'listitem', children: [{ role: 'checkbox', name: 'Gift wrap', handle: 'a.3', act: 1, ...(checked ? { states: ['checked'] } : {}) }, { role: 'text', name: 'Pen' }] },
        ...(extra ? [{ role: 'listitem', children: [{ role: 'button', name: 'Remove ink', handle: 'a.5', act: 1 as const }, { role: 'text', name: 'Ink' }] }] : []),
        { role: 'listitem', children: [{ role: 'button', name: 'Remove', handle: 'a.4', act: 1 as const }, { role: 'text', name: 'Paper' }] },
      ] },
    ]);
  it('shows a changed element with its lines, in the same notation, under where it is', () => {
    const d = diffOutlines(outline(false), outline(true), true);
    expect(d.changed).toBe(1);
    expect(d.added).toBe(0);
    expect(d.hunks).toHaveLength(1);
    expect(d.hunks[0]!.where).toBe('~ in list @a.2, at its start:');
    expect(d.hunks[0]!.lines.map(lineText)).toEqual([' listitem', '  checkbox "Gift wrap" [checked] @a.3', '  "Pen"']);
  });
  it('shows added elements and lists removed handles; nothing when nothing changed', () => {
    const d = diffOutlines(outline(false, true), outline(false), true);
    expect(d.removed).toEqual(['a.5']);
    expect(d.hunks).toHaveLength(0);
    const e = diffOutlines(outline(false), outline(false, true), true);
    expect(e.added).toBe(1);
    expect(e.hunks[0]!.where).toBe('~ in list @a.2, after @a.3:');
    expect(e.hunks[0]!.lines.map(lineText)).toEqual([' listitem', '  button "Remove ink" @a.5', '  "Ink"']);
    expect(diffOutlines(outline(true), outline(true), true).hunks).toHaveLength(0);
  });
  it('starts a new hunk where changed lines leave the parent the hunk is in (trial: top-level lines under "in iframe")', () => {
    const before: Line[] = [
      { t: 'iframe "Ads" @a.1', d: 0, h: 'a.1' },
      { t: 'button "Close ad" @b.1', d: 1, h: 'b.1' },
      { t: 'button "Buy" @a.2', d: 0, h: 'a.2' },
    ];
    const after: Line[] = [
      { t: 'iframe "Ads" @a.1', d: 0, h: 'a.1' },
      { t: 'button "Close ad" [focused] @b.1', d: 1, h: 'b.1' },
      { t: 'button "Buy" [disabled] @a.2', d: 0, h: 'a.2' },
    ];
    const d = diffOutlines(before, after, true);
    expect(d.changed).toBe(2);
    expect(d.hunks.map((h) => h.where)).toEqual(['~ in iframe "Ads" @a.1, at its start:', '~ at the top level, after @a.1:']);
    expect(d.hunks.map((h) => h.lines.map(lineText))).toEqual([[' button "Close ad" [focused] @b.1'], [' button "Buy" [disabled] @a.2']]);
  });
});
