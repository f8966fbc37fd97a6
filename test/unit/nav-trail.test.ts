// The trail navigate's back and forward move along (extension/background/ops/nav-trail.ts): pure transitions.
import { describe, expect, it } from 'vitest';
import { abandoned, begin, committed, EMPTY_TRAIL, MAX_TRAIL, observe, settled, stepTarget, visit, type NavTrail } from '../../extension/background/ops/nav-trail.js';

const empty: NavTrail = EMPTY_TRAIL;
const u = (q: string) => `https://a.test/${q}`;
const trail = (...pages: string[]): NavTrail => ({ entries: pages.map(u), index: pages.length - 1 });

describe('navigation trail', () => {
  it('records pages as a browser history would, and steps along them', () => {
    let t = observe(empty, u('start'));
    t = visit(visit(t, u('a')), u('b'));
    expect(t).toEqual({ entries: [u('start'), u('a'), u('b')], index: 2 });
    expect(stepTarget(t, 1)).toBeUndefined();
    t = committed(begin(t, -1, u('a')), u('a'), 'new');
    expect(t).toEqual({ entries: [u('start'), u('a'), u('b')], index: 1 });
    expect(stepTarget(t, -1)).toBe(u('start'));
    expect(stepTarget(t, 1)).toBe(u('b'));
    // A new page from the middle drops what was forward.
    t = visit(t, u('c'));
    expect(t).toEqual({ entries: [u('start'), u('a'), u('c')], index: 2 });
  });

  it('notices a page reached another way, keeps the same trail when nothing moved, and skips pages it cannot load', () => {
    const t = visit(empty, u('a'));
    expect(observe(t, u('a'))).toBe(t);
    expect(observe(t, 'about:blank')).toBe(t);
    expect(observe(t, 'chrome-error://chromewebdata/')).toBe(t);
    expect(observe(t, u('clicked'))).toEqual({ entries: [u('a'), u('clicked')], index: 1 });
  });

  it('keeps at most MAX_TRAIL pages', () => {
    let long = empty;
    for (let i = 0; i < MAX_TRAIL + 10; i++) long = committed(long, u(String(i)), 'new');
    expect(long.entries).toHaveLength(MAX_TRAIL);
    expect(long.entries[0]).toBe(u('10'));
    expect(long.index).toBe(MAX_TRAIL - 1);
    const started = begin(long, 'visit', u('next'));
    expect(started.landing).toEqual({ index: MAX_TRAIL - 1, url: u('next') });
    expect(started.entries[MAX_TRAIL - 1]).toBe(u('next'));
  });

  it('records every page the tab commits: a click from the page it was shared on, then back and forward', () => {
    // Shared on A, a link to B: back finds A.
    let t = committed(observe(empty, u('A')), u('B'), 'new');
    expect(t).toEqual({ entries: [u('A'), u('B')], index: 1 });
    expect(stepTarget(t, -1)).toBe(u('A'));
    // The commit of a page already current (a reload, a commit the navigate call already recorded) is no new entry.
    expect(committed(t, u('B'), 'new')).toBe(t);
    // The browser's own back and forward step along; a page not next to the current one is a new one.
    t = committed(t, u('A'), 'history');
    expect(t).toEqual({ entries: [u('A'), u('B')], index: 0 });
    expect(committed(t, u('B'), 'history')).toEqual({ entries: [u('A'), u('B')], index: 1 });
    expect(committed(t, u('C'), 'history')).toEqual({ entries: [u('A'), u('C')], index: 1 });
  });

  it('lets a client redirect or an address change within the document take the current entry\'s place', () => {
    const t = trail('A', 'B');
    expect(committed(t, u('B?token=1'), 'replace')).toEqual({ entries: [u('A'), u('B?token=1')], index: 1 });
    expect(committed(t, u('B'), 'replace')).toBe(t);
    // On an empty trail there is nothing to replace: the page is the first.
    expect(committed(empty, u('A'), 'replace')).toEqual({ entries: [u('A')], index: 0 });
  });

  it("a navigate step stays a step when its commit arrives, and a redirect replaces the entry it landed on", () => {
    const t = trail('A', 'B', 'C');
    const back = begin(t, -1, u('B'));
    expect(back).toEqual({ entries: [u('A'), u('B'), u('C')], index: 1, landing: { index: 1, url: u('B') } });
    // The listener's commit of the page the step loads: the forward entry stays.
    expect(committed(back, u('B'), 'new')).toEqual({ entries: [u('A'), u('B'), u('C')], index: 1 });
    // The same step redirected elsewhere (even reported as a client redirect): that entry becomes the landing page.
    expect(committed(back, u('B2'), 'replace')).toEqual({ entries: [u('A'), u('B2'), u('C')], index: 1 });
    // The commit may come first, or not at all (a load within the document): navigate's end settles it once only.
    const done = committed(back, u('B'), 'new');
    expect(settled(done, u('B-after'))).toBe(done);
    expect(settled(back, u('B#x'))).toEqual({ entries: [u('A'), u('B#x'), u('C')], index: 1 });
    // A step whose entry no longer holds the page asked for (the trail moved meanwhile) loads it as a new page.
    expect(begin(trail('A', 'X'), -1, u('B'))).toEqual({ entries: [u('A'), u('X'), u('B')], index: 2, landing: { index: 2, url: u('B') } });
    expect(begin(trail('A', 'B'), 1, u('Z')).entries).toEqual([u('A'), u('B'), u('Z')]);
  });

  it('a navigate to a new page drops forward entries; loading the page shown again, or reloading, keeps the entry', () => {
    const mid: NavTrail = { entries: [u('A'), u('B'), u('C')], index: 1 };
    const to = begin(mid, 'visit', u('D'));
    expect(to).toEqual({ entries: [u('A'), u('B'), u('D')], index: 2, landing: { index: 2, url: u('D') } });
    expect(committed(to, u('D2'), 'new')).toEqual({ entries: [u('A'), u('B'), u('D2')], index: 2 });
    const again = begin(mid, 'visit', u('B'));
    expect(again).toEqual({ ...mid, landing: { index: 1, url: u('B') } });
    const reload = begin(mid, 'reload', undefined);
    expect(reload).toEqual({ ...mid, landing: { index: 1, url: u('B') } });
    // A reload that redirects elsewhere replaces the entry.
    expect(committed(reload, u('login'), 'new')).toEqual({ entries: [u('A'), u('login'), u('C')], index: 1 });
    expect(begin(empty, 'reload', undefined)).toBe(empty);
    expect(begin(mid, 'visit', 'about:blank')).toBe(mid);
  });

  it('a failed load puts the trail back unless the tab committed a page meanwhile; pages it cannot load leave the landing waiting', () => {
    const before = trail('A', 'B');
    const started = begin(before, -1, u('A'));
    expect(committed(started, 'about:neterror?e=dnsNotFound', 'new')).toBe(started);
    expect(abandoned(started, before, started.landing)).toBe(before);
    const landed = committed(started, u('A'), 'new');
    expect(abandoned(landed, before, started.landing)).toBe(landed);
    // Another call's landing is not this one's to undo.
    const other = begin(landed, 'visit', u('Q'));
    expect(abandoned(other, before, started.landing)).toBe(other);
  });
});
