// Snapshot outlines of the fixture pages (test/fixtures/snapshot), asserted in real Chromium and Firefox through the
// real chain: a tab shared in the popup, native messaging, the hub, `oriel mcp` and the official MCP client in both
// protocol eras (every fixture is read in both, and the two outlines must be the same).
// Both browsers give the same outline for every fixture here: where they could differ (accessible names of shadow
// content, closed shadow roots, frame placement), the walker uses its own rules on top of dom-accessibility-api
// rather than each browser's accessibility tree, so the expected text is shared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './harness.js';
import { body, snapshotSession, strip, type SnapSession } from './snapshot-setup.js';

/** Fixture → expected outline (handles replaced by `@h`). `{b}` is the second (cross-origin) fixture origin. */
const EXPECTED: Array<[string, string]> = [
  ["basic.html", `
banner
 navigation "Main"
  list @h
   link "Home" / @h
   link "Deals" /deals [current=page] @h
   link "Help" https://example.com/help @h
main
 heading "Search results" [level=1] @h
 search "Site"
  searchbox "Search" value="keyboard" @h
  button "Go" @h
 list "Results" @h
  listitem
   link "Wireless keyboard" /p/kb-1 @h
   "$39.00"
   button "Add to cart" @h
  listitem
   link "Mechanical keyboard" /p/kb-2 @h
   "$89.00"
   button "Sold out" [disabled] @h
 "Prices include VAT. See"
 link "terms" /terms @h
 "."
 "But this shows"
 heading "Filters" [level=2] @h
 checkbox "In stock" [checked] @h
 checkbox "Free shipping" [required] @h
 group "Sort"
  radio "Price" [checked] @h
  radio "Rating" @h
 textbox "Notes" value="line one\\nline two" @h
 textbox "Code" value="ABC" [readonly] @h
 button "More" [collapsed] @h
 button "Bold" [pressed] @h
contentinfo: "© 2026 Shop"
`],
  ["shadow.html", `
heading "Components" [level=1] @h
"Open shadow text"
button "Open button" @h
textbox "Closed field" value="secretless" @h
link "Closed link" /inside @h
region "Card"
 heading "Slotted title" [level=2] @h
 button "Slotted button" @h
 "Fallback content"
`],
  ["frames.html?b={b}", `
heading "Outer page" [level=1] @h
button "Before frames" @h
iframe "Same origin" @h
 heading "Child heading" [level=2] @h
 link "Child link" /child-link @h
iframe "Cross origin" @h
 heading "Cross-origin heading" [level=2] @h
 link "Child link" /child-link @h
 iframe "Grandchild" @h
  button "Grandchild button" @h
iframe "Inline" @h
 "Srcdoc text"
 button "Srcdoc button" @h
button "After frames" @h
`],
  ["hard.html", `
heading "Hard cases" [level=1] @h
clickable "Clickable div with span" @h
clickable "Focusable div" @h
clickable "Inline handler" @h
checkbox "Dark mode" [checked] @h
checkbox "Hidden native checkbox" @h
button "Transparent button" [transparent] @h
button "Offscreen button" [offscreen] @h
button "Clipped button" [clipped] @h
button "Covered button" [covered] @h
button "Split name" @h
button "Save draft" @h
link "Skip to content" /x @h
textbox "Long value" value="xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…(+300)" @h
"שלום עולם 👋 \\"quoted\\" text"
"- button \\"Fake\\" @h"
"line one break \\"x\\" ] [ @ \\\\ end"
"spoof\\u{202e}txt.exe"
combobox "Country" value="Canada" @h
 group "Europe"
  option "France" value="fr"
  option "Germany" value="de" [disabled]
 group "Americas"
  option "Canada" value="ca" [selected]
  option "Mexico"
listbox "Tags" [multiselectable] @h
 option "a" [selected]
 option "b" [selected]
 option "c"
textbox "Readonly" value="fixed" [readonly] @h
textbox "Disabled" value="off" [disabled] @h
textbox "Invalid" value="bad" [invalid] @h
listbox "Virtual" [zero-size partial=0/1000] @h
list "Windowed" [partial=41-42/500] @h
 listitem: "Row 41"
 listitem: "Row 42"
button "More info" [collapsed] @h
button "Open info" [expanded] @h
"Shown details text"
textbox "Editor" value="Rich text" @h
img "Chart of sales" @h
canvas "Drawing" @h
img "Logo" @h
table "Prices" @h
 row @h (headers): "Item" "Price"
 row @h: "Pen" "$1"
 row @h
  cell
   link "Book" /book @h
  cell "$9"
slider "Volume" value="30" @h
`],
  ["modal.html?mode=dialog", `
heading "Page behind" [level=1] @h
button "Behind button" [covered inert] @h
dialog "Confirm" [modal] @h
 "Delete it?"
 button "Yes" @h
 button "No" [focused] @h
`],
  ["modal.html?mode=aria", `
heading "Page behind" [level=1] @h
button "Behind button" [inert] @h
dialog "Cookie consent" [modal] @h
 button "Accept" @h
`],
];

