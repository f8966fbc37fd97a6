// Incremental snapshots in real Chromium and Firefox through the real chain: after an action, snapshot(since=<id>)
// gives only what changed — changed, added and removed parts keyed by handles, in the outline's notation — after a
// click, after type, deep inside a closed shadow root and inside a cross-origin frame; a new document gives the whole
// outline. The diff is a small part of the outline when one row changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, handleOf } from './harness.js';
import { answerPrompt } from './consent-helpers.js';
import { body, snapshotSession, type Snap, type SnapSession } from './snapshot-setup.js';

describe.each(BROWSERS)('changes since a snapshot in %s', (kind) => {
  let s: SnapSession;
  beforeAll(async () => {
    s = await snapshotSession(kind);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Loads the fixture and takes the first, whole snapshot. */
  async function start(): Promise<Snap> {
    await s.load('changes.html?b={b}');
    const full = await s.snapshot({ max_chars: 200_000 });
    expect(full.coverage.read_all).toBe(true);
    expect(full.cursor).toBeUndefined();
    return full;
  }

  it('shows the row a click changed, and only that, in a small part of the outline', async () => {
    const full = await start();
    const box = handleOf(full.text, /checkbox "Row 3"/);
    expect((await s.tool('click', { handle: box })).isError).toBe(false);
    const d = await s.snapshot({ since: full.snapshot });
    expect(d.changes).toMatchObject({ since: full.snapshot, shown_as: 'diff', changed: 1, added: 0, removed: 0 });
    expect(d.text.split('\n')[1]).toBe(`changes since ${full.snapshot}: 1 changed, 0 added, 0 removed`);
    // The row's unit: the list item holding the checkbox, and the checkbox (the button is unchanged).
    expect(d.text).toMatch(new RegExp(`^~ in list @\\S+, after @\\S+:\\n listitem\\n  checkbox "Row 3" \\[checked( focused)?\\] @${box.replace('.', '\\.')}$`, 'm'));
    expect(d.text).not.toContain('Row 4');
    expect(d.text.length).toBeLessThan(full.text.length * 0.1);
    // Nothing changed since the diff: an empty one.
    const again = await s.snapshot({ since: d.snapshot });
    expect(again.text.split('\n')[1]).toBe(`changes since ${d.snapshot}: none`);
  });

  it('shows a typed value, and lists the handles of removed rows', async () => {
    const full = await start();
    expect((await s.tool('type', { handle: handleOf(full.text, /textbox "Note"/), text: 'hello' })).isError).toBe(false);
    expect((await s.tool('click', { handle: handleOf(full.text, /button "Remove 5"/) })).isError).toBe(false);
    const d = await s.snapshot({ since: full.snapshot });
    expect(d.changes?.shown_as).toBe('diff');
    expect(d.text).toMatch(/^ textbox "Note" value="hello"( \[focused\])? @\S+$/m);
    expect(d.text).toContain(`~ removed: @${handleOf(full.text, /checkbox "Row 5"/)} @${handleOf(full.text, /button "Remove 5"/)}`);
    expect(d.text).not.toContain('"Price 5.00"');
  });

  it('shows a change deep in a closed shadow root', async () => {
    const full = await start();
    expect(full.text).toContain('"Deep state: off"');
    expect((await s.tool('click', { handle: handleOf(full.text, /button "Deep toggle"/) })).isError).toBe(false);
    const d = await s.snapshot({ since: full.snapshot });
    expect(d.changes).toMatchObject({ shown_as: 'diff', added: 0, removed: 0 });
    expect(d.text).toContain('"Deep state: on"');
    expect(d.text).not.toContain('Row 1');
  });

  it('shows a change inside a cross-origin frame, placed under its frame', async () => {
    const full = await start();
    const toggle = handleOf(full.text, /button "Frame toggle"/);
    expect(toggle.split('.')[0]).not.toBe(full.document);
    // Acting in a frame of another origin asks the person first: answer once, as they would in the popup.
    const [clicked] = await Promise.all([s.tool('click', { handle: toggle }), answerPrompt(s.rig, { capability: 'act', origin: s.b }, 'allow_once', s.page)]);
    expect(clicked.isError, clicked.text).toBe(false);
    const d = await s.snapshot({ since: full.snapshot });
    expect(d.changes?.shown_as).toBe('diff');
    // The frame's text changed: its iframe line shows where, the text under it is the change.
    expect(d.text).toMatch(/^~ at the top level, after @\S+:\n iframe "Other origin" @\S+\n  "Frame state: on"$/m);
    expect(d.text).not.toContain('Row 1');
  });

  it('gives the whole outline for a new document, an unknown snapshot, or other filters', async () => {
    const full = await start();
    await s.load('basic.html');
    const d = await s.snapshot({ since: full.snapshot });
    expect(d.changes).toMatchObject({ since: full.snapshot, shown_as: 'outline', reason: 'a new document is shown' });
    expect(d.text.split('\n')[1]).toBe(`changes since ${full.snapshot}: the whole outline follows (a new document is shown)`);
    expect(body(d)).toContain('heading "Search results"');
    const unknown = await s.snapshot({ since: 'szzzzzzzz' });
    expect(unknown.changes?.shown_as).toBe('outline');
    expect(unknown.changes?.reason).toMatch(/not held/);
    const filtered = await s.snapshot({ since: d.snapshot, roles: ['button'] });
    expect(filtered.changes?.reason).toMatch(/other root, query, roles/);
    const err = await s.snapshotError({ since: d.snapshot, cursor: `${d.snapshot}~1~~0~abc` });
    expect(err.code).toBe('invalid_argument');
  });
});
