// Redaction in the action tools (docs/redaction.md) through MCP in real Chromium and Firefox: the user's selectors (written
// through the options page) remove subtrees from extract, extract_rows, wait_for, click and type as they do from the
// snapshot; secret fields leak neither through an ancestor's markup nor through selectors that probe `value`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './harness.js';
import { actionsRig, type ActionsRig } from './actions-setup.js';

const API_KEY = 'sk-live-12345';
const FIELD_SECRETS = ['hunter2', '123456', '4111111111111111'];

describe.each(BROWSERS)('redaction in the action tools in %s', (kind) => {
  let t: ActionsRig;
  /** Saves redaction selectors through the options page, then returns to the shared tab. */
  const redact = async (selectors: string[], direct = false) => {
    expect(await t.rig.setRedaction(selectors, 200, { direct })).toMatch(/Saved|Stored/);
    await t.page.bringToFront();
  };

  beforeAll(async () => {
    t = await actionsRig(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    await redact([]);
  });

  it('user selectors remove subtrees from extract, extract_rows and wait_for, as from the snapshot (legacy era)', async () => {
    await t.load('redact.html');
    // Without the setting the key is readable: the fixture really holds it.
    expect((await t.tool('extract', { selector: '#s' })).structured.value).toContain(API_KEY);
    await redact(['.secret']);
    expect((await t.tool('snapshot')).text).not.toContain(API_KEY);

    // The element itself does not exist for selectors; by handle it is refused.
    const direct = await t.tool('extract', { selector: '#s' });
    expect(direct.error?.code).toBe('not_actionable');
    expect(direct.text).not.toContain(API_KEY);

    const wrapText = await t.tool('extract', { selector: '#wrap' });
    expect(wrapText.isError, wrapText.text).toBe(false);
    expect(wrapText.structured.value).toMatch(/Account[\s\S]*public/);
    for (const name of ['innerHTML', 'outerHTML', 'textContent', 'innerText', 'outerText']) {
      const r = await t.tool('extract', { selector: '#wrap', what: 'property', name });
      expect(r.isError, `${name}: ${r.text}`).toBe(false);
      expect(r.structured.value, name).toContain('public');
      expect(r.text, name).not.toContain(API_KEY);
      expect(r.text, name).not.toContain('API key');
    }
    // Markup keeps the rest of the subtree and marks the cut.
    expect((await t.tool('extract', { selector: '#wrap', what: 'property', name: 'innerHTML' })).structured.value).toBe('<h2>Account</h2><!--redacted--><p>public</p>');

    const rows = await t.tool('extract_rows', { selector: '#wrap > *', columns: { t: '' } });
    expect(rows.isError, rows.text).toBe(false);
    expect(rows.structured.rows).toEqual([{ t: 'Account' }, { t: 'public' }]);
    const cells = await t.tool('extract_rows', { selector: '#wrap', columns: { t: 'p' } });
    expect(cells.structured.rows).toEqual([{ t: 'public' }]);

    // wait_for is not an oracle: redacted text and selectors never appear, even when they arrive later.
    const [byText, late, bySelector, lateSelector, publicLate] = await Promise.all([
      t.tool('wait_for', { text: API_KEY, timeout_ms: 600 }),
      t.tool('wait_for', { text: 'tk-999', state: 'attached', timeout_ms: 800 }),
      t.tool('wait_for', { selector: '#s', state: 'attached', timeout_ms: 600 }),
      t.tool('wait_for', { selector: '#later .secret', state: 'attached', timeout_ms: 800 }),
      t.tool('wait_for', { text: 'late public', timeout_ms: 5000 }),
    ]);
    for (const r of [byText, late, bySelector, lateSelector]) expect(r.error?.code, r.text).toBe('timeout');
    expect(publicLate.isError, publicLate.text).toBe(false);
    // A handle to the subtree is refused (one reached through a property reads as redacted, not as a handle).
    const child = await t.tool('extract', { selector: '#wrap', what: 'property', name: 'children' });
    expect(child.structured.value).toEqual([{ handle: expect.any(String) }, { redacted: true }, { handle: expect.any(String) }]);
  });

  it('click and type by selector do not find removed elements, and an invalid user selector fails every action (modern era)', async () => {
    await t.load('redact.html');
    await redact(['.secret']);
    const click = await t.tool('click', { selector: '#s', timeout_ms: 300 }, t.modern);
    expect(click.error?.code).toBe('not_actionable');
    expect(click.text).not.toContain(API_KEY);
    const type = await t.tool('type', { selector: '#s', text: 'x', timeout_ms: 300 }, t.modern);
    expect(type.error?.code).toBe('not_actionable');

    // Stored without the form's checks: the call fails rather than act unredacted.
    await redact(['.secret', 'p[', '[unclosed'], true);
    for (const [name, args] of [
      ['extract', { selector: '#wrap' }],
      ['extract_rows', { selector: '#wrap > *' }],
      ['wait_for', { text: 'public', timeout_ms: 500 }],
      ['click', { selector: 'h2', timeout_ms: 300 }],
    ] as const) {
      const r = await t.tool(name, args, t.modern);
      expect(r.error?.code, `${name}: ${r.text}`).toBe('invalid_argument');
      expect(r.text).not.toContain(API_KEY);
    }
  });

  it("secret fields: an ancestor's markup and text hide their values; selectors may not probe value; typing still works (legacy era)", async () => {
    await t.load('redact.html');
    for (const name of ['outerHTML', 'innerHTML', 'textContent', 'innerText']) {
      const r = await t.tool('extract', { selector: 'form', what: 'property', name });
      expect(r.isError, `${name}: ${r.text}`).toBe(false);
      for (const secret of FIELD_SECRETS) expect(r.text, `${name} leaks ${secret}`).not.toContain(secret);
    }
    expect((await t.tool('extract', { selector: 'form', what: 'property', name: 'outerHTML' })).structured.value).toContain('type="password"');

    // The character-by-character oracle is closed: any selector on the value attribute is refused, however spelled.
    for (const selector of [
      'input[value^="hunter"]',
      'input[value^="zzz"]',
      'input[ VALUE^=hunter]',
      'input[*|value^=hunter]',
      'input[v\\61lue^=hunter]',
      'input[/* */value^=hunter]',
      'form:has([value*="4111"])',
    ]) {
      const r = await t.tool('wait_for', { selector, state: 'attached', timeout_ms: 300 });
      expect(r.error?.code, selector).toBe('invalid_argument');
      expect(r.error?.message).toMatch(/handle/);
    }
    expect((await t.tool('extract_rows', { selector: 'form', columns: { v: 'input[value^="h"]' } })).error?.code).toBe('invalid_argument');
    expect((await t.tool('click', { selector: 'input[value="hunter2"]', timeout_ms: 300 })).error?.code).toBe('invalid_argument');

    // Typing into the password field by handle is acting, not reading: it works and echoes nothing.
    const pw = await t.handle('#p');
    const typed = await t.tool('type', { handle: pw, text: 'correct horse' });
    expect(typed.isError, typed.text).toBe(false);
    expect(typed.structured).toMatchObject({ handle: pw, redacted: true });
    expect(typed.text).not.toContain('correct horse');
    expect(await t.page.$eval('#p', (el) => (el as HTMLInputElement).value)).toBe('correct horse');
    // The typed value does not leak through the form's text either.
    const after = await t.tool('extract', { selector: 'form', what: 'property', name: 'outerHTML' });
    expect(after.text).not.toContain('correct horse');
  });
});
