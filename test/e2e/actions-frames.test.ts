// Actions across frame and shadow boundaries, and failures that waiting cannot fix, through MCP in real Chromium and
// Firefox: wait_for by text or selector searches every frame (same- and cross-origin; a click in a cross-origin frame
// asks the person first); click reaches buttons inside
// closed shadow roots; typing into an element that can never take text fails at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, handleOf, until } from './harness.js';
import { actionsRig, inPage, type ActionsRig } from './actions-setup.js';
import { answerPrompt } from './consent-helpers.js';

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
    const text = await until(async () => {
      const outline = (await t.tool('snapshot')).text;
      return /button "Press"/.test(outline) ? outline : undefined;
    }, 20_000, "the iframe's button in the outline");
    return handleOf(text, /button "Press"/);
  };

  it('a selector matching only inside a frame fails saying selectors do not cross frames, and a handle reaches it', async () => {
    const button = await frameButton('');
    const hint = 'selectors do not cross frames — snapshot and use a handle';
    const click = await t.tool('click', { selector: '#b', timeout_ms: 200 });
    expect(click.error?.code).toBe('not_actionable');
    expect(click.error?.message).toContain('no match in the top document');
    expect(click.error?.message).toContain(hint);
    const read = await t.tool('extract', { selector: '#b' });
    expect(read.error?.code).toBe('not_actionable');
    expect(read.error?.message).toContain(hint);
    expect((await t.tool('click', { handle: button })).isError).toBe(false);
  });

  for (const [label, query] of [
    ['same-origin', ''],
    ['cross-origin', '?cross'],
  ] as const) {
    it(`wait_for finds text and selectors inside a ${label} iframe, and the handle it returns works`, async () => {
      const button = await frameButton(query);
      const clicking = t.tool('click', { handle: button });
      // Acting in a frame of another origin waits for the person's permission first: answered in the popup.
      if (label === 'cross-origin') await answerPrompt(t.rig, { capability: 'act' }, 'allow_once', t.page);
      const click = await clicking;
      expect(click.isError, click.text).toBe(false);
      // The frame shows the result only when the page posts it "show", after the wait has been asked for: the wait
      // has to watch the frame (calls on a session run in order, so the page is told from outside).
      const waiting = t.tool('wait_for', { text: 'clicked 1', timeout_ms: 20_000 });
      await inPage(t.page, () => document.querySelector('iframe')!.contentWindow!.postMessage('show', '*'));
      const byText = await waiting;
      const bySelector = await t.tool('wait_for', { selector: '#out', timeout_ms: 5000 }, t.modern);
      expect(byText.isError, byText.text).toBe(false);
      expect(bySelector.isError, bySelector.text).toBe(false);
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
      const r = await t.tool('click', { handle: handleOf(outline, new RegExp(`button "${mode} button"`)), timeout_ms: 3000 });
      expect(r.isError, r.text).toBe(false);
      expect(await t.page.$eval('body', (b) => b.dataset.clicked)).toBe(mode);
    }
  });

  it('typing into an element that can never take text fails at once, not retryable', async () => {
    await t.load('closed-shadow.html');
    for (const args of [{ selector: '#para' }, { selector: '#closed' }]) {
      // With a long timeout: an answer that waited it out would say how long it waited ("Waited … ms").
      const r = await t.tool('type', { ...args, text: 'x', timeout_ms: 30_000 });
      expect(r.error?.code).toBe('not_actionable');
      expect(r.error?.message).toMatch(/not editable/);
      expect(r.error?.message).not.toMatch(/Waited/);
      expect(r.structured.error).toMatchObject({ retryable: false });
    }
  });
});
