// Pure snapshot logic: escaping, rendering rules, filters, inert marking, pagination and cursors (shared/snapshot).
import { describe, expect, it } from 'vitest';
import { cap, decodeCursor, encodeCursor, escapeBare, escapeJson, filterTree, markInert, paginate, quote, render, resumeIndex, toLines, type SnapNode } from '../../shared/snapshot/index.js';

const meta = { title: 'T', url: 'http://x/', document: 'abcdefgh', visited: 10, dropped: 0 };

describe('escaping', () => {
  it('quotes page text so it cannot break a line or spoof the format', () => {
    expect(quote('say "hi"\nbutton "x" @a.1')).toBe('"say \\"hi\\"\\nbutton \\"x\\" @a.1"');
    expect(quote('back\\slash')).toBe('"back\\\\slash"');
    expect(quote('evil\u202Etxt\u2066')).toBe('"evil\\u{202e}txt\\u{2066}"');
    expect(quote('שלום 👋')).toBe('"שלום 👋"');
  });
  it('caps with a marker and never splits a surrogate pair', () => {
    expect(cap('abcdef', 3)).toBe('abc…(+3)');
    expect(cap('ab👋cd', 3)).toBe('ab…(+4)');
    expect(cap('abc', 3)).toBe('abc');
  });
  it('escapes bare text (URLs, messages) without quoting, and JSON text without changing its value', () => {
    expect(escapeBare('a "b"\nNext: x\u202E')).toBe('a "b"\\nNext: x\\u{202e}');
    const value = { title: 'Pay \u202Efdp.exe\u202C\u2028\u0085', n: 1 };
    const json = escapeJson(JSON.stringify(value));
    expect(json).not.toMatch(/[\u0085\u202a-\u202e\u2028]/);
    expect(json).toContain('\\u202e');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('render', () => {
  it('writes one node per line with name, value, url, states and handle', () => {
    const tree: SnapNode[] = [
      { role: 'heading', name: 'Title', states: ['level=1'], handle: 'abcdefgh.1' },
      { role: 'list', handle: 'abcdefgh.2', children: [
        { role: 'listitem', children: [{ role: 'link', name: 'Home', url: '/', handle: 'abcdefgh.3', act: 1, children: [{ role: 'text', name: 'Home' }] }] },
        { role: 'listitem', children: [{ role: 'text', name: 'Plain' }] },
      ] },
      { role: 'textbox', name: 'Email', value: 'a@b.c', states: ['required'], handle: 'abcdefgh.4', act: 1 },
    ];
    expect(render(tree)).toBe(
      [
        'heading "Title" [level=1] @abcdefgh.1',
        'list @abcdefgh.2',
        ' link "Home" / @abcdefgh.3',
        ' listitem: "Plain"',
        'textbox "Email" value="a@b.c" [required] @abcdefgh.4',
      ].join('\n'),
    );
  });
  it('writes a row of plain cells on one line, and says when they are headers', () => {
    const cell = (role: string, name: string): SnapNode => ({ role, name, children: [{ role: 'text', name }] });
    const tree: SnapNode[] = [{ role: 'table', children: [
      { role: 'row', children: [cell('columnheader', 'A'), cell('columnheader', 'B')] },
      { role: 'row', children: [cell('cell', '1'), { role: 'cell' }] },
    ] }];
    expect(render(tree)).toBe('table\n row (headers): "A" "B"\n row: "1" ""');
  });
});

describe('filters', () => {
  const tree: SnapNode[] = [{ role: 'main', children: [
    { role: 'heading', name: 'Shop' },
    { role: 'button', name: 'Buy keyboard', act: 1 },
    { role: 'text', name: 'Keyboard facts' },
  ] }];
  it('keeps matches with their ancestors', () => {
    expect(render(filterTree(tree, { roles: ['button'] }))).toBe('main\n button "Buy keyboard"');
    expect(render(filterTree(tree, { query: 'KEYBOARD' }))).toBe('main\n button "Buy keyboard"\n "Keyboard facts"');
    expect(render(filterTree(tree, { interactiveOnly: true }))).toBe('main\n button "Buy keyboard"');
  });
  it('marks interactive nodes outside an open modal inert', () => {
    const t: SnapNode[] = [{ role: 'button', name: 'Behind', act: 1 }, { role: 'dialog', states: ['modal'], children: [{ role: 'button', name: 'OK', act: 1 }] }];
    markInert(t);
    expect(render(t)).toBe('button "Behind" [inert]\ndialog [modal]\n button "OK"');
  });
});

describe('pagination', () => {
  const tree: SnapNode[] = Array.from({ length: 50 }, (_, i) => ({ role: 'button', name: `Button number ${i}`, handle: `abcdefgh.${i.toString(36)}`, act: 1 as const }));
  const lines = toLines(tree);
  it('fills pages with whole lines within the budget and continues exactly', () => {
    const seen: string[] = [];
    let start = 0;
    for (let guard = 0; guard < 50; guard++) {
      const p = paginate(lines, start, 600, meta, 'f');
      expect(p.text.length).toBeLessThanOrEqual(600);
      seen.push(...p.text.split('\n').slice(1, -1));
      if (!p.cursor) break;
      const c = decodeCursor(encodeCursor(p.cursor))!;
      expect(c).toEqual(p.cursor);
      start = resumeIndex(lines, c);
    }
    expect(seen).toEqual(lines.map((l) => l.text));
  });
  it('resumes after the anchor handle when lines moved, or at the index when it is gone', () => {
    const p = paginate(lines, 0, 600, meta, 'f');
    const moved = [{ text: 'new', act: 0 }, ...lines];
    expect(moved[resumeIndex(moved, p.cursor!)]!.text).toBe(lines[p.end]!.text);
    expect(resumeIndex(lines.slice(0, 5), { ...p.cursor!, anchor: 'zzzzzzzz.1' })).toBe(5);
  });
  it('never exceeds max_chars, header and coverage included, whatever the title, URL or line lengths', () => {
    const hostile = {
      title: 'T\u202E'.repeat(3000),
      url: `http://x/${'q'.repeat(5000)}`,
      document: 'abcdefgh',
      visited: 123456,
      dropped: 7,
    };
    const nodes: SnapNode[] = [
      { role: 'heading', name: 'Top', handle: 'abcdefgh.1' },
      { role: 'row', handle: 'abcdefgh.2', children: Array.from({ length: 60 }, (_, i) => ({ role: 'cell', name: `cell ${i} "${'w'.repeat(280)}"` })) },
      { role: 'textbox', name: 'Notes', value: `v\n${'z'.repeat(9000)}`, handle: 'abcdefgh.3', act: 1 },
      { role: 'text', name: '\u2066'.repeat(4000) },
      ...tree,
    ];
    const all = toLines(nodes);
    for (const budget of [500, 777, 2000, 24_000]) {
      let start = 0;
      let shown = 0;
      for (let guard = 0; guard < 500; guard++) {
        const p = paginate(all, start, budget, hostile, 'f');
        expect(p.text.length, `budget ${budget} from line ${start}`).toBeLessThanOrEqual(budget);
        const body = p.text.split('\n').slice(1, -1);
        for (const line of body) {
          // Quotes stay balanced (escapes aside) even in a cut line, so page text never runs into Oriel's words.
          expect(line.replace(/\\./g, '').split('"').length % 2, line.slice(0, 80)).toBe(1);
        }
        shown += p.shown;
        if (!p.cursor) break;
        start = resumeIndex(all, p.cursor);
      }
      expect(shown).toBe(all.length);
    }
    // A cut line keeps its handle, so the element can still be acted on.
    const page = paginate(all, 2, 500, hostile, 'f');
    expect(page.text.split('\n')[1]).toMatch(/^textbox "Notes" value="v\\nz+"…\(\+\d+\) @abcdefgh\.3$/);
    expect(paginate(all, 0, 500, hostile, 'f').text.split('\n')[0]).toMatch(/^page "(T\\u\{202e\})+T?…\(\+\d+\)" http:\/\/x\/q+…\(\+\d+\) doc=abcdefgh$/);
  });
  it('rejects strings that are not cursors', () => {
    expect(decodeCursor('12~x~1')).toBeUndefined();
    expect(decodeCursor('DROP TABLE')).toBeUndefined();
  });
});
