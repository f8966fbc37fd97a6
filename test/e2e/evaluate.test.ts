// evaluate on a page whose Content-Security-Policy forbids eval (docs/tools.md), in real Chromium and
// Firefox through MCP: refused while agents' code is switched off in the options, asking the person first when on;
// user scripts off by default → evaluate_unavailable naming the exact switch; switched on the way a person does
// (Chromium: the "Allow User Scripts" toggle in chrome://extensions; Firefox: the options page's button, which requests
// the optional userScripts permission) → values, promises, page errors and bounds through userScripts.execute;
// switched off again → unavailable again. Also: code that does not parse is refused before anyone is asked; a cut
// result says its whole length; a page that replaced JSON.stringify or the built-ins still gets its true value back;
// a crashed, reloading or busy page is reported as such.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_EXTENSION_ID } from '../../shared/extension-ids.js';
import { BROWSERS, FIXTURES, USER_SCRIPTS_PREFS, call, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt, promptCards, setPolicy, untilListed } from './consent-helpers.js';

/** What hardened sites send: scripts from their own origin only, so eval and new Function are refused. */
const CSP = "default-src 'self'; script-src 'self'; object-src 'none'";

describe.each(BROWSERS)('evaluate under a strict CSP in %s', (kind) => {
  let rig: Rig;
  let site: Awaited<ReturnType<typeof serveFixtures>>;
  let page: Page;
  let client: Client;
  let busyStarts = 0;
  const evaluate = (args: Record<string, unknown>) => call(client, 'evaluate', args);
  /** Chromium: what the options page's evaluate fieldset shows (state, and which explanation is visible). */
  async function chromiumOptions(openSwitch = false): Promise<{ state?: string; text: string; chromiumHelp: boolean; firefoxButton: boolean }> {
    const options = await rig.open(`chrome-extension://${CHROMIUM_EXTENSION_ID}/extension/ui/options.html`);
    try {
      await options.waitForSelector('#us-state[data-state]');
      if (openSwitch) {
        // The page's button opens Oriel's own entry in chrome://extensions, where the switch is.
        const opened = rig.browser.waitForTarget((t) => t.url() === `chrome://extensions/?id=${CHROMIUM_EXTENSION_ID}`, { timeout: 30_000 });
        await options.click('#us-open');
        await (await (await opened).page())?.close();
      }
      return await options.evaluate(() => ({
        state: (document.getElementById('us-state') as HTMLElement).dataset.state,
        text: document.getElementById('us-state')!.textContent ?? '',
        chromiumHelp: !(document.getElementById('us-chromium') as HTMLElement).hidden,
        firefoxButton: !(document.getElementById('us-firefox') as HTMLElement).hidden,
      }));
    } finally {
      await options.close();
    }
  }

  /** The id of the session of the shared tab whose URL contains `urlPart`, once there is one. */
  const sessionOf = (urlPart: string) =>
    until(
      async () => ((await call(client, 'list_sessions')).structured.sessions as Array<{ id: string; url: string }> | undefined)?.find((s) => s.url.includes(urlPart))?.id,
      20_000,
      `the tab of ${urlPart} to become a session`,
    );

  beforeAll(async () => {
    // busy.html tells this route just before it keeps its thread busy.
    site = await serveFixtures(path.join(FIXTURES, 'actions'), {
      '/busy-started': (_req, res) => {
        busyStarts++;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('busy');
      },
    });
    rig = await launchRig(kind, { firefoxPrefs: USER_SCRIPTS_PREFS });
    client = await rig.client('legacy', 'evaluate-test');
    page = await rig.open(`${site.url}/strict.csp.html?csp=${encodeURIComponent(CSP)}`);
    await rig.share('strict.csp.html');
    await until(async () => ((await call(client, 'list_sessions')).structured.sessions as unknown[] | undefined)?.length === 1 || undefined, 20_000, 'the shared tab to become a session');
    await page.waitForFunction(() => document.getElementById('out')?.textContent === 'ready');
  });
  afterAll(async () => {
    await rig?.close();
    await site?.close();
  });

  it("is refused with operation_disabled while agents' code is switched off; switched on, the first use asks the person", async () => {
    await setPolicy(rig, { exec: false });
    await untilListed(client, 'evaluate', false);
    await page.bringToFront();
    const r = await evaluate({ expression: '1 + 1' });
    expect(r.error?.code).toBe('operation_disabled');
    expect(r.error?.message).toContain('switched off "evaluate"');
    await setPolicy(rig, { exec: true });
    await untilListed(client, 'evaluate');
    await page.bringToFront();
    // Code that cannot parse is refused at once, with the parser's message: nobody is asked to allow it.
    const broken = await evaluate({ expression: 'const x = 1; x' });
    expect(broken.error?.code, broken.error?.message).toBe('invalid_argument');
    expect(broken.error?.message).toContain("SyntaxError: Unexpected token 'const'");
    expect(broken.error?.message).toContain('wrap statements');
    expect(await promptCards(rig)).toEqual([]);
    const asking = evaluate({ expression: 'window.appState.user' });
    const card = await answerPrompt(rig, { capability: 'exec' }, 'allow_session', page);
    expect(card.code).toBe('window.appState.user');
    // The page's CSP forbids eval and user scripts are off: the call got through consent and fails for that reason.
    expect((await asking).error?.code).toBe('evaluate_unavailable');
  });

  it('with user scripts off: evaluate_unavailable names the exact switch for this browser', async () => {
    const r = await evaluate({ expression: 'window.appState.user' });
    expect(r.isError).toBe(true);
    expect(r.error?.code).toBe('evaluate_unavailable');
    if (kind === 'chromium') {
      expect(r.error?.message).toContain('chrome://extensions');
      expect(r.error?.message).toContain('"Allow User Scripts"');
    } else {
      expect(r.error?.message).toContain('about:addons');
      expect(r.error?.message).toContain('"Allow unverified third-party scripts to access your data"');
      expect(r.error?.message).toContain("Allow running agents' JavaScript on pages that block it");
    }
    expect(r.error?.next).toMatch(/snapshot|extract/);
    if (kind === 'chromium') {
      // Chrome's switch cannot be flipped by an extension page: the options page explains it instead of a button.
      expect(await chromiumOptions(true)).toMatchObject({ state: 'off', chromiumHelp: true, firefoxButton: false });
    }
  });

  it('with user scripts on: JSON values, awaited promises, page errors, bounded results', async () => {
    const state = await rig.allowUserScripts();
    expect(state).toMatch(kind === 'chromium' ? /Allow User Scripts/ : /^On:/);
    if (kind === 'chromium') expect(await chromiumOptions()).toMatchObject({ state: 'on', text: expect.stringContaining('Allow User Scripts') });
    await page.bringToFront();

    // The expression runs in the page's own world: it sees the page's globals and DOM.
    const v = await evaluate({ expression: 'window.appState' });
    expect(v.isError, v.text).toBe(false);
    expect(v.structured).toEqual({ value: { user: 'ada', items: [1, 2, 3] }, type: 'object', truncated: false, via: 'userScripts' });
    expect((await evaluate({ expression: "document.getElementById('out').textContent + '!'" })).structured).toMatchObject({ value: 'ready!', type: 'string' });
    // The page's CSP is still in force for the page's own code: eval from inside the expression is refused.
    const inPage = await evaluate({ expression: "(() => { try { return new Function('return 1')() } catch (e) { return e.name } })()" });
    expect(inPage.structured.value).toBe('EvalError');
    // undefined has no JSON form: value null, type undefined.
    expect((await evaluate({ expression: 'void 0' })).structured).toMatchObject({ value: null, type: 'undefined' });

    const p = await evaluate({ expression: 'new Promise((r) => setTimeout(() => r({ ok: [1, 2] }), 50))' });
    expect(p.structured).toMatchObject({ value: { ok: [1, 2] }, type: 'object', via: 'userScripts' });
    const fetched = await evaluate({ expression: "fetch('strict.js').then((r) => r.text()).then((t) => t.includes('appState'))" });
    expect(fetched.structured).toMatchObject({ value: true, type: 'boolean' });

    const thrown = await evaluate({ expression: '(() => { throw new TypeError("nope from the page") })()' });
    expect(thrown.error?.code).toBe('page_error');
    expect(thrown.error?.message).toContain('TypeError: nope from the page');
    const rejected = await evaluate({ expression: 'Promise.reject(new RangeError("later"))' });
    expect(rejected.error?.code).toBe('page_error');
    expect(rejected.error?.message).toContain('RangeError: later');
    const missing = await evaluate({ expression: 'window.noSuchThing.field' });
    expect(missing.error?.code).toBe('page_error');
    expect(missing.error?.message).toContain('TypeError');
    const syntax = await evaluate({ expression: '[1,\n2 3]' });
    expect(syntax.error?.code, syntax.error?.message).toBe('invalid_argument');
    expect(syntax.error?.message).toContain('SyntaxError: Unexpected number (line 2)');
    const cyclic = await evaluate({ expression: '(() => { const o = {}; o.o = o; return o })()' });
    expect(cyclic.error?.code).toBe('page_error');
    expect(cyclic.error?.message).toMatch(/JSON/);
    const hang = await evaluate({ expression: 'new Promise(() => {})', timeout_ms: 300 });
    expect(hang.error?.code).toBe('timeout');

    // Huge results are cut in the page to max_chars (default 20000) and flagged, never shipped whole.
    const huge = await evaluate({ expression: '"x".repeat(5_000_000)' });
    expect(huge.isError).toBe(false);
    // The whole JSON's length comes with it (the string's 5,000,000 characters and its two quotes).
    expect(huge.structured).toMatchObject({ type: 'string', truncated: true, chars: 5_000_002 });
    expect((huge.structured.value as string).length).toBe(20_000);
    const list = await evaluate({ expression: 'Array.from({ length: 200_000 }, (_, i) => i)', max_chars: 1000 });
    const listChars = JSON.stringify(Array.from({ length: 200_000 }, (_, i) => i)).length;
    expect(list.structured).toMatchObject({ type: 'array', truncated: true, chars: listChars });
    expect(list.structured.value).toMatch(/^\[0,1,2,/);
    expect((list.structured.value as string).length).toBe(1000);
    // The text shows the cut JSON as it is (not quoted as a string) and says how much of it that is, of how much.
    expect(list.text).toMatch(/^array: \[0,1,2,/);
    expect(list.text).toContain(`[truncated: the first 1000 characters of its JSON, ${listChars} in all]`);
  });

  it('switched off again: evaluate_unavailable again, without reloading anything', async () => {
    await rig.allowUserScripts(false);
    await page.bringToFront();
    const r = await evaluate({ expression: 'window.appState.user' });
    expect(r.error?.code).toBe('evaluate_unavailable');
  });

  it("returns the value itself where the page replaced JSON.stringify and gave every object and array a toJSON, before Oriel's page script came or after", async () => {
    // Loaded before it is shared: the page's script replaced them before Oriel's page script arrived.
    const tab = await rig.open(`${site.url}/poison.html`);
    await rig.share('poison.html');
    const session = await sessionOf('/poison.html');
    const inTab = (args: Record<string, unknown>) => evaluate({ session, ...args });
    await tab.bringToFront();
    const asking = inTab({ expression: 'window.appState' });
    await answerPrompt(rig, { capability: 'exec' }, 'allow_session', tab);
    const appState = { user: 'ada', items: [1, 2, 3], when: '1970-01-01T00:00:00.000Z', nested: { a: [{ b: null }, null] } };
    expect((await asking).structured).toMatchObject({ value: appState, type: 'object', truncated: false });
    // As JSON writes them: key order, escapes, a class's own toJSON and Date's, boxed primitives, values without a JSON form.
    const ordered = await inTab({ expression: "({ b: 1, a: 2, 10: 'x', 2: 'y' })" });
    expect(ordered.text).toBe('object: {"2":"y","10":"x","b":1,"a":2}');
    const text = 'q" b\\ n\n t\t c\u0001 e\u{1F600}';
    expect((await inTab({ expression: JSON.stringify(text) })).structured.value).toBe(text);
    const mixed = await inTab({
      expression: "(() => { class Point { toJSON() { return 'a point' } } return [new Point(), new Date(0), new Number(5), new String('s'), new Boolean(false), NaN, -0, Infinity, () => 1, Symbol('x'), undefined] })()",
    });
    expect(mixed.structured).toMatchObject({ value: ['a point', '1970-01-01T00:00:00.000Z', 5, 's', false, null, 0, null, null, null, null], type: 'array' });
    const big = await inTab({ expression: '1n' });
    expect(big.error?.code).toBe('page_error');
    expect(big.error?.message).toMatch(/JSON.*BigInt/);

    // Reloaded while shared, Oriel's page script comes first: even a page that replaces what a JSON writer of its own
    // would use (Object.keys, Array.isArray, String.prototype.slice, setTimeout, …) gets the value itself, cut or whole.
    await tab.goto(`${site.url}/poison.html?deep`, { waitUntil: 'load' });
    await tab.bringToFront();
    expect((await inTab({ expression: 'window.appState' })).structured).toMatchObject({ value: appState, type: 'object', truncated: false });
    const cut = await inTab({ expression: "'x'.repeat(5000) + '\\n'", max_chars: 100 });
    expect(cut.structured).toMatchObject({ value: `"${'x'.repeat(99)}`, type: 'string', truncated: true, chars: 5004 });
    await tab.close();
  });
  /** Opens busy.html in a new tab (`name` tells it apart), shares it and allows any code in it; returns the first use's answer. */
  async function busyTab(name: string, query = '') {
    const tab = await rig.open(`${site.url}/busy.html?${name}${query}`);
    await rig.share(`busy.html?${name}`);
    const session = await sessionOf(`busy.html?${name}`);
    await tab.bringToFront();
    const asking = evaluate({ session, expression: '1 + 1' });
    await answerPrompt(rig, { capability: 'exec' }, 'allow_session', tab);
    return { tab, session, first: await asking };
  }

  // Near the end: it crashes renderers. (Firefox, whose content processes a test can only kill all at once, soon shows
  // its crashed-tab page instead, which is no page of the site: not checked here.)
  it.runIf(kind === 'chromium')('a crashed page: evaluate says it does not answer and to reload it, not that Oriel may not run there', async () => {
    // One page allows eval (evaluate runs through scripting there), one forbids it (through user scripts only).
    const plain = await busyTab('plain');
    expect(plain.first.structured.value).toBe(2);
    const strict = await busyTab('strict', `&csp=${encodeURIComponent(CSP)}`);
    expect(strict.first.error?.code).toBe('evaluate_unavailable');
    // As when the person ends a page Chromium found unresponsive.
    for (const { tab } of [plain, strict]) {
      const crashed = new Promise((resolve) => tab.once('error', resolve));
      const cdp = await tab.createCDPSession();
      void cdp.send('Page.crash').catch(() => undefined);
      await crashed;
    }
    const saysCrashed = (r: Awaited<ReturnType<typeof evaluate>>) => {
      expect(r.error?.code, r.error?.message).toBe('unsupported');
      expect(r.error?.message).toMatch(/does not answer Oriel, though it is a web page: it has probably crashed or is stuck/);
      expect(r.error?.next).toMatch(/navigate with action "reload"/);
      expect(r.error?.details).toMatchObject({ reason: 'unresponsive' });
    };
    // User scripts are off by now: through scripting; then through user scripts.
    saysCrashed(await evaluate({ session: plain.session, expression: '1 + 1', timeout_ms: 1000 }));
    await rig.allowUserScripts();
    saysCrashed(await evaluate({ session: strict.session, expression: '1 + 1', timeout_ms: 1000 }));
    await rig.allowUserScripts(false);
  });

  // (Firefox does not answer an injection whose page navigated away at all: the call meets its deadline.)
  it.runIf(kind === 'chromium')('a page that reloads while the expression runs: stale_document, not an error of the page or a syntax error', async () => {
    const { session, first } = await busyTab('reloading');
    expect(first.structured.value).toBe(2);
    // User scripts are off by now: through scripting; then through user scripts.
    for (const userScripts of [false, true]) {
      if (userScripts) await rig.allowUserScripts();
      const r = await evaluate({ session, expression: '(location.reload(), new Promise(() => {}))', timeout_ms: 3000 });
      expect(r.error?.code, r.error?.message).toBe('stale_document');
      expect(r.error?.message).toContain('The page navigated or reloaded');
    }
    await rig.allowUserScripts(false);
  });

  // Last: it leaves a page busy for a while.
  it('a busy page (a script that does not stop): evaluate fails with timeout, saying the page does not respond', async () => {
    const { session, first } = await busyTab('ms=15000');
    expect(first.structured.value).toBe(2);
    // Its button keeps the page's thread busy for 15 s, as an endless loop would, telling the server first.
    expect((await evaluate({ session, expression: "document.getElementById('work').click()" })).isError).toBe(false);
    await until(() => busyStarts > 0 || undefined, 20_000, 'the page to start its busy loop');
    const busy = await evaluate({ session, expression: '1 + 1', timeout_ms: 100 });
    expect(busy.error?.code, busy.error?.message).toBe('timeout');
    expect(busy.error?.message).toMatch(/the page is not responding: .*a script is busy/);
    expect(busy.error?.next).toMatch(/wait for the page/);
  });
});
