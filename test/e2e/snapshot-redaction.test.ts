// Redaction (docs/redaction.md) in real Chromium and Firefox, through the real chain (shared tab, native messaging, hub,
// `oriel mcp`, official MCP client in both eras): secret fields, the value cap, user selectors removing whole subtrees,
// an invalid selector failing the snapshot, and arguments that cannot switch any of it off. The user's settings are
// written through the options page's form, as a person would.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './harness.js';
import { body, snapshotSession, strip, type SnapSession } from './snapshot-setup.js';

const SECRETS = ['hunter2-secret', 'np-secret-1', 'cp-secret-2', 'otp-secret-3', '4111111111111111', '12-secret', 'Secret-Name'];
const PRIVATE = ['secret-h', 'secret-l', 'private-secret-link', 'private-secret-v', 'secret-t', 'Private'];

describe.each(BROWSERS)('redaction in %s', (kind) => {
  let s: SnapSession;
  /** Saves the user's redaction settings in the options page, then returns to the shared tab. */
  const settings = async (selectors: string[], limit = 200): Promise<void> => {
    expect(await s.rig.setRedaction(selectors, limit)).toBe('Saved.');
    await s.page.bringToFront();
  };
  beforeAll(async () => {
    s = await snapshotSession(kind);
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(async () => {
    await settings([]);
  });

  it('never shows passwords, one-time codes or card fields, whatever the arguments say (legacy era)', async () => {
    await s.load('redaction.html', 'legacy');
    const hostileArgs = { max_chars: 200_000, redact: false, redaction: 'off', valueLimit: 100_000, query: 'secret' };
    for (const args of [{}, { max_chars: 200_000 }, { query: 'secret' }, { roles: ['textbox', 'combobox'] }, { interactive_only: true }]) {
      const r = await s.snapshot(args, 'legacy');
      for (const secret of SECRETS) expect(r.text).not.toContain(secret);
    }
    // Arguments the tool does not define are refused outright, and the refusal quotes no page content.
    const refused = await s.tool('snapshot', hostileArgs, 'legacy');
    expect(refused.isError).toBe(true);
    expect(refused.error?.code).toBe('invalid_argument');
    for (const unknown of ['redact', 'redaction', 'valueLimit']) expect(refused.error?.message).toContain(`"${unknown}"`);
    for (const secret of SECRETS) expect(refused.text).not.toContain(secret);
    const text = strip(body(await s.snapshot({}, 'legacy')));
    for (const label of ['Password', 'New password', 'Current', 'Code', 'Card', 'Name on card']) {
      expect(text).toMatch(new RegExp(`(textbox) "${label}" \\[(type=password )?redacted\\] @h`));
    }
    expect(text).toContain('combobox "Expiry" [redacted] @h');
    expect(text).toContain('textbox "User" value="alice" @h');
  });

  it("caps ordinary values at 200 characters with a marker, and at the user's limit (modern era)", async () => {
    await s.load('redaction.html', 'modern');
    expect((await s.snapshot({}, 'modern')).text).toContain(`textbox "Bio" value="${'b'.repeat(200)}…(+100)"`);
    await settings([], 20);
    const r = await s.snapshot({ max_chars: 200_000 }, 'modern');
    expect(r.text).toContain(`textbox "Bio" value="${'b'.repeat(20)}…(+280)"`);
    // The full value stays readable through extract.
    const bio = await s.tool('extract', { selector: '#bio', what: 'value' }, 'modern');
    expect(bio.structured.value).toBe('b'.repeat(300));
    // A limit of 0 means the user wants no values shown, only how long they are.
    await settings([], 0);
    const none = await s.snapshot({ max_chars: 200_000 }, 'modern');
    expect(none.text).toContain('textbox "Bio" value="…(+300)"');
    expect(none.text).not.toContain('value="alice"');
  });

  it('fails closed when the stored redaction list cannot be read (modern era)', async () => {
    await s.load('redaction.html', 'modern');
    // One selector longer than the options page allows, stored behind the form's back.
    await s.rig.setRedaction(['.private', 'x'.repeat(1001)], 200, { direct: true });
    await s.page.bringToFront();
    expect((await s.snapshotError({}, 'modern')).code).toBe('invalid_argument');
    const read = await s.tool('extract', { selector: 'main' }, 'modern');
    expect(read.error?.code).toBe('invalid_argument');
    expect(JSON.stringify(read)).not.toContain('secret');
    await settings([]);
  });

  it('removes whole subtrees matched by user selectors: names, text, values and links (legacy era)', async () => {
    await s.load('redaction.html', 'legacy');
    await settings(['.private', '#nothing-matches']);
    const r = await s.snapshot({}, 'legacy');
    for (const p of PRIVATE) expect(r.text).not.toContain(p);
    expect(r.text).toContain('\nredacted\n');
    expect(r.text).toContain('"Public text"');
    expect(r.text).toContain('link "Public link" /public');
    // Filters cannot bring it back.
    for (const args of [{ query: 'private' }, { roles: ['link', 'heading', 'textbox'] }, { interactive_only: true }]) {
      const q = await s.snapshot(args, 'legacy');
      for (const p of PRIVATE) expect(q.text).not.toContain(p);
    }
  });

  it('removes what a user selector comes to match by a class or data attribute no style sheet names, after a snapshot (legacy era)', async () => {
    // Such a change restyles nothing, so a warm snapshot keeps what it read before it unless a user selector names it
    // (docs/architecture.md, "Warm snapshots").
    await s.load('redaction.html', 'legacy');
    await settings(['.later-private', '[data-later]']);
    const before = await s.snapshot({ max_chars: 200_000 }, 'legacy');
    expect(before.text).toContain('"Public text"');
    expect(before.text).toContain('link "Public link" /public');
    await s.page.evaluate(() => {
      document.querySelector('#other p')!.classList.add('later-private');
      document.querySelector('#other a')!.setAttribute('data-later', '');
    });
    const after = await s.snapshot({ max_chars: 200_000 }, 'legacy');
    expect(after.text).not.toContain('Public text');
    expect(after.text).not.toContain('Public link');
    await s.page.evaluate(() => document.querySelector('#other p')!.classList.remove('later-private'));
    const back = await s.snapshot({ max_chars: 200_000 }, 'legacy');
    expect(back.text).toContain('"Public text"');
    expect(back.text).not.toContain('Public link');
  });

  it('fails the snapshot, naming the selector, when a user selector is invalid (modern era)', async () => {
    await s.load('redaction.html', 'modern');
    // The options page refuses to save it …
    expect(await s.rig.setRedaction(['.private', 'div[[broken'])).toBe('Not a valid CSS selector: div[[broken');
    await s.page.bringToFront();
    expect((await s.snapshot({}, 'modern')).text).toContain('heading "Private heading secret-h"');
    // … and should one be stored all the same (settings the form did not write), the snapshot fails instead of
    // returning unredacted content.
    await s.rig.setRedaction(['.private', 'div[[broken'], 200, { direct: true });
    await s.page.bringToFront();
    const err = await s.snapshotError({}, 'modern');
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toContain('div[[broken');
    expect(JSON.stringify(err)).not.toContain('secret');
  });

  it('a field that becomes secret by its name after a snapshot, or a secret field that arrives then, lends its value to no name that embeds it (legacy era)', async () => {
    // A page with no secret field: the first snapshot finds none (what it found is kept until the page changes).
    await s.load('basic.html', 'legacy');
    await s.page.evaluate(() => {
      const main = document.querySelector('main') ?? document.body;
      main.insertAdjacentHTML('beforeend', '<input id="later-card" value="later-card-4111"><button aria-labelledby="later-card">Pay</button>');
    });
    // A plain field that a button's name embeds: its value shows, until the page names the field as a card number.
    expect((await s.snapshot({ max_chars: 200_000 }, 'legacy')).text).toContain('button "later-card-4111"');
    await s.page.evaluate(() => document.getElementById('later-card')!.setAttribute('name', 'cc-number'));
    expect((await s.snapshot({ max_chars: 200_000 }, 'legacy')).text).not.toContain('later-card-4111');
    await s.page.evaluate(() => {
      const main = document.querySelector('main') ?? document.body;
      main.insertAdjacentHTML('beforeend', '<input type="password" id="later-pw" value="later-secret-1"><button aria-labelledby="later-pw">Go</button>');
    });
    const added = await s.snapshot({ max_chars: 200_000 }, 'legacy');
    expect(added.text).toMatch(/textbox \[type=password redacted\] @/);
    expect(added.text).not.toContain('later-secret-1');
  });

  it('applies user selectors inside frames too, and an invalid one fails a page with frames (modern era)', async () => {
    await s.load('frames.html?b={b}', 'modern');
    await settings(['a']);
    const r = await s.snapshot({}, 'modern');
    expect(r.text).not.toContain('Child link');
    expect(r.text).toContain('Cross-origin heading');
    await s.rig.setRedaction(['::nope('], 200, { direct: true });
    await s.page.bringToFront();
    expect((await s.snapshotError({}, 'modern')).code).toBe('invalid_argument');
  });

  // Each selector is valid on its own, so the options page saves them; joined with "," CSS would close the
  // unterminated string at the end (`a[title="x,.private` is one attribute selector) and `.private` would stop
  // redacting. The walker matches each selector on its own.
  it('keeps every selector in force when another one is unterminated (legacy era)', async () => {
    await s.load('redaction.html', 'legacy');
    expect(await s.rig.setRedaction(['a[title="x', '.private'])).toBe('Saved.');
    await s.page.bringToFront();
    const r = await s.snapshot({}, 'legacy');
    for (const p of PRIVATE) expect(r.text).not.toContain(p);
  });
});
