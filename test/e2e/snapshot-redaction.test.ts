// Redaction (SPEC §3) in real Chromium and Firefox: secret fields, the value cap, user selectors removing whole
// subtrees, an invalid selector failing the snapshot, and arguments that cannot switch any of it off.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { body, KINDS, launchSnapRig, strip, type SnapRig } from './snapshot-rig/rig.js';

const SECRETS = ['hunter2-secret', 'np-secret-1', 'cp-secret-2', 'otp-secret-3', '4111111111111111', '12-secret', 'Secret-Name'];
const PRIVATE = ['secret-h', 'secret-l', 'private-secret-link', 'private-secret-v', 'secret-t', 'Private'];

describe.each(KINDS)('redaction in %s', (kind) => {
  let rig: SnapRig;
  beforeAll(async () => {
    rig = await launchSnapRig(kind);
  });
  afterAll(async () => {
    await rig?.close();
  });
  afterEach(async () => {
    await rig.settings({});
  });

  it('never shows passwords, one-time codes or card fields, whatever the arguments say', async () => {
    const page = await rig.open('redaction.html');
    try {
      const hostileArgs = { max_chars: 200_000, redact: false, redaction: 'off', valueLimit: 100_000, query: 'secret' } as never;
      for (const args of [{}, { max_chars: 200_000 }, hostileArgs, { roles: ['textbox', 'combobox'] }]) {
        const r = await rig.snapshot(page, args);
        for (const s of SECRETS) expect(r.text).not.toContain(s);
      }
      const text = strip(body(await rig.snapshot(page)));
      for (const label of ['Password', 'New password', 'Current', 'Code', 'Card', 'Name on card']) {
        expect(text).toMatch(new RegExp(`(textbox) "${label}" \\[(type=password )?redacted\\] @h`));
      }
      expect(text).toContain('combobox "Expiry" [redacted] @h');
      expect(text).toContain('textbox "User" value="alice" @h');
    } finally {
      await page.close();
    }
  });

  it('caps ordinary values at 200 characters with a marker, and at the user\'s limit', async () => {
    const page = await rig.open('redaction.html');
    try {
      expect((await rig.snapshot(page)).text).toContain(`textbox "Bio" value="${'b'.repeat(200)}…(+100)"`);
      await rig.settings({ valueLimit: 20 });
      const r = await rig.snapshot(page, { max_chars: 200_000 });
      expect(r.text).toContain(`textbox "Bio" value="${'b'.repeat(20)}…(+280)"`);
    } finally {
      await page.close();
    }
  });

  it('removes whole subtrees matched by user selectors: names, text, values and links', async () => {
    const page = await rig.open('redaction.html');
    try {
      await rig.settings({ redactSelectors: ['.private', '#nothing-matches'] });
      const r = await rig.snapshot(page);
      for (const s of PRIVATE) expect(r.text).not.toContain(s);
      expect(r.text).toContain('\nredacted\n');
      expect(r.text).toContain('"Public text"');
      expect(r.text).toContain('link "Public link" /public');
      // Filters cannot bring it back.
      const q = await rig.snapshot(page, { query: 'private' });
      for (const s of PRIVATE) expect(q.text).not.toContain(s);
    } finally {
      await page.close();
    }
  });

  it('fails the snapshot, naming the selector, when a user selector is invalid', async () => {
    const page = await rig.open('redaction.html');
    try {
      await rig.settings({ redactSelectors: ['.private', 'div[[broken'] });
      const err = await rig.snapshotError(page);
      expect(err.code).toBe('invalid_argument');
      expect(err.message).toContain('div[[broken');
      expect(JSON.stringify(err)).not.toContain('secret');
    } finally {
      await page.close();
    }
  });

  it('applies user selectors inside frames too, and an invalid one fails a page with frames', async () => {
    const page = await rig.open('frames.html?b={b}');
    try {
      await rig.settings({ redactSelectors: ['a'] });
      const r = await rig.snapshot(page);
      expect(r.text).not.toContain('Child link');
      expect(r.text).toContain('Cross-origin heading');
      await rig.settings({ redactSelectors: ['::nope('] });
      expect((await rig.snapshotError(page)).code).toBe('invalid_argument');
    } finally {
      await page.close();
    }
  });
});