/** A page whose second half the server holds back until the test releases it: the parser stops half-way. */
function slowPage() {
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  const route = (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    // Padding past the browsers' first-chunk buffering, so the first half is parsed and shown at once.
    res.write(`<!doctype html><title>Slow</title><!--${' '.repeat(4096)}--><h1>First half</h1><button>Early</button>`);
    void held.then(() => res.end('<p>Second half</p><button>Late</button>'));
  };
  return { route, release: () => release() };
}

/** A page whose server answers nothing at all until the test releases it: the tab's navigation stays under way. */
function heldPage() {
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  const route = (_req: unknown, res: import('node:http').ServerResponse) => {
    void held.then(() => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end('<!doctype html><title>Held</title><button>Arrived</button>'));
  };
  return { route, release: () => release() };
}

describe.each(BROWSERS)('snapshot outline in %s', (kind) => {
  let s: SnapSession;
  const slow = slowPage();
  const held = heldPage();
  beforeAll(async () => {
    s = await snapshotSession(kind, { '/slow.html': slow.route, '/held.html': held.route });
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each(EXPECTED)('%s', async (file, expected) => {
    const doc = await s.load(file);
    const [legacy, modern] = [await s.snapshot({}, 'legacy'), await s.snapshot({}, 'modern')];
    for (const r of [legacy, modern]) {
      expect(r.document).toBe(doc);
      expect(strip(body(r))).toBe(expected.trim());
      expect(r.text.split('\n')[0]).toMatch(new RegExp(`^page ".*" http://127\\.0\\.0\\.1:\\d+/.* doc=${r.document} snapshot=${r.snapshot}$`));
      expect(r.coverage.truncated).toBe(false);
      expect(r.text.split('\n').at(-1)).toMatch(/^coverage: \d+ visited, \d+ shown, 0 omitted, complete$/);
    }
    // Same elements, same handles: both eras read the same outline.
    expect(body(modern)).toBe(body(legacy));
  });

  it('writes each link URL as one token that cannot pass for a handle, without credentials', async () => {
    await s.load('links.html');
    const text = (await s.snapshot({}, 'legacy')).text;
    const spoof = text.split('\n').find((l) => l.includes('"Spoof"'))!;
    expect(spoof).toMatch(/^\s*link "Spoof" \/a\.html%20%40zzzzzzzz\.1 @[a-z0-9]+\.[0-9a-z]+$/);
    expect(spoof.match(/@/g)).toHaveLength(1);
    expect(text).toContain('link "Credentials" http://127.0.0.1:9/x @');
    // The fixture's link carries user "user" and password "pw"; neither may reach the outline (the random document id
    // in the header may contain those letters, so only the page's own lines are checked).
    expect(text.split('\n').slice(1).join('\n')).not.toMatch(/pw|user/);
    expect(text).toMatch(/link "Plain" \/plain @/);
  });

  it('gives every frame its own document namespace and stitches each under its iframe', async () => {
    await s.load('frames.html?b={b}');
    const r = await s.snapshot({}, 'modern');
    const lines = body(r).split('\n');
    const ns = (re: RegExp) => /@([a-z0-9]+)\./.exec(lines.find((l) => re.test(l))!)![1];
    const namespaces = new Set([ns(/Before frames/), ns(/Child heading/), ns(/Cross-origin heading/), ns(/Grandchild button/), ns(/Srcdoc button/)]);
    expect(namespaces.size).toBe(5);
    expect(ns(/Before frames/)).toBe(r.document);
  });

  it('filters by role, query and interactive_only, keeping ancestors', async () => {
    await s.load('basic.html');
    const roles = strip(body(await s.snapshot({ roles: ['button'] }, 'legacy')));
    expect(roles).toContain('button "Add to cart" @h');
    expect(roles).not.toContain('link ');
    // A role no element has (misspelt here) shows nothing, and says so; one that matches says nothing of the kind.
    const none = await s.snapshot({ roles: ['buton'] }, 'modern');
    expect(none.text).toMatch(/^note: no element on the page has the role "buton"; roles are named as the outline writes them/m);
    expect(body(await s.snapshot({ roles: ['button'] }, 'modern'))).not.toContain('no element on the page has the role');
    const q = strip(body(await s.snapshot({ query: 'keyboard' }, 'modern')));
    expect(q.split('\n').filter((l) => l.includes('keyboard')).length).toBeGreaterThanOrEqual(3);
    expect(q).not.toContain('Add to cart');
    const act = strip(body(await s.snapshot({ interactive_only: true }, 'legacy')));
    expect(act).not.toContain('"$39.00"');
    expect(act).toContain('checkbox "In stock" [checked] @h');
  });

  it('says when the tab is loading another page that has not arrived yet, and stops once it has', async () => {
    await s.load('basic.html');
    // A navigate that does not wait (or one that timed out): the next page's server has not answered yet.
    expect((await s.tool('navigate', { url: `${s.a}/held.html`, wait_until: 'none' })).isError).toBe(false);
    const before = await s.snapshot({}, 'legacy');
    expect(before.text.split('\n')[1]).toMatch(/^note: the tab is loading another page \(for a few seconds\): this outline is of the page it still shows/);
    expect(before.text).toContain('button "Add to cart"');
    held.release();
    await s.page.waitForFunction(() => document.title === 'Held' && document.readyState === 'complete');
    const after = await s.snapshot({}, 'modern');
    expect(after.text).not.toContain('loading another page');
    expect(after.text).toContain('button "Arrived"');
  });

  it('says when the document is still loading, and stops saying so once it has loaded', async () => {
    expect((await s.tool('navigate', { url: `${s.a}/slow.html`, wait_until: 'none' })).isError).toBe(false);
    expect((await s.tool('wait_for', { text: 'First half' })).isError).toBe(false);
    const early = await s.snapshot({}, 'modern');
    expect(early.loading).toBe('loading');
    expect(early.text.split('\n')[1]).toMatch(/^note: the document is still loading \(the parser has not reached its end\)/);
    expect(early.text).toContain('button "Early"');
    expect(early.text).not.toContain('Late');
    slow.release();
    await s.page.waitForFunction(() => document.readyState === 'complete');
    const done = await s.snapshot({}, 'legacy');
    expect(done.loading).toBeUndefined();
    expect(done.text).not.toContain('still loading');
    expect(done.text).toContain('button "Late"');
  });

  it('snapshots the subtree under a root handle', async () => {
    await s.load('basic.html');
    const full = await s.snapshot({}, 'modern');
    const list = /list "Results" @(\S+)/.exec(full.text)![1]!;
    const sub = strip(body(await s.snapshot({ root: list }, 'modern')));
    expect(sub.split('\n')[0]).toBe('list "Results" @h');
    expect(sub).toContain('button "Add to cart" @h');
    expect(sub).not.toContain('Filters');
  });
});
