// The trail navigate's back and forward move along (extension/background/ops/nav-trail.ts): pure transitions.
import { describe, expect, it } from 'vitest';
import { MAX_TRAIL, observe, stepped, stepTarget, visit, type NavTrail } from '../../extension/background/ops/nav-trail.js';

const empty: NavTrail = { entries: [], index: -1 };
const u = (q: string) => `https://a.test/${q}`;

describe('navigation trail', () => {
  it('records pages as a browser history would, and steps along them', () => {
    let t = observe(empty, u('start'));
    t = visit(visit(t, u('a')), u('b'));
    expect(t).toEqual({ entries: [u('start'), u('a'), u('b')], index: 2 });
    expect(stepTarget(t, 1)).toBeUndefined();
    t = stepped(t, -1, u('a'));
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

  it('keeps the landing page after a redirect, and at most MAX_TRAIL pages', () => {
    const t = stepped(visit(visit(empty, u('a')), u('b')), -1, u('a-after-redirect'));
    expect(t.entries).toEqual([u('a-after-redirect'), u('b')]);
    let long = empty;
    for (let i = 0; i < MAX_TRAIL + 10; i++) long = visit(long, u(String(i)));
    expect(long.entries).toHaveLength(MAX_TRAIL);
    expect(long.entries[0]).toBe(u('10'));
    expect(long.index).toBe(MAX_TRAIL - 1);
  });
});
