// Handle lifecycle (SPEC §3) in real Chromium and Firefox: kept across snapshots, new for look-alikes, detached when
// removed, unknown after navigation / document.open() / from another tab, no_snapshot before any; and a hostile page
// cannot enumerate, read or forge handles or the registry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS, launchSnapRig, type SnapRig } from './snapshot-rig/rig.js';

const handleOf = (text: string, re: RegExp): string => {
  const line = text.split('\n').find((l) => re.test(l));
  if (!line) throw new Error(`no line matching ${re} in\n${text}`);
  return /@([a-z0-9]+\.[0-9a-z]+)$/.exec(line)![1]!;
};

describe.each(KINDS)('handles in %s', (kind) => {
  let rig: SnapRig;
  beforeAll(async () => {
    rig = await launchSnapRig(kind);
  });
  afterAll(async () => {
    await rig?.close();
  });

  const resolve = async (page: Parameters<SnapRig['send']>[0], handle: string) => {
    const r = await rig.send(page, 0, 'snapshot.resolve', { handle });
    return (r.value as { status: string }).status;
  };

  it('answers no_snapshot before any snapshot, then keeps handles of unchanged elements', async () => {
    const page = await rig.open('basic.html');
    try {
      expect(await resolve(page, 'abcdefgh.1')).toBe('no_snapshot');
      const a = await rig.snapshot(page);
      const b = await rig.snapshot(page);
      expect(b.document).toBe(a.document);
      expect(b.text).toBe(a.text);
      const h = handleOf(a.text, /button "Add to cart"/);
      expect(h.length).toBeLessThanOrEqual(12);
      expect(h.startsWith(`${a.document}.`)).toBe(true);
      expect(await resolve(page, h)).toBe('ok');
      expect(await resolve(page, `${a.document}.zzz`)).toBe('unknown_handle');
    } finally {
      await page.close();
    }
  });

  it('gives a look-alike replacement a new handle; the old one answers detached', async () => {
    const page = await rig.open('basic.html');
    try {
      const a = await rig.snapshot(page);
      const old = handleOf(a.text, /button "Go"/);
      const keep = handleOf(a.text, /button "Add to cart"/);
      await page.evaluate(() => {
        const b = [...document.querySelectorAll('button')].find((x) => x.textContent === 'Go')!;
        b.replaceWith(b.cloneNode(true));
      });
      const b = await rig.snapshot(page);
      const fresh = handleOf(b.text, /button "Go"/);
      expect(fresh).not.toBe(old);
      expect(handleOf(b.text, /button "Add to cart"/)).toBe(keep);
      expect(await resolve(page, old)).toBe('detached');
      expect(await resolve(page, fresh)).toBe('ok');
    } finally {
      await page.close();
    }
  });

  it('starts a new namespace on navigation, reload and document.open(); old handles are unknown', async () => {
    const page = await rig.open('basic.html');
    try {
      const a = await rig.snapshot(page);
      const h = handleOf(a.text, /button "Go"/);
      await page.reload({ waitUntil: 'load' });
      const b = await rig.snapshot(page);
      expect(b.document).not.toBe(a.document);
      expect(await resolve(page, h)).toBe('unknown_handle');

      await page.evaluate(() => {
        document.open();
        document.write('<!doctype html><title>Rewritten</title><button>Fresh</button>');
        document.close();
      });
      const c = await rig.snapshot(page);
      expect(c.document).not.toBe(b.document);
      expect(c.text).toContain('button "Fresh"');
      expect(await resolve(page, handleOf(b.text, /button "Go"/))).toBe('unknown_handle');

      await page.goto(`${rig.a}/shadow.html`, { waitUntil: 'load' });
      const d = await rig.snapshot(page);
      expect(new Set([a.document, b.document, c.document, d.document]).size).toBe(4);
      expect(await resolve(page, handleOf(c.text, /button "Fresh"/))).toBe('unknown_handle');
    } finally {
      await page.close();
    }
  });

  it('refuses a handle from another tab as unknown_handle', async () => {
    const one = await rig.open('basic.html?tab=1');
    const two = await rig.open('basic.html?tab=2');
    try {
      const a = await rig.snapshot(one);
      const b = await rig.snapshot(two);
      expect(a.document).not.toBe(b.document);
      expect(await resolve(one, handleOf(b.text, /button "Go"/))).toBe('unknown_handle');
      expect(await resolve(one, handleOf(a.text, /button "Go"/))).toBe('ok');
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('keeps handles and the registry out of reach of page scripts', async () => {
    const page = await rig.open('hostile.html');
    try {
      const r = await rig.snapshot(page);
      const handles = r.text.match(/@[a-z0-9]+\.[0-9a-z]+/g)!.map((h) => h.slice(1));
      expect(handles.length).toBeGreaterThanOrEqual(3);
      const hunt = (await page.evaluate('window.hunt()')) as { found: string[]; messages: string[]; chromeRuntime: boolean };
      expect(hunt.found).toEqual([]);
      expect(hunt.chromeRuntime).toBe(false);
      for (const h of handles) {
        expect(hunt.messages.join('\n')).not.toContain(h);
        expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain(h);
      }
      // Forged requests posted by the page reached nothing: the outline is unchanged and the forged token placed no frame.
      expect((await rig.snapshot(page)).text).toBe(r.text);
    } finally {
      await page.close();
    }
  });
});
