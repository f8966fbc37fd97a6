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
