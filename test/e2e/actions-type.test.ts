// type through MCP in real browsers (docs/tools.md; docs/architecture.md, "Input"): key-by-key events, clear/append, maxlength, selects by
// label or value with disabled options refused, contenteditable, Enter as implicit submission, redaction of the echo,
// and React, Vue and Angular controlled fields ending up with the value in the framework's own state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './harness.js';
import { actionsRig, textOf, type ActionsRig } from './actions-setup.js';

describe.each(BROWSERS)('type in %s', (kind) => {
  let t: ActionsRig;

  beforeAll(async () => {
    t = await actionsRig(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('clears, then types key by key in a person\'s event order', async () => {
    await t.load('type.html');
    const r = await t.tool('type', { handle: await t.handle('#user'), text: 'ab' });
    expect(r.structured).toMatchObject({ value: 'ab', submitted: false, trusted: false });
    const events = await t.page.evaluate(() => (window as unknown as { userEvents: string[] }).userEvents);
    expect(events).toEqual([
      'beforeinput:deleteContentBackward', 'input:deleteContentBackward',
      'keydown:a', 'keypress:a', 'beforeinput:insertText', 'input:insertText', 'keyup:a',
      'keydown:b', 'keypress:b', 'beforeinput:insertText', 'input:insertText', 'keyup:b',
      'change',
    ]);
  });

  it('appends with clear:false, stops at maxlength, sets picker inputs whole', async () => {
    await t.load('type.html');
    expect((await t.tool('type', { selector: '#bio', text: '\nline two', clear: false })).structured.value).toBe('line one\nline two');
    expect((await t.tool('type', { selector: '#short', text: 'abcdefgh' })).structured.value).toBe('abcde');
    expect((await t.tool('type', { selector: '#when', text: '2024-02-29' })).structured.value).toBe('2024-02-29');
    const bad = await t.tool('type', { selector: '#when', text: 'tomorrow' });
    expect(bad.error?.code).toBe('invalid_argument');
  });

  it('number inputs hold decimals, negatives and exponents typed key by key; text that is no number is refused', async () => {
    await t.load('type.html');
    for (const text of ['0.25', '3.5', '-7', '10.0', '1e3', '-3.5', '.5']) {
      const r = await t.tool('type', { selector: '#num', text });
      expect(r.structured?.value, `${text}: ${r.text}`).toBe(text);
      expect(await t.page.$eval('#num', (el) => (el as HTMLInputElement).value)).toBe(text);
    }
    // The page saw an input event per key, then one change, as for a person's typing.
    const events = await t.page.evaluate(() => (window as unknown as { numInputs: (string | null)[] }).numInputs.slice(-4));
    expect(events).toEqual([null, '.', '5', 'change:.5']);
    // Appending continues the number.
    await t.tool('type', { selector: '#num', text: '3' });
    expect((await t.tool('type', { selector: '#num', text: '.75', clear: false })).structured.value).toBe('3.75');
    for (const text of ['12abc', '1.2.3', '--1']) {
      const bad = await t.tool('type', { selector: '#num', text });
      expect(bad.error?.code, `${text}: ${bad.text}`).toBe('invalid_argument');
      expect(bad.text).toContain('not a valid value for this <input type="number">');
    }
    expect(await t.page.$eval('#num', (el) => (el as HTMLInputElement).value)).toBe('3.75');
    // Keys pressed one by one build the number up as well.
    await t.tool('type', { selector: '#num', text: '0' });
    for (const key of ['.', '5']) await t.tool('press_key', { key });
    expect(await t.page.$eval('#num', (el) => (el as HTMLInputElement).value)).toBe('0.5');
    // An email input keeps an inner space that was, for one key, a trailing one.
    expect((await t.tool('type', { selector: '#mail', text: 'a b@example.com' })).structured.value).toBe('a b@example.com');
  });

  it('a tab in text stays in the field; keys that went to another field are counted; Backspace on a selection says so', async () => {
    await t.load('type.html');
    const r = await t.tool('type', { selector: '#user', text: 'abc\tdef' });
    expect(r.structured).toMatchObject({ value: 'abc\tdef' });
    expect(r.structured.elsewhere).toBeUndefined();
    expect(await t.page.evaluate(() => document.activeElement?.id)).toBe('user');
    const code = await t.tool('type', { selector: '#code-a', text: '12' });
    expect(code.structured).toMatchObject({ value: '1', elsewhere: 1 });
    expect(code.text).toContain('1 typed character went to other elements');
    expect(await t.page.$eval('#code-b', (el) => (el as HTMLInputElement).value)).toBe('2');
    await t.tool('type', { selector: '#user', text: 'hello' });
    await t.tool('press_key', { key: 'Control+A' });
    const del = await t.tool('press_key', { key: 'Backspace' });
    expect(del.text).toContain('deleted the selected text');
    expect(await t.page.$eval('#user', (el) => (el as HTMLInputElement).value)).toBe('');
    await t.tool('type', { selector: '#user', text: 'hi', clear: true });
    expect((await t.tool('press_key', { key: 'Backspace' })).text).toContain('deleted a character before the caret');
  });

  it('submit: Enter clicks the default button, submits a one-field form, or is taken by the page', async () => {
    await t.load('type.html');
    const login = await t.tool('type', { selector: '#user', text: 'bob', submit: true });
    expect(login.structured).toMatchObject({ submitted: true, value: 'bob' });
    const chat = await t.tool('type', { selector: '#chat', text: 'hi', submit: true });
    expect(chat.structured.submitted).toBe(true);
    const two = await t.tool('type', { selector: '#two-a', text: 'x', submit: true });
    expect(two.structured.submitted).toBe(false);
    expect(await textOf(t.page, '#log')).toContain('login:bob\nchat sent:hi\n');
    expect(await textOf(t.page, '#log')).not.toContain('two submitted');
    const search = await t.tool('type', { selector: '#q', text: 'kb', submit: true });
    expect(search.structured).toMatchObject({ submitted: true, navigation_started: true });
    await t.page.waitForFunction(() => location.search === '?q=kb');
  });

  it('never echoes redacted fields', async () => {
    await t.load('type.html');
    const pw = await t.tool('type', { selector: '#pw', text: 'secret' });
    expect(pw.structured.redacted).toBe(true);
    expect(JSON.stringify(pw.structured) + pw.text).not.toContain('secret');
    const card = await t.tool('type', { selector: '#card', text: '4111' });
    expect(card.structured.redacted).toBe(true);
    expect(await t.page.$eval('#pw', (el) => (el as HTMLInputElement).value)).toBe('secret');
  });

  it('contenteditable: replaces the text through editing commands', async () => {
    await t.load('type.html');
    const r = await t.tool('type', { selector: '#editor', text: 'New text' });
    expect(r.structured.value).toBe('New text');
    expect(await textOf(t.page, '#editor')).toBe('New text');
    expect(await textOf(t.page, '#log')).toContain('editor input:insertText');
  });

  it('select: by label or value; disabled options and options of disabled optgroups refused; unknown option listed', async () => {
    await t.load('type.html');
    expect((await t.tool('type', { selector: '#fruit', text: 'Lemon' })).structured.value).toBe('Lemon');
    expect((await t.tool('type', { selector: '#fruit', text: 'ba' })).structured.value).toBe('Banana');
    expect(await textOf(t.page, '#log')).toContain('fruit:le\nfruit:ba\n');
    for (const text of ['Apple', 'Durian']) {
      const r = await t.tool('type', { selector: '#fruit', text });
      expect(r.error?.code).toBe('not_actionable');
      expect(r.error?.message).toContain('disabled');
    }
    const none = await t.tool('type', { selector: '#fruit', text: 'Kiwi' });
    expect(none.error?.code).toBe('invalid_argument');
    expect(none.error?.message).toContain('"Banana"');
  });

  it('not_actionable for read-only, disabled, hidden and non-editable targets', async () => {
    await t.load('type.html');
    const cases: Array<[string, RegExp]> = [
      ['#ro', /read-only/],
      ['#dis', /disabled/],
      ['#hidden-field', /not visible/],
      ['#check', /not editable.*use click/],
      ['#plain', /not editable/],
    ];
    for (const [selector, reason] of cases) {
      const r = await t.tool('type', { selector, text: 'x', timeout_ms: 0 });
      expect(r.error?.code, selector).toBe('not_actionable');
      expect(r.error?.message).toMatch(reason);
    }
    const doc = await t.load('type.html?fresh');
    expect((await t.tool('type', { handle: `${doc}.1`, text: 'x' })).error?.code).toBe('no_snapshot');
    const h = await t.handle('#user');
    expect((await t.tool('type', { handle: `${doc}.99`, text: 'x' })).error?.code).toBe('unknown_handle');
    await t.page.evaluate(() => document.getElementById('user')!.remove());
    expect((await t.tool('type', { handle: h, text: 'x' })).error?.code).toBe('detached');
    expect((await t.tool('type', { selector: 'input', text: 'x' })).error?.code).toBe('invalid_argument');
  });

  for (const app of ['react', 'vue', 'angular'] as const) {
    it(`${app}: controlled input and select hold the typed value in ${app}'s own state`, async () => {
      await t.load(`app.html?app=${app}`);
      await t.tool('wait_for', { selector: '#name' });
      await t.tool('type', { selector: '#name', text: 'ada' });
      await t.tool('type', { selector: '#size', text: 'Large' }, t.modern);
      // The framework renders its state into #state: the value went through its change handling.
      const expected = app === 'react' ? { name: 'ADA', bio: 'start', size: 'l' } : { name: 'ada', size: 'l' };
      await t.page.waitForFunction((want) => document.getElementById('state')?.textContent === want, { timeout: 30_000 }, JSON.stringify(expected));
      const sent = await t.tool('type', { selector: '#name', text: 'lovelace', submit: true });
      expect(sent.structured.submitted).toBe(true);
      const want = app === 'react' ? 'LOVELACE|l' : 'lovelace|l';
      await t.page.waitForFunction((w) => document.getElementById('submitted')?.textContent === w, { timeout: 30_000 }, want);
    });
  }
});
