// Actions report what changed, in real Chromium and Firefox through the real chain: an action's result carries the
// outline diff since the snapshot its client last saw (rows added, removed, changed), whose handles work at once; a
// change too large to show and a navigation give a one-line note instead; each client compares with what it saw
// itself; a client that saw nothing of the tab gets no diff. Fixture: test/fixtures/snapshot/action-changes.html.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, handleOf, type ToolCall } from './harness.js';
import { setPolicy } from './consent-helpers.js';
import { snapshotSession, type Snap, type SnapSession } from './snapshot-setup.js';

interface Changes {
  since: string;
  shown_as: 'diff' | 'note';
  snapshot?: string;
  changed: number;
  added: number;
  removed: number;
  reason?: string;
}

const changesOf = (r: ToolCall) => r.structured.changes as Changes | undefined;

/** The diff or note an action's text ends with (from its `changes since` line on). */
function changesText(r: ToolCall): string {
  const at = r.text.indexOf('\nchanges since ');
  return at < 0 ? '' : r.text.slice(at + 1);
}

describe.each(BROWSERS)('actions report what changed in %s', (kind) => {
  let s: SnapSession;
  beforeAll(async () => {
    s = await snapshotSession(kind);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function start(era: 'legacy' | 'modern' = 'legacy'): Promise<Snap> {
    await s.load('action-changes.html', era);
    return s.snapshot({}, era);
  }

  async function act(name: string, args: Record<string, unknown>, era: 'legacy' | 'modern' = 'legacy'): Promise<ToolCall> {
    const r = await s.tool(name, args, era);
    expect(r.isError, `${name}: ${r.text}`).toBe(false);
    return r;
  }

  it('shows the row a click added, whose handle works at once, then the row it removed', async () => {
    const snap = await start();
    const added = await act('click', { handle: handleOf(snap.text, /button "Add row"/) });
    const c = changesOf(added)!;
    expect(c).toMatchObject({ since: snap.snapshot, shown_as: 'diff', added: 2, removed: 0 });
    const diff = changesText(added);
    expect(diff.split('\n')[0]).toBe(`changes since ${snap.snapshot}, now snapshot=${c.snapshot}: ${c.changed} changed, 2 added, 0 removed`);
    expect(diff).toMatch(/^~ in list "Cart" @\S+, after @\S+:$/m);
    expect(diff).toContain('"Status: added 5"');
    expect(diff).not.toContain('Item 2');
    // The new row's button, from the diff alone: acting on it works, and its result shows the row gone.
    const remove = handleOf(diff, /button "Remove 5"/);
    const removed = await act('click', { handle: remove });
    expect(changesOf(removed)).toMatchObject({ since: c.snapshot, shown_as: 'diff', removed: 2 });
    expect(changesText(removed)).toContain(`@${remove}`);
    expect(changesText(removed)).toMatch(/^~ removed: .*@/m);
    expect(changesText(removed)).toContain('"Status: removed 5"');
    expect(await s.page.$$eval('#rows li', (l) => l.length)).toBe(5);
  });

  it('shows a typed value and a ticked checkbox as changed lines, and none when nothing changed', async () => {
    const snap = await start();
    const typed = await act('type', { handle: handleOf(snap.text, /textbox "Note"/), text: 'gift' });
    expect(changesOf(typed)).toMatchObject({ since: snap.snapshot, shown_as: 'diff', added: 0, removed: 0 });
    expect(changesText(typed)).toMatch(/^ *textbox "Note" value="gift"( \[focused\])? @\S+$/m);
    const ticked = await act('click', { handle: handleOf(snap.text, /checkbox "Item 1"/) });
    expect(changesOf(ticked)?.since).toBe(changesOf(typed)?.snapshot);
    expect(changesText(ticked)).toMatch(/checkbox "Item 1" \[checked( focused)?\] @/);
    // The field the typing focused lost its focus to the checkbox: that is all the diff says of it.
    expect(changesText(ticked)).toMatch(/^ *textbox "Note" value="gift" @\S+$/m);
    const again = await act('extract', { handle: handleOf(snap.text, /textbox "Note"/) });
    expect(changesOf(again)).toBeUndefined();
    const hovered = await act('hover', { handle: handleOf(snap.text, /heading "Cart"/) });
    expect(changesText(hovered)).toMatch(/^changes since \S+, now snapshot=\S+: (none|\d+ changed, 0 added, 0 removed)$/m);
  });

  it('shows what wait_for waited for', async () => {
    await start();
    // The page changes by itself (as its timers and pushes would): the wait's result shows what came.
    await s.page.evaluate(() => document.getElementById('add')!.click());
    const waited = await act('wait_for', { text: 'Status: added 5' });
    expect(changesOf(waited)).toMatchObject({ shown_as: 'diff', added: 2 });
    expect(changesText(waited)).toContain('button "Remove 5"');
  });

  it('shows a frame a click revealed with what it holds, as a snapshot since then does', async () => {
    const snap = await start();
    expect(snap.text).not.toContain('Inset');
    // The outline the client saw had no frame: the comparison's reading starts in the click's own exchange, meets
    // the frame, and must read it afresh with the frames introduced, not show it as a frame it cannot reach.
    const shown = await act('click', { handle: handleOf(snap.text, /button "Show inset"/) });
    const diff = changesText(shown);
    expect(changesOf(shown), shown.text).toMatchObject({ since: snap.snapshot, shown_as: 'diff' });
    expect(diff).toContain('button "Inside the inset"');
    expect(diff).not.toContain('not-loaded');
    // The same change as snapshot(since) shows it, hunk for hunk (handles and all).
    const since = await s.snapshot({ since: snap.snapshot });
    const hunks = (text: string) => text.split('\n').filter((l) => !/^(changes since|coverage:|page |note:)/.test(l));
    expect(hunks(diff)).toEqual(hunks(since.text));
  });

  it('gives a note instead of a change too large to show', async () => {
    const snap = await start();
    const many = await act('click', { handle: handleOf(snap.text, /button "Add many"/) });
    expect(changesOf(many)).toMatchObject({ since: snap.snapshot, shown_as: 'note', reason: 'too_large' });
    const note = changesText(many);
    expect(note.split('\n')).toHaveLength(1);
    expect(note).toMatch(new RegExp(`^changes since ${snap.snapshot}: not shown, the change is too large to show here \\(\\d+ characters of diff; up to 4000 are shown\\): take a snapshot`));
    expect(many.text.length).toBeLessThan(1_000);
    // The caller saw none of it: the next action still compares with the same snapshot.
    const next = await act('click', { handle: handleOf(snap.text, /checkbox "Item 0"/) });
    expect(changesOf(next)).toMatchObject({ since: snap.snapshot, reason: 'too_large' });
  });

  it('gives a note when the element the last snapshot was rooted at is gone, without saying nothing was done', async () => {
    const snap = await start();
    const button = handleOf(snap.text, /button "Remove 1"/);
    const rooted = await s.snapshot({ root: button });
    const gone = await act('click', { handle: button });
    expect(changesOf(gone)).toMatchObject({ since: rooted.snapshot, shown_as: 'note', reason: 'not_read' });
    expect(changesText(gone)).toContain(`the element the last snapshot was rooted at (${button}) is gone from the page: take a snapshot`);
    expect(gone.text).not.toMatch(/Nothing was done/);
    expect(await s.page.$$eval('#rows li', (l) => l.length)).toBe(4);
  });

  it('gives a note when the action navigates, and after it', async () => {
    const snap = await start();
    const clicked = await act('click', { handle: handleOf(snap.text, /link "Elsewhere"/) });
    expect(changesOf(clicked), clicked.text).toMatchObject({ since: snap.snapshot, shown_as: 'note' });
    expect(['navigating', 'new_document']).toContain(changesOf(clicked)?.reason);
    expect(changesText(clicked)).toMatch(/take a snapshot/);
    // The next action on the new page: its document is not the one the client saw.
    await s.page.waitForFunction(() => location.pathname.endsWith('/basic.html') && document.readyState === 'complete');
    const typed = await act('type', { selector: 'input[type=search]', text: 'pens' });
    expect(changesOf(typed), typed.text).toMatchObject({ since: snap.snapshot, shown_as: 'note', reason: 'new_document' });
    expect(changesText(typed)).toMatch(/^changes since \S+: not shown, the tab now shows another document \(doc=\S+\): take a snapshot/);
  });

  it('compares each client with what that client saw', async () => {
    const mine = await start('legacy');
    const theirs = await s.snapshot({}, 'modern');
    expect(theirs.snapshot).not.toBe(mine.snapshot);
    const first = await act('click', { handle: handleOf(mine.text, /button "Add row"/) }, 'legacy');
    expect(changesOf(first)?.since).toBe(mine.snapshot);
    // The other client never saw the row the first one added: its action shows it, against its own snapshot.
    const second = await act('click', { handle: handleOf(theirs.text, /checkbox "Item 3"/) }, 'modern');
    expect(changesOf(second)).toMatchObject({ since: theirs.snapshot, shown_as: 'diff', added: 2 });
    expect(changesText(second)).toContain('button "Remove 5"');
    // The first client saw that row already: its next diff has only the checkbox the other ticked.
    const third = await act('click', { handle: handleOf(mine.text, /checkbox "Item 4"/) }, 'legacy');
    expect(changesOf(third)).toMatchObject({ since: changesOf(first)?.snapshot, added: 0, removed: 0 });
    expect(changesText(third)).toMatch(/checkbox "Item 3" \[checked\]/);
    expect(changesText(third)).not.toContain('Remove 5');
  });

  it('shows no changes where the person switched snapshot off', async () => {
    const snap = await start();
    await setPolicy(s.rig, { disabled: ['snapshot'] });
    try {
      const r = await act('click', { handle: handleOf(snap.text, /button "Add row"/) });
      expect(changesOf(r)).toBeUndefined();
      expect(r.text).not.toContain('changes since');
    } finally {
      await setPolicy(s.rig, { disabled: [] });
    }
  });

  it('adds nothing for a client that took no snapshot of the tab', async () => {
    await start();
    const fresh = await s.rig.client('legacy', 'action-changes-fresh');
    try {
      const r = (await fresh.callTool({ name: 'click', arguments: { session: s.session, selector: '#add' } })) as { structuredContent?: Record<string, unknown>; content?: Array<{ text?: string }> };
      expect(r.structuredContent?.changes).toBeUndefined();
      expect(r.content?.[0]?.text).not.toContain('changes since');
    } finally {
      await fresh.close();
    }
  });
});
