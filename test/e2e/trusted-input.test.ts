// Trusted input in Chromium (docs/architecture.md, "Input"): the option ticked on the options page as a person does,
// then click, press_key and type through the DevTools protocol, seen by the page as trusted input with its user
// activation and default actions (done once, by the browser); the option unticked, Oriel's own events again.
// Firefox has no such interface for extensions: there the option is absent (the manifest side: test/unit/store-package.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { BROWSERS, until } from './harness.js';
import { actionsRig, inPage, type ActionsRig } from './actions-setup.js';

describe.skipIf(!BROWSERS.includes('chromium'))('trusted input in chromium (Firefox has no chrome.debugger for extensions)', () => {
  let t: ActionsRig;

  /** Ticks or unticks the option as a person does, and waits for the page to confirm. */
  async function setTrusted(on: boolean): Promise<void> {
    const options: Page = await t.rig.options();
    await options.waitForSelector('#trusted-input', { visible: true });
    if ((await options.$eval('#trusted-input', (e) => (e as HTMLInputElement).checked)) !== on) await options.click('#trusted-input');
    await options.waitForFunction((want) => document.getElementById('trusted-result')!.textContent === want, {}, on ? 'On.' : 'Off: Oriel sends its own events.');
    await t.page.bringToFront();
  }

  /**
   * Tabs Oriel's debugger session is attached to: those where a DevTools protocol command from the extension's
   * background succeeds (the browser lists every tab as attached while puppeteer drives it, so its list cannot tell).
   */
  async function attachedTabs(): Promise<number> {
    const target = await t.rig.browser.waitForTarget((x) => x.type() === 'service_worker' && x.url().startsWith('chrome-extension://'));
    const worker = await target.worker();
    return (await worker!.evaluate(`chrome.tabs.query({}).then((tabs) => Promise.all(tabs.map((tab) =>
      chrome.debugger.sendCommand({ tabId: tab.id }, 'Runtime.evaluate', { expression: '1' }).then(() => 1, () => 0),
    ))).then((hits) => hits.reduce((a, b) => a + b, 0))`)) as number;
  }

  beforeAll(async () => {
    t = await actionsRig('chromium');
    await setTrusted(true);
    await t.load('trusted.html');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a click is trusted and gives the page user activation', async () => {
    const r = await t.tool('click', { selector: '#check' });
    expect(r.isError, r.error?.message).toBe(false);
    expect(r.structured).toMatchObject({ dispatched: true, trusted: true });
    expect(r.structured.note).toBeUndefined();
    expect(r.text).toContain('(trusted input)');
    expect(await inPage(t.page, () => (window as unknown as { clicks: string[] }).clicks)).toEqual(['true/true']);
    expect(await attachedTabs()).toBe(1);
  });

  it('double, right and modified clicks at a point go through the browser with their button, count and keys', async () => {
    const dbl = await t.tool('click', { selector: '#pad', count: 2, modifiers: ['Control'], x: 20, y: 10 });
    expect(dbl.isError, dbl.error?.message).toBe(false);
    expect(dbl.structured).toMatchObject({ trusted: true });
    const right = await t.tool('click', { selector: '#pad', button: 'right', x: 150, y: 40 });
    expect(right.structured).toMatchObject({ trusted: true });
    expect(await inPage(t.page, () => (window as unknown as { pad: string[] }).pad)).toEqual(['dblclick:2:0:true:20:10:true', 'contextmenu:0:2:false:150:40:true', 'auxclick:1:2:false:150:40:true']);
  });

  it('hover puts the browser\'s own pointer there: :hover matches without Oriel mirroring rules', async () => {
    const r = await t.tool('hover', { selector: '#a' });
    expect(r.isError, r.error?.message).toBe(false);
    expect(r.structured).toMatchObject({ trusted: true, hover_styles: 'native' });
    expect(await inPage(t.page, () => document.getElementById('a')!.matches(':hover') && !document.querySelector('[data-oriel-hover]'))).toBe(true);
  });

  it('press_key Tab moves focus once: the browser does it, Oriel does not repeat it', async () => {
    const r = await t.tool('press_key', { selector: '#a', key: 'Tab' });
    expect(r.isError, r.error?.message).toBe(false);
    expect(r.structured).toMatchObject({ trusted: true, prevented: false });
    expect(r.structured.default_action).toBeUndefined();
    expect(await inPage(t.page, () => document.activeElement?.id)).toBe('b');
    expect(r.structured.focused).toBe(await t.handle('#b'));
  });

  it('type sends trusted keys and the field holds the text', async () => {
    await inPage(t.page, () => ((window as unknown as { keys: string[] }).keys.length = 0));
    const r = await t.tool('type', { selector: '#a', text: 'hi!' });
    expect(r.isError, r.error?.message).toBe(false);
    expect(r.structured).toMatchObject({ trusted: true, value: 'hi!', submitted: false });
    expect(await inPage(t.page, () => (document.getElementById('a') as HTMLInputElement).value)).toBe('hi!');
    expect(await inPage(t.page, () => (window as unknown as { keys: string[] }).keys)).toEqual(['h:true', 'i:true', '!:true']);
  });

  it('type with trusted keys: a tab stays in the field as text, a number keeps its sign and decimals', async () => {
    const r = await t.tool('type', { selector: '#a', text: 'x\ty' });
    expect(r.structured).toMatchObject({ trusted: true, value: 'x\ty' });
    expect(r.structured.elsewhere).toBeUndefined();
    expect(await inPage(t.page, () => document.activeElement?.id)).toBe('a');
    const n = await t.tool('type', { selector: '#n', text: '-0.25' });
    expect(n.structured).toMatchObject({ trusted: true, value: '-0.25' });
    const bad = await t.tool('type', { selector: '#n', text: '12abc' });
    expect(bad.error?.code).toBe('invalid_argument');
    expect(await inPage(t.page, () => (document.getElementById('n') as HTMLInputElement).value)).toBe('-0.25');
  });

  it('unticked, input is Oriel\'s own again (no user activation)', async () => {
    await setTrusted(false);
    await until(async () => (await attachedTabs()) === 0 || undefined, 20_000, 'the debugger to detach');
    await t.load('trusted.html');
    const r = await t.tool('click', { selector: '#check' });
    expect(r.structured).toMatchObject({ dispatched: true, trusted: false });
    expect(await inPage(t.page, () => (window as unknown as { clicks: string[] }).clicks)).toEqual(['false/false']);
  });
});
