// Actions across frame and shadow boundaries, and failures that waiting cannot fix, through MCP in real Chromium and
// Firefox: wait_for by text or selector searches every frame (same- and cross-origin); click reaches buttons inside
// closed shadow roots; typing into an element that can never take text fails at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, handleOf } from './harness.js';
import { actionsRig, type ActionsRig } from './actions-setup.js';

describe.each(BROWSERS)('frames, closed shadow roots and permanent failures in %s', (kind) => {
  let t: ActionsRig;

  beforeAll(async () => {
    t = await actionsRig(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Loads frames.html and waits until the snapshot shows the iframe's button; returns its handle. */
  const frameButton = async (query: string): Promise<string> => {
    await t.load(`frames.html${query}`);
    let text = '';
    for (let i = 0; i < 50 && !/button "Press"/.test(text); i++) {
      text = (await t.tool('snapshot')).text;
      if (!/button "Press"/.test(text)) await new Promise((r) => setTimeout(r, 100));
    }
    return handleOf(text, /button "Press"/);
  };

  for (const [label, query] of [
    ['same-origin', ''],
    ['cross-origin', '?cross'],
  ] as const) {
    it(`wait_for finds text and selectors inside a ${label} iframe, and the handle it returns works`, async () => {
      const button = await frameButton(query);
      // The frame shows the result 300 ms after the click (calls on a session run in order), so the wait really
      // watches the frame.
      const click = await t.tool('click', { handle: button });
      expect(click.isError, click.text).toBe(false);
      const byText = await t.tool('wait_for', { text: 'clicked 1', timeout_ms: 5000 });
      const bySelector = await t.tool('wait_for', { selector: '#out', timeout_ms: 5000 }, t.modern);
      expect(byText.isError, byText.text).toBe(false);
      expect(bySelector.isError, bySelector.text).toBe(false);
      expect(byText.structured.elapsed_ms as number).toBeGreaterThan(50);
      expect(byText.structured.handle).toBe(bySelector.structured.handle);
      // The handle names the frame's element: extract routes to that frame by its namespace.
      const read = await t.tool('extract', { handle: bySelector.structured.handle });
      expect(read.structured.value).toBe('clicked 1');
      // Something in no frame still times out, with the usual error.
      expect((await t.tool('wait_for', { text: 'clicked 7', timeout_ms: 300 })).error?.code).toBe('timeout');
      // Going away needs every frame to agree: #out exists in the iframe, so it is not detached.
      expect((await t.tool('wait_for', { selector: '#out', state: 'detached', timeout_ms: 300 })).error?.code).toBe('timeout');
      expect((await t.tool('wait_for', { selector: '#nowhere', state: 'detached', timeout_ms: 2000 })).isError).toBe(false);
    });
  }

  it('clicks a button inside a closed shadow root, as inside an open one', async () => {
    await t.load('closed-shadow.html');
    const outline = (await t.tool('snapshot')).text;
    for (const mode of ['closed', 'open']) {
      const started = Date.now();
      const r = await t.tool('click', { handle: handleOf(outline, new RegExp(`button "${mode} button"`)), timeout_ms: 3000 });
      expect(r.isError, r.text).toBe(false);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await t.page.$eval('body', (b) => b.dataset.clicked)).toBe(mode);
    }
  });

  it('typing into an element that can never take text fails at once, not retryable', async () => {
    await t.load('closed-shadow.html');
    for (const args of [{ selector: '#para' }, { selector: '#closed' }]) {
      const started = Date.now();
      const r = await t.tool('type', { ...args, text: 'x', timeout_ms: 5000 });
      expect(r.error?.code).toBe('not_actionable');
      expect(r.error?.message).toMatch(/not editable/);
      expect(r.structured.error).toMatchObject({ retryable: false });
      expect(Date.now() - started).toBeLessThan(1500);
    }
  });
});
