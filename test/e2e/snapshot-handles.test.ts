// Handle lifecycle (docs/architecture.md, "Handles") in real Chromium and Firefox, through the real chain (shared tab, native messaging, hub,
// `oriel mcp`, official MCP client in both eras): kept across snapshots, new for look-alikes, detached when removed,
// unknown after navigation / reload / document.open() / from another tab, no_snapshot before any; and a hostile page
// cannot enumerate, read or forge handles or the registry. Handles are checked with the tools that take them (extract,
// click, wait_for): their no_snapshot / unknown_handle / detached come from the registry of the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, handleOf, type ToolCall } from './harness.js';
import { body, snapshotSession, type Era, type SnapSession } from './snapshot-setup.js';

describe.each(BROWSERS)('handles in %s', (kind) => {
  let s: SnapSession;
  beforeAll(async () => {
    s = await snapshotSession(kind);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** What a handle names now, as extract (read-only) answers: `ok` or the error code. */
  const status = async (handle: string, era: Era, session?: string): Promise<string> => {
    const r: ToolCall = await s.tool('extract', { handle, ...(session ? { session } : {}) }, era);
    return r.isError ? (r.error?.code ?? 'error') : 'ok';
  };

  it('answers no_snapshot before any snapshot, then keeps handles of unchanged elements (legacy era)', async () => {
    const doc = await s.load('basic.html', 'legacy');
    // A handle of this very document, before it issued any.
    expect(await status(`${doc}.1`, 'legacy')).toBe('no_snapshot');
    const click = await s.tool('click', { handle: `${doc}.1` }, 'legacy');
    expect(click.error?.code).toBe('no_snapshot');
    const a = await s.snapshot({}, 'legacy');
    const b = await s.snapshot({}, 'legacy');
    expect(a.document).toBe(doc);
    expect(b.document).toBe(a.document);
    expect(body(b)).toBe(body(a));
    const h = handleOf(a.text, /button "Add to cart"/);
    expect(h.length).toBeLessThanOrEqual(12);
    expect(h.startsWith(`${a.document}.`)).toBe(true);
    const read = await s.tool('extract', { handle: h }, 'legacy');
    expect(read.isError).toBe(false);
    expect(read.structured.value).toBe('Add to cart');
    expect(await status(`${a.document}.zzz`, 'legacy')).toBe('unknown_handle');
    // Made up, in no document of the tab.
    expect(await status('abcdefgh.1', 'legacy')).toBe('unknown_handle');
  });

  it('gives a look-alike replacement a new handle; the old one answers detached (modern era)', async () => {
    await s.load('basic.html', 'modern');
    const a = await s.snapshot({}, 'modern');
    const old = handleOf(a.text, /button "Go"/);
    const keep = handleOf(a.text, /button "Add to cart"/);
    await s.page.evaluate(() => {
      const b = [...document.querySelectorAll('button')].find((x) => x.textContent === 'Go')!;
      b.replaceWith(b.cloneNode(true));
    });
    const b = await s.snapshot({}, 'modern');
    const fresh = handleOf(b.text, /button "Go"/);
    expect(fresh).not.toBe(old);
    expect(handleOf(b.text, /button "Add to cart"/)).toBe(keep);
    expect(await status(old, 'modern')).toBe('detached');
    expect((await s.tool('click', { handle: old }, 'modern')).error?.code).toBe('detached');
    expect((await s.tool('wait_for', { handle: old, state: 'visible', timeout_ms: 1000 }, 'modern')).error?.code).toBe('detached');
    expect(await status(fresh, 'modern')).toBe('ok');
    const found = await s.tool('wait_for', { handle: fresh, state: 'visible', timeout_ms: 5000 }, 'modern');
    expect(found.isError).toBe(false);
    expect(found.structured.handle).toBe(fresh);
  });

  it('starts a new namespace on navigation, reload and document.open(); old handles are unknown (legacy era)', async () => {
    await s.load('basic.html', 'legacy');
    const a = await s.snapshot({}, 'legacy');
    const h = handleOf(a.text, /button "Go"/);
    // The user reloads the tab.
    await s.page.reload({ waitUntil: 'load' });
    const b = await s.snapshot({}, 'legacy');
    expect(b.document).not.toBe(a.document);
    expect(await status(h, 'legacy')).toBe('unknown_handle');

    await s.page.evaluate(() => {
      document.open();
      document.write('<!doctype html><title>Rewritten</title><button>Fresh</button>');
      document.close();
    });
    const c = await s.snapshot({}, 'legacy');
    expect(c.document).not.toBe(b.document);
    expect(c.text).toContain('button "Fresh"');
    expect(await status(handleOf(b.text, /button "Go"/), 'legacy')).toBe('unknown_handle');

    // The agent navigates.
    const d0 = await s.load('shadow.html', 'legacy');
    const d = await s.snapshot({}, 'legacy');
    expect(d.document).toBe(d0);
    expect(new Set([a.document, b.document, c.document, d.document]).size).toBe(4);
    expect(await status(handleOf(c.text, /button "Fresh"/), 'legacy')).toBe('unknown_handle');
    // The agent reloads.
    const e = await s.tool('navigate', { action: 'reload' }, 'legacy');
    expect(e.structured.document).not.toBe(d.document);
    expect(await status(handleOf(d.text, /button "Open button"/), 'legacy')).toBe('unknown_handle');
  });

  it('refuses a handle from another shared tab as unknown_handle (modern era)', async () => {
    await s.load('basic.html?tab=1', 'modern');
    const two = await s.shareAnother('basic.html?tab=2');
    try {
      const a = await s.snapshot({}, 'modern');
      const b = await s.snapshot({ session: two.session }, 'modern');
      expect(a.document).not.toBe(b.document);
      expect(await status(handleOf(b.text, /button "Go"/), 'modern')).toBe('unknown_handle');
      expect((await s.tool('click', { handle: handleOf(b.text, /button "Go"/) }, 'modern')).error?.code).toBe('unknown_handle');
      expect(await status(handleOf(a.text, /button "Go"/), 'modern')).toBe('ok');
      // And the other way round.
      expect(await status(handleOf(a.text, /button "Go"/), 'modern', two.session)).toBe('unknown_handle');
      expect(await status(handleOf(b.text, /button "Go"/), 'modern', two.session)).toBe('ok');
    } finally {
      await s.rig.share('basic.html?tab=2', false);
      await two.page.close();
      await s.page.bringToFront();
    }
  });

  it('keeps handles and the registry out of reach of page scripts (both eras)', async () => {
    await s.load('hostile.html', 'legacy');
    const r = await s.snapshot({}, 'legacy');
    const handles = r.text.match(/@[a-z0-9]+\.[0-9a-z]+/g)!.map((h) => h.slice(1));
    expect(handles.length).toBeGreaterThanOrEqual(3);
    // Acting through a handle leaves nothing on the page either.
    expect((await s.tool('extract', { handle: handleOf(r.text, /button "Target"/) }, 'modern')).isError).toBe(false);
    const hunt = (await s.page.evaluate('window.hunt()')) as { found: string[]; messages: string[]; chromeRuntime: boolean };
    expect(hunt.found).toEqual([]);
    expect(hunt.chromeRuntime).toBe(false);
    const html = await s.page.evaluate(() => document.documentElement.outerHTML);
    for (const h of handles) {
      expect(hunt.messages.join('\n')).not.toContain(h);
      expect(html).not.toContain(h);
    }
    // Forged requests posted by the page reached nothing: the outline is unchanged and the forged token placed no frame.
    expect(body(await s.snapshot({}, 'modern'))).toBe(body(r));
  });
});
