// The rest of a person's hands, through MCP in real browsers: the page kinds that used to come out wrong (slotted
// shadow content, controls behind labels, fixed and sticky layers, recycled rows, hover menus, keyboard widgets,
// segmented codes, multi-selects, strict CSP) and the abilities hover, press_key, scroll, select_options, drag,
// upload, dialog answers and opened tabs — each with its errors. One browser per run of the file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, call, handleOf, until, USER_SCRIPTS_PREFS, type Rig, type ToolCall } from './harness.js';
import { closeSharedTab, openSharedTab, type SharedTab } from './shared-tab.js';
import { textOf } from './actions-setup.js';
import { answerPrompt } from './consent-helpers.js';
import { startSwapRace } from '../support/swap-race.js';

describe.each(BROWSERS)('hands in %s', (kind) => {
  let rig: Rig;
  let site: { url: string; close(): Promise<void> };
  let client: Client;
  let page: Page;
  let session: string;

  const tool = (name: string, args: Record<string, unknown> = {}): Promise<ToolCall> => call(client, name, { session, ...args });
  const load = async (file: string) => {
    const r = await tool('navigate', { url: `${site.url}/hands/${file}` });
    if (r.isError) throw new Error(`navigate ${file}: ${r.error?.message}`);
    return r.structured.document as string;
  };
  const outline = async () => {
    const r = await tool('snapshot');
    if (r.isError) throw new Error(`snapshot: ${r.error?.message}`);
    return r.text;
  };
  const out = () => textOf(page, '#out');

  let tab: SharedTab | undefined;
  beforeAll(async () => {
    ({ rig, site, client, page, session } = tab = await openSharedTab(kind, {
      rig: { firefoxPrefs: USER_SCRIPTS_PREFS },
      era: 'modern',
      name: 'hands',
      path: 'hands/keys.html?shared',
      viewport: { width: 1000, height: 700 },
    }));
  });
  afterAll(() => closeSharedTab(tab));

  it('clicks slotted shadow content, controls behind their labels, and targets under fixed and sticky layers', async () => {
    await load('slotted-shadow-button.html');
    const go = handleOf(await outline(), /button "Go"/);
    expect(await outline()).not.toMatch(/button "Go" \[covered\]/);
    expect((await tool('click', { handle: go })).isError).toBe(false);
    expect(await out()).toBe('clicked');

    await load('hidden-inputs-in-labels.html');
    const text = await outline();
    // Each checkbox once, named, with no state that would call it unusable.
    expect(text.match(/checkbox/g)).toHaveLength(2);
    expect(text).toMatch(/checkbox "Email me" @/);
    expect(text).toMatch(/checkbox "Focus mode" @/);
    for (const name of ['Email me', 'Focus mode']) expect((await tool('click', { handle: handleOf(text, new RegExp(`checkbox "${name}"`)) })).isError).toBe(false);
    expect(await page.evaluate(() => [(document.getElementById('a') as HTMLInputElement).checked, (document.getElementById('b') as HTMLInputElement).checked])).toEqual([true, true]);
    expect(await outline()).toMatch(/checkbox "Focus mode" \[checked\]/);

    await load('fixed-header.html');
    // The page loads scrolled so that "Save address" sits under the fixed header: the click scrolls it clear.
    const save = await tool('click', { handle: handleOf(await outline(), /button "Save address"/) });
    expect(save.isError).toBe(false);
    expect(await out()).toBe('saved');
    // "Open 37" put under the sticky table head first.
    await page.evaluate(() => {
      const b = Array.from(document.querySelectorAll('button')).find((x) => x.textContent === 'Open 37')!;
      scrollTo(0, b.getBoundingClientRect().top + scrollY - 100);
    });
    expect((await tool('click', { handle: handleOf(await outline(), /button "Open 37"/) })).isError).toBe(false);
    expect(await out()).toBe('open 37');
    // Something that no scroll position frees is still reported, naming what covers it.
    await page.evaluate(() => {
      const cover = document.createElement('div');
      cover.id = 'veil';
      cover.style.cssText = 'position:fixed;inset:0;background:#fff8';
      cover.textContent = 'Veil';
      document.body.append(cover);
    });
    const covered = await tool('click', { selector: '#a', timeout_ms: 200 });
    expect(covered.error?.code).toBe('not_actionable');
    expect(covered.error?.message).toContain('covered by div#veil');
  });

  it('scrolls a virtualized list until a row shows; a handle to a recycled row fails as detached', async () => {
    await load('recycled-list.html');
    const before = await outline();
    const list = handleOf(before, /list "People"/);
    const call3 = handleOf(before, /button "Call Person 0003"/);
    const r = await tool('scroll', { handle: list, until_text: 'Person 0600' });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({ handle: list, more_up: true, more_down: true });
    expect(r.structured.steps as number).toBeGreaterThan(10);
    expect(await tool('extract', { handle: r.structured.found })).toMatchObject({ structured: { value: 'Person 0600' } });
    // The row element that showed Person 0003 now shows another person: the old handle must not click it.
    const stale = await tool('click', { handle: call3 });
    expect(stale.error?.code).toBe('detached');
    expect(stale.error?.message).toContain('Call Person 0003');
    expect(await out()).toBe('');
    const fresh = handleOf(await outline(), /button "Call Person 0600"/);
    expect((await tool('click', { handle: fresh })).isError).toBe(false);
    expect(await out()).toBe('calling 600');
    // The page, by amount and to its edges; an edge reached says there is no more.
    await load('fixed-header.html');
    const top = await tool('scroll', { to: 'top' });
    expect(top.structured).toMatchObject({ y: 0, more_up: false, more_down: true });
    const by = await tool('scroll', { direction: 'down', amount: 300 });
    expect(by.structured).toMatchObject({ y: 300, more_up: true });
    const bottom = await tool('scroll', { to: 'bottom' });
    expect(bottom.structured).toMatchObject({ more_down: false });
    expect(bottom.structured.y).toBe(bottom.structured.max_y);
    const missing = await tool('scroll', { to: 'top', until_text: 'x' });
    expect(missing.error?.code).toBe('invalid_argument');
    const never = await tool('scroll', { direction: 'up', until_text: 'No such row anywhere' });
    expect(never.isError).toBe(false);
    expect(never.structured.found).toBeUndefined();
    expect(never.text).toContain('did not show');
  });

  it('hovers: CSS :hover menus and mouseenter row actions appear, stay, and can be clicked', async () => {
    await load('hover-menus.html');
    const first = await outline();
    expect(first).not.toContain('Laptops');
    const h = await tool('hover', { handle: handleOf(first, /link "Products"/) });
    expect(h.structured).toMatchObject({ trusted: false, hover_styles: 'mirrored' });
    expect(h.text).toMatch(/CSS :hover emulated by mirroring 1 :hover rule/);
    const menu = await outline();
    expect((await tool('click', { handle: handleOf(menu, /link "Laptops"/) })).isError).toBe(false);
    expect(await out()).toBe('laptops');
    // A row is something to point at: hovering it runs its mouseenter, which adds the row's action.
    const rows = await outline();
    const beta = await tool('hover', { handle: handleOf(rows, /row @[a-z0-9.]+: "Beta"/) });
    expect(beta.structured.dom_changed).toBe(true);
    const withDelete = await outline();
    expect(withDelete.match(/button "Delete"/g)).toHaveLength(1);
    // Moving to the button inside the row does not leave the row, so the button stays for the click.
    expect((await tool('click', { handle: handleOf(withDelete, /button "Delete"/) })).isError).toBe(false);
    expect(await out()).toBe('delete Beta');
    // Hovering elsewhere leaves the row: its mouseleave removes the action.
    await tool('hover', { handle: handleOf(await outline(), /row @[a-z0-9.]+: "Alpha"/) });
    expect(await page.evaluate(() => document.querySelectorAll('.act button').length)).toBe(1);
    const hidden = await tool('hover', { selector: 'nav ul ul', timeout_ms: 0 });
    expect(hidden.error?.code).toBe('not_actionable');
  });

  it('presses keys and chords with the browser default actions, and types into boxes that move focus', async () => {
    await load('keys.html');
    const text = await outline();
    const slider = handleOf(text, /slider "Volume"/);
    const value = () => page.evaluate(() => document.getElementById('v')!.getAttribute('aria-valuenow'));
    const right = await tool('press_key', { handle: slider, key: 'ArrowRight' });
    expect(right.structured).toMatchObject({ key: 'ArrowRight', prevented: true, trusted: false });
    expect(await value()).toBe('41');
    await tool('press_key', { handle: slider, key: 'PageUp' });
    expect(await value()).toBe('51');
    await tool('press_key', { key: 'End' });
    expect(await value()).toBe('100');
    await tool('press_key', { key: 'Home' });
    expect(await value()).toBe('0');
    await tool('press_key', { key: 'ArrowUp', repeat: 3 });
    expect(await value()).toBe('3');
    const palette = await tool('press_key', { key: 'Control+K' });
    expect(palette.structured.prevented).toBe(true);
    expect(await out()).toBe('palette');
    const tab = await tool('press_key', { handle: handleOf(text, /textbox "First"/), key: 'Tab' });
    expect(tab.structured).toMatchObject({ prevented: false, focused: handleOf(text, /textbox "Second"/) });
    expect(tab.structured.default_action).toMatch(/moved focus to input "Second"/);
    await tool('click', { handle: handleOf(text, /button "Open dialog"/) });
    const esc = await tool('press_key', { key: 'Escape' });
    expect(esc.structured.default_action).toMatch(/closed the modal dialog/);
    expect(await page.evaluate(() => (document.getElementById('d') as HTMLDialogElement).open)).toBe(false);
    // The dialog's `close` event is a queued task (HTML, "close the dialog"): wait on it, not on the clock.
    await page.waitForFunction(() => document.getElementById('out')!.textContent === 'closed with escape');
    const bad = await tool('press_key', { key: 'Hyper+Q' });
    expect(bad.error?.code).toBe('invalid_argument');
    expect((await tool('press_key', { key: 'NoSuchKey' })).error?.code).toBe('invalid_argument');

    await load('segmented-code.html');
    const boxes = await outline();
    const typed = await tool('type', { handle: handleOf(boxes, /textbox "Digit 1"/), text: '2741' });
    expect(typed.structured).toMatchObject({ value: '2', focused: handleOf(boxes, /textbox "Digit 4"/) });
    expect(await outline()).toMatch(/button "Verify" @/);
    await tool('click', { handle: handleOf(boxes, /button "Verify"/) });
    expect(await out()).toBe('code 2741');
    // Backspace deletes the last digit, then on the empty box the page's own handler moves back.
    const back = await tool('press_key', { handle: handleOf(boxes, /textbox "Digit 4"/), key: 'Backspace', repeat: 2 });
    expect(back.structured.default_action).toMatch(/deleted a character/);
    expect(await page.evaluate(() => (document.querySelector('[aria-label="Digit 4"]') as HTMLInputElement).value)).toBe('');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).getAttribute('aria-label'))).toBe('Digit 3');
  });

  it('chooses several options of a multi-select, adds to them and clears them', async () => {
    await load('multi-select.html');
    const list = handleOf(await outline(), /listbox "Interests"/);
    const two = await tool('select_options', { handle: list, options: ['Chess', 'Music'] });
    expect(two.structured).toMatchObject({ handle: list, selected: ['Chess', 'Music'] });
    const shown = await outline();
    expect(shown).toMatch(/option "Chess" \[selected\]/);
    expect(shown).toMatch(/option "Music" \[selected\]/);
    expect(shown).not.toMatch(/option "Hiking" \[selected\]/);
    expect((await tool('select_options', { handle: list, options: ['hiking'], add: true })).structured.selected).toEqual(['Hiking', 'Chess', 'Music']);
    expect((await tool('select_options', { handle: list, options: [] })).structured.selected).toEqual([]);
    const unknown = await tool('select_options', { handle: list, options: ['Golf'] });
    expect(unknown.error?.code).toBe('invalid_argument');
    expect(unknown.error?.message).toContain('"Hiking"');
    const notList = await tool('select_options', { selector: 'body', options: ['x'] });
    expect(notList.error?.code).toBe('not_actionable');
    expect(notList.error?.retryable).toBe(false);
  });

  it('drags with HTML drag and drop and with pointer moves', async () => {
    await load('drag.html');
    const html = await tool('drag', { selector: '#c2', to_selector: '#bin' });
    expect(html.structured).toMatchObject({ kind: 'html', dropped: true, dom_changed: true });
    expect(await out()).toBe('dropped c2');
    const sort = await tool('drag', { selector: '#s3', to_selector: '#s1' });
    expect(sort.structured).toMatchObject({ kind: 'pointer' });
    expect(await out()).toBe('order Gamma,Alpha,Beta');
    expect((await tool('drag', { selector: '#c1' })).error?.code).toBe('invalid_argument');
  });

  it('answers the JavaScript dialogs an action opens, and reports one nobody answered instead of hanging', async () => {
    await load('dialogs.html');
    const unanswered = await tool('click', { selector: '#confirm' });
    expect(unanswered.error?.code).toBe('dialog_opened');
    expect(unanswered.error?.message).toContain('"Delete the file?"');
    expect(await out()).toBe('kept');
    const accepted = await tool('click', { selector: '#confirm', dialog: 'accept' });
    expect(accepted.structured.dialogs).toEqual([{ type: 'confirm', message: 'Delete the file?', answer: 'accept' }]);
    expect(await out()).toBe('deleted');
    await tool('click', { selector: '#prompt', dialog: 'accept', dialog_text: 'Bob' });
    expect(await out()).toBe('name Bob');
    await tool('click', { selector: '#prompt', dialog: 'dismiss' });
    expect(await out()).toBe('name null');
    const alert = await tool('press_key', { selector: '#alert', key: 'Enter', dialog: 'accept' });
    expect(alert.structured.dialogs).toEqual([{ type: 'alert', message: 'Saved', answer: 'accept' }]);
    expect(await out()).toBe('after alert');
    // The page's own dialogs outside an Oriel action are left to the person.
    expect(await page.evaluate(() => typeof window.confirm)).toBe('function');
  });

  it('uploads files from the folder the person chose, and nothing outside it', async () => {
    await load('upload.html');
    const folder = path.join(rig.tmp, 'uploads');
    mkdirSync(path.join(folder, 'sub'), { recursive: true });
    writeFileSync(path.join(folder, 'note.txt'), 'hello');
    writeFileSync(path.join(folder, 'sub', 'data.json'), '{"a":1}');
    writeFileSync(path.join(rig.tmp, 'secret.txt'), 'private');
    symlinkSync(path.join(rig.tmp, 'secret.txt'), path.join(folder, 'link.txt'));
    writeFileSync(path.join(folder, 'big.bin'), Buffer.alloc(800 * 1024));
    const off = await tool('upload', { selector: '#files', paths: ['note.txt'] });
    expect(off.error?.code).toBe('operation_disabled');

    const options = await rig.options();
    await options.waitForSelector('#upload-folder');
    await options.$eval('#upload-folder', (el, v) => void ((el as HTMLInputElement).value = v), folder);
    await options.click('#upload-form button[type="submit"]');
    await options.waitForFunction(() => document.getElementById('upload-result')?.textContent === 'Saved.', { polling: 50, timeout: 10_000 });
    await page.bringToFront();

    const ok = await until(async () => {
      const r = await tool('upload', { selector: '#files', paths: ['note.txt', 'sub/data.json'] });
      return r.error?.code === 'operation_disabled' ? undefined : r;
    }, 10_000, 'the upload folder to reach the broker');
    expect(ok.structured.files).toEqual([
      { name: 'note.txt', size: 5, type: 'text/plain' },
      { name: 'data.json', size: 7, type: 'application/json' },
    ]);
    expect(await out()).toBe('files note.txt:text/plain:hello|data.json:application/json:{"a":1}');
    for (const p of ['../secret.txt', 'link.txt', path.join(rig.tmp, 'secret.txt')]) {
      const r = await tool('upload', { selector: '#files', paths: [p] });
      expect(r.error?.code, p).toBe('permission_denied');
      expect(r.error?.message).not.toContain(rig.tmp);
    }
    expect((await tool('upload', { selector: '#files', paths: ['big.bin'] })).error?.code).toBe('too_large');
    expect((await tool('upload', { selector: '#files', paths: ['nope.txt'] })).error?.code).toBe('invalid_argument');
    expect((await tool('upload', { selector: '#one', paths: ['note.txt', 'sub/data.json'] })).error?.code).toBe('invalid_argument');
    expect((await tool('upload', { selector: '#out', paths: ['note.txt'] })).error?.code).toBe('not_actionable');
  });

  // The upload folder is the one the test above chose in the options.
  it('refuses a FIFO in the upload folder at once, however often it is named, and uploads go on', async () => {
    await load('upload.html');
    const folder = path.join(rig.tmp, 'uploads');
    execFileSync('mkfifo', [path.join(folder, 'pipe')]);
    // More uploads than libuv has threads (4): each one that blocked on the FIFO would have held one for good.
    const refused = await Promise.all(Array.from({ length: 6 }, () => tool('upload', { selector: '#files', paths: ['pipe'] })));
    expect(refused.map((r) => r.error?.code)).toEqual(Array(6).fill('invalid_argument'));
    expect(refused[0]!.error?.message).toContain('not a regular file');
    const ok = await tool('upload', { selector: '#files', paths: ['note.txt'] });
    expect(ok.structured.files).toEqual([{ name: 'note.txt', size: 5, type: 'text/plain' }]);
  });

  it('delivers no file from outside the upload folder while a folder on the path is swapped for a link', async () => {
    await load('upload.html');
    const folder = path.join(rig.tmp, 'uploads');
    mkdirSync(path.join(folder, 'race'));
    writeFileSync(path.join(folder, 'race', 'secret.txt'), 'inside'); // 6 bytes; the outside one has 7
    symlinkSync(rig.tmp, path.join(folder, 'race-link'));
    const swap = await startSwapRace(path.join(folder, 'race'), path.join(folder, 'race-link'), 120);
    const sizes: number[] = [];
    const codes = new Set<string>();
    try {
      for (let i = 0; i < 200; i++) {
        const r = await tool('upload', { selector: '#files', paths: ['race/secret.txt'] });
        if (r.isError) codes.add(r.error!.code);
        else sizes.push((r.structured.files as Array<{ size: number }>)[0]!.size);
      }
    } finally {
      await swap.stop();
    }
    expect(sizes.filter((n) => n !== 6)).toEqual([]);
    // The race ran: some uploads met the link and were refused (a link, or no longer a folder when looked at again),
    // others met the folder.
    expect(codes.has('permission_denied')).toBe(true);
    expect([...codes].filter((c) => c !== 'permission_denied' && c !== 'invalid_argument')).toEqual([]);
    expect(sizes.length).toBeGreaterThan(0);
  });

  it('shares the tabs and popups a shared tab opens, listed with their opener and named in the click\'s result', async () => {
    await load('popups.html');
    const opener = handleOf(await outline(), /link "Open in a new tab"/);
    const target = (via: string) => `${site.url}/hands/popup-target.html?via=${via}`;
    const sessionId = expect.stringMatching(/^[a-z0-9]+-\d+$/);
    // A link with a target, window.open with a popup's features (a window of its own), window.open without (a tab).
    const blank = await tool('click', { handle: opener });
    expect(blank.structured.opened_tabs).toEqual([{ url: target('blank'), session: sessionId }]);
    const signIn = await tool('click', { selector: '#open' });
    expect(signIn.structured.opened_tabs).toEqual([{ url: target('open'), window: true, session: sessionId }]);
    expect(signIn.text).toContain(`The page opened ${target('open')} in a new window, shared as session ${(signIn.structured.opened_tabs as Array<{ session: string }>)[0]!.session}.`);
    // With that window open (the browser's last focused one), a modified click on a link still opens its tab beside
    // the shared one: Chromium put it in the popup's window at the shared tab's index, and refused it.
    const middle = await tool('click', { handle: opener, button: 'middle' });
    expect(middle.structured.new_tab_session).toEqual(sessionId);
    const guide = await tool('click', { selector: '#open-tab' });
    expect(guide.structured.opened_tabs).toEqual([{ url: target('open-tab'), session: sessionId }]);
    expect(guide.text).toContain(`The page opened ${target('open-tab')} in a new tab, shared as session`);
    // Another origin, where the opened tab's share grants no read: its origin only, never its path or query.
    const elsewhere = await tool('click', { selector: '#open-elsewhere' });
    const localhost = site.url.replace('127.0.0.1', 'localhost');
    expect(elsewhere.structured.opened_tabs).toEqual([{ url: localhost, withheld: true, session: sessionId }]);
    expect(elsewhere.text).not.toContain('s3cret');
    const named = [...[blank, signIn, guide, elsewhere].map((r) => (r.structured.opened_tabs as Array<{ session: string }>)[0]!.session), middle.structured.new_tab_session as string];
    const sessions = await until(async () => {
      const r = await call(client, 'list_sessions');
      const list = r.structured.sessions as Array<{ id: string; url: string; opener?: string }>;
      // A popup starts at about:blank: wait until each shows its page.
      return list.filter((s) => s.url.includes('via=')).length === 4 && list.some((s) => s.url === localhost) ? list : undefined;
    }, 15_000, 'the opened tabs to become sessions');
    const opened = sessions.filter((s) => s.opener === session);
    expect(opened.map((s) => new URL(s.url).search).sort()).toEqual(['', '?via=blank', '?via=blank', '?via=open', '?via=open-tab']);
    expect(opened.map((s) => s.id).sort()).toEqual([...named].sort());
    const popup = opened.find((s) => s.url.includes('via='))!.id;
    const r = await call(client, 'snapshot', { session: popup });
    expect(r.text).toMatch(/heading "Opened"/);
    for (const p of await rig.browser.pages()) if (p.url().includes('popup-target.html')) await p.close();
    await until(async () => ((await call(client, 'list_sessions')).structured.sessions as unknown[]).length === 1, 10_000, 'the opened tabs to end');
    await page.bringToFront();
  });

  it('evaluate never fires a CSP violation: without user scripts it says what to enable', async () => {
    await load('csp-evaluate.html');
    // Agents' code asks the person first: allowed for any code in this tab.
    const asking = tool('evaluate', { expression: '1 + 1' });
    await answerPrompt(rig, { capability: 'exec' }, 'allow_session', page);
    const r = await asking;
    expect(r.error?.code).toBe('evaluate_unavailable');
    expect(await textOf(page, '#n')).toBe('0 violations');
    // A page without such a policy still evaluates.
    await load('keys.html');
    expect((await tool('evaluate', { expression: '6 * 7' })).structured.value).toBe(42);
    await load('csp-evaluate.html');
    await rig.allowUserScripts(true);
    await page.bringToFront();
    const viaUserScripts = await tool('evaluate', { expression: 'document.title' });
    expect(viaUserScripts.structured).toMatchObject({ value: 'strict csp', via: 'userScripts' });
    expect(await textOf(page, '#n')).toBe('0 violations');
  });
});
