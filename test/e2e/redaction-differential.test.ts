// Redaction as non-interference (docs/redaction.md) in real Chromium and Firefox, through MCP: every tool — with hostile
// selectors, text queries and handles — run over two loads of one page that differ only in redacted content
// (test/fixtures/actions/secrets.html, plain and with ?b; "#private" as the user's redaction selector) gives the same
// outputs: text, structured content, errors and screenshot pixels (timings and document ids aside).
import { writeFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, until } from './harness.js';
import { actionsRig, type ActionsRig } from './actions-setup.js';

/** One tool call's whole outcome, the image included. */
interface Full {
  isError: boolean;
  structured: Record<string, unknown>;
  text: string;
  image?: string;
}

async function full(client: Client, name: string, args: Record<string, unknown>): Promise<Full> {
  const r = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    content?: Array<{ type: string; text?: string; data?: string }>;
  };
  const content = r.content ?? [];
  const image = content.find((c) => c.type === 'image')?.data;
  return {
    isError: r.isError === true,
    structured: r.structuredContent ?? {},
    text: content.filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n'),
    ...(image !== undefined && { image }),
  };
}

/** Selectors an agent could use as yes/no questions about redacted content. Each must answer the same on both pages. */
const HOSTILE_SELECTORS = [
  'form:has(input[value^="4"])',
  'form:has([name=cc]:valid)',
  'input:valid',
  'input:invalid',
  '[name=cc]:valid',
  '[name=cc]:user-invalid',
  'form:invalid button',
  'input[value]',
  'input[v\\61lue^="4"]',
  'input:placeholder-shown',
  '[name=pw]:placeholder-shown',
  ':checked',
  'option:checked',
  'select option',
  '[name=ct] > :first-child',
  '[name=ct]:not(:checked)',
  '#private',
  '#private a',
  '#private[data-token^=A]',
  '[data-token]',
  '.balance',
  'a[href*=AB12]',
  'a[href*=token]',
  '#private + h1',
  '#private ~ h1',
  '[data-token^=A] ~ *',
  'div:empty',
  'div:not(:empty)',
  'div:nth-of-type(1)',
  'h1:nth-child(3)',
  ':nth-child(2 of .balance)',
  '[autocomplete=cc-csc]:in-range',
  'p:dir(ltr)',
  'div:focus-within',
  'body > div',
  'label:nth-child(4) select',
];

/** Text an agent could wait for: redacted text, secret values of both pages, and public text. */
const TEXTS = ['Points', '777', 'Wallet', 'Balance', '12,345', '98,765', 'Statement', 'hunter22', 'qwerty12', '492817', '530146', 'Amex', 'Discover', 'Visa', 'Mastercard', 'Checkout', 'Card'];

/** Snapshot queries, the same idea through the outline. */
const QUERIES = ['Balance', '4111', '5500', 'Amex', 'Mastercard', 'hunter', 'Remember', 'token', 'Checkout'];

describe.each(BROWSERS)('redaction as non-interference in %s', (kind) => {
  let t: ActionsRig;

  beforeAll(async () => {
    t = await actionsRig(kind);
    expect(await t.rig.setRedaction(['#private'])).toMatch(/Saved/);
    await t.page.bringToFront();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Runs every tool over one load of the page; returns labelled outcomes in order. */
  async function run(variant: '' | '?b'): Promise<Array<[string, Full]>> {
    const outs: Array<[string, Full]> = [];
    const call = async (label: string, name: string, args: Record<string, unknown> = {}) => {
      const r = await full(t.legacy, name, args);
      outs.push([label, r]);
      return r;
    };
    const loaded = await call('navigate', 'navigate', { url: `${t.site.url}secrets.html${variant}` });
    expect(loaded.isError, loaded.text).toBe(false);
    // The page really holds this variant's secrets (the comparison would prove nothing otherwise).
    const otp = await t.page.$eval('[name=otp]', (el) => (el as HTMLInputElement).value);
    expect(otp).toBe(variant ? '530146' : '492817');

    // Screenshots first, before any field has focus (a blinking caret outside a mask would differ by itself).
    await call('screenshot png', 'screenshot', { format: 'png' });
    await call('screenshot jpeg', 'screenshot', {});
    await call('screenshot of the form', 'screenshot', { selector: 'form', format: 'png' });
    await call('screenshot of a secret field', 'screenshot', { selector: '[name=pw]' });
    await call('screenshot of the redacted region', 'screenshot', { selector: '#private' });

    const snap = await call('snapshot', 'snapshot', {});
    for (const query of QUERIES) await call(`snapshot query ${query}`, 'snapshot', { query });
    await call('snapshot interactive', 'snapshot', { interactive_only: true });
    await call('snapshot options', 'snapshot', { roles: ['combobox', 'option', 'checkbox'] });
    await call('list_sessions', 'list_sessions');

    // Handles the outline gave: secret fields, the checkbox named after the code, the frame.
    const handles = [...(snap.text.matchAll(/@([a-z0-9]+\.[0-9a-z]+)/g) ?? [])].map((m) => m[1]!);
    expect(handles.length).toBeGreaterThan(5);
    for (const [i, h] of handles.entries()) {
      await call(`extract text handle ${i}`, 'extract', { handle: h });
      await call(`extract value handle ${i}`, 'extract', { handle: h, what: 'value' });
      await call(`extract labels handle ${i}`, 'extract', { handle: h, what: 'property', name: 'labels' });
      await call(`wait_for handle ${i}`, 'wait_for', { handle: h, state: 'visible', timeout_ms: 0 });
      await call(`snapshot root handle ${i}`, 'snapshot', { root: h });
    }

    for (const [selector, what, name] of [
      ['form', 'text'],
      ['form', 'property', 'innerHTML'],
      ['form', 'property', 'outerHTML'],
      ['form', 'property', 'textContent'],
      ['form', 'property', 'elements'],
      ['body', 'property', 'innerText'],
      ['body', 'property', 'textContent'],
      ['body', 'property', 'children'],
      ['[name=cc]', 'value'],
      ['[name=cc]', 'property', 'validity'],
      ['[name=ct]', 'property', 'selectedIndex'],
      ['[name=ct]', 'attribute', 'autocomplete'],
      ['#remember', 'property', 'ariaLabelledByElements'],
      ['h1', 'property', 'previousElementSibling'],
      ['h1', 'property', 'baseURI'],
      ['#wallet', 'text'],
      ['#wallet', 'property', 'innerText'],
      ['#wallet', 'property', 'shadowRoot'],
    ] as const) {
      await call(`extract ${selector} ${what} ${name ?? ''}`, 'extract', { selector, what, ...(name && { name }) });
    }
    await call('extract_rows labels', 'extract_rows', { selector: 'label', columns: { t: '', input: 'input', select: 'select', type: 'input@type' } });
    await call('extract_rows body', 'extract_rows', { selector: 'body > *', columns: { t: '', token: '@data-token' } });
    await call('extract_rows links', 'extract_rows', { selector: 'a', columns: { t: '', href: '@href' } });
    await call('extract_rows hostile column', 'extract_rows', { selector: 'form', columns: { v: 'select option:checked' } });

    for (const selector of HOSTILE_SELECTORS) {
      await call(`wait_for ${selector}`, 'wait_for', { selector, state: 'attached', timeout_ms: 0 });
      await call(`extract ${selector}`, 'extract', { selector });
      await call(`extract_rows ${selector}`, 'extract_rows', { selector, columns: { t: '' } });
    }
    for (const text of TEXTS) await call(`wait_for text ${text}`, 'wait_for', { text, state: 'attached', timeout_ms: 0 });

    // Acting: a click that finds nothing in the redacted region; choosing an option of the secret select (present on
    // one page only) answers the same; typing one page's secret into a public field shows up the same on both.
    await call('click redacted link', 'click', { selector: '#private a', timeout_ms: 0 });
    await call('click covered button', 'click', { selector: '#later', timeout_ms: 0 });
    await call('click heading', 'click', { selector: 'h1' });
    for (const option of ['Visa', 'Mastercard', 'Nope']) await call(`type ct ${option}`, 'type', { selector: '[name=ct]', text: option });
    await call('type cvc', 'type', { selector: '[name=cvc]', text: '1', clear: false });
    await call('type guess', 'type', { selector: '#q', text: '492817' });
    await call('snapshot query guess', 'snapshot', { query: '492817' });
    await call('wait_for guess', 'wait_for', { text: '492817', state: 'attached', timeout_ms: 0 });
    await call('extract guess', 'extract', { selector: '#q', what: 'value' });

    // A GET form puts its secret fields in the next page's URL. The card number is typed so both pages pass its pattern.
    await call('type card', 'type', { selector: '[name=cc]', text: '4000000000000002' });
    const pay = await call('click Pay', 'click', { selector: 'form button' });
    expect(pay.structured.navigation_started, pay.text).toBe(true);
    // Parsed to the end before the first snapshot of it: a walk during parsing sees the frame before the wallet's shadow
    // root (its script comes after the frame), and the handles it gives would number them in another order.
    await until(async () => {
      const submitted = (await t.rig.browser.pages()).find((p) => p.url().includes('otp='));
      return (submitted && (await submitted.evaluate(() => document.readyState).catch(() => 'loading')) !== 'loading') || undefined;
    }, 10_000, 'the form to submit and its page to be parsed');
    await until(async () => {
      const r = await full(t.legacy, 'snapshot', {});
      return (!r.isError && r.text.includes('otp=')) || undefined;
    }, 10_000, 'the submitted page');
    // The tab list settles in steps after a navigation (address, then title and load state): wait until two reads in a
    // row agree, so both pages are compared at rest rather than wherever the browser's updates happen to be.
    let lastList = '';
    await until(async () => {
      const text = (await full(t.legacy, 'list_sessions', {})).text;
      const settled = text.includes('otp=') && text === lastList;
      lastList = text;
      return settled || undefined;
    }, 10_000, 'the session to show the new URL');
    await call('snapshot after submit', 'snapshot', {});
    await call('list_sessions after submit', 'list_sessions');
    await call('extract baseURI after submit', 'extract', { selector: 'h1', what: 'property', name: 'baseURI' });
    await call('extract_rows links after submit', 'extract_rows', { selector: 'a', columns: { href: '@href' } });
    await call('reload after submit', 'navigate', { action: 'reload' });
    return outs;
  }

  /** The outcome without what may differ: document and snapshot ids, timings (an action's changes' too), and the `?b` of the page's own URL. */
  function normalise(outs: Array<[string, Full]>): Array<[string, string]> {
    const ids = new Set<string>();
    for (const [, r] of outs) {
      const json = JSON.stringify(r.structured) + r.text;
      for (const m of json.matchAll(/"document":"([a-z0-9]+)"|@([a-z0-9]{8})\.|"handle":"([a-z0-9]{8})\.|doc=([a-z0-9]{8})/g)) ids.add((m[1] ?? m[2] ?? m[3] ?? m[4])!);
      // Snapshot ids are random per snapshot, as document ids are per document.
      for (const m of json.matchAll(/snapshot=(s[a-z0-9]{8})|"snapshot":"(s[a-z0-9]{8})"/g)) ids.add((m[1] ?? m[2])!);
    }
    const order: string[] = [];
    return outs.map(([label, r]) => {
      const { elapsed_ms: _e, timing: _t, ...structured } = r.structured;
      // An action's `changes` carries the diff's own timing, as a snapshot does (both measured, never compared).
      if (structured.changes && typeof structured.changes === 'object') {
        const { timing: _ct, ...changes } = structured.changes as Record<string, unknown>;
        structured.changes = changes;
      }
      let s = JSON.stringify({ isError: r.isError, structured, text: r.text.replace(/after \d+ ms/, 'after N ms'), image: r.image ?? null });
      for (const id of ids) {
        if (!s.includes(id)) continue;
        if (!order.includes(id)) order.push(id);
        s = s.split(id).join(`DOC${order.indexOf(id)}`);
      }
      return [label, s.split('secrets.html?b').join('secrets.html')];
    });
  }

  it('every tool gives the same outputs on two pages that differ only in redacted content', async () => {
    const a = normalise(await run(''));
    const b = normalise(await run('?b'));
    if (process.env.ORIEL_DIFF_DIR) {
      writeFileSync(`${process.env.ORIEL_DIFF_DIR}/${kind}-a.json`, JSON.stringify(a, null, 1));
      writeFileSync(`${process.env.ORIEL_DIFF_DIR}/${kind}-b.json`, JSON.stringify(b, null, 1));
    }
    expect(b.map(([l]) => l)).toEqual(a.map(([l]) => l));
    const differing = a.filter(([, out], i) => b[i]![1] !== out).map(([label]) => label);
    expect(differing).toEqual([]);

    // What the comparison stands on: the oracles named in the tracker are answered, not merely equal.
    const get = (label: string) => JSON.parse(a.find(([l]) => l === label)![1]) as Full & { structured: Record<string, unknown> };
    expect(get('screenshot png').image).toBeTruthy();
    expect(get('screenshot of a secret field').structured).toMatchObject({ error: { code: 'permission_denied' } });
    for (const s of ['form:has(input[value^="4"])', 'input:valid', '[name=cc]:user-invalid', 'input[value]', '#private + h1', ':nth-child(2 of .balance)']) {
      expect(get(`wait_for ${s}`).structured, s).toMatchObject({ error: { code: 'invalid_argument' } });
    }
    expect(get('click covered button').structured).toMatchObject({ error: { code: 'not_actionable', details: { covered_by: 'a redacted element' } } });
    expect(get('type ct Nope').isError).toBe(false);
    expect(get('type ct Nope').structured).toMatchObject({ redacted: true });
    expect(get('snapshot query guess').text).toContain('492817');
    const after = get('snapshot after submit').text;
    expect(after).toContain('otp=[redacted]');
    expect(after).not.toMatch(/492817|530146|hunter22|qwerty12|4000000000000002/);
    expect(get('reload after submit').structured.url).toMatch(/otp=\[redacted\]&cc=\[redacted\]&cvc=\[redacted\]&ct=\[redacted\]&pw=\[redacted\]/);
    expect(get('list_sessions after submit').text).toContain('pw=[redacted]');
  });

  it("a secret <select> sized by its options moves what follows it on its line, and nothing else; its own box is painted out (the documented layout limit)", async () => {
    /** The tab's screenshot and the select's box (CSS pixels) on one load of the page. */
    const shoot = async (variant: '' | '?b') => {
      const loaded = await full(t.legacy, 'navigate', { url: `${t.site.url}select-layout.html${variant}` });
      expect(loaded.isError, loaded.text).toBe(false);
      const box = await t.page.$eval('select', (el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, dpr: devicePixelRatio };
      });
      const shot = await full(t.legacy, 'screenshot', { format: 'png' });
      expect(shot.image, shot.text).toBeTruthy();
      return { box, image: shot.image! };
    };
    const a = await shoot('');
    const b = await shoot('?b');
    expect(b.box.right - b.box.left).toBeGreaterThan(a.box.right - a.box.left);
    // Decoded by the browser itself: where the two images differ, and whether each select's box is one colour.
    const found = await t.page.evaluate(async (one, two) => {
      const pixels = async (b64: string) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const g = canvas.getContext('2d')!;
        g.drawImage(bitmap, 0, 0);
        return g.getImageData(0, 0, bitmap.width, bitmap.height);
      };
      const [p, q] = [await pixels(one.image), await pixels(two.image)];
      let diff: { left: number; top: number; right: number; bottom: number } | undefined;
      for (let y = 0; y < Math.min(p.height, q.height); y++) {
        for (let x = 0; x < Math.min(p.width, q.width); x++) {
          const i = (y * p.width + x) * 4;
          const j = (y * q.width + x) * 4;
          if (p.data[i] === q.data[j] && p.data[i + 1] === q.data[j + 1] && p.data[i + 2] === q.data[j + 2]) continue;
          diff = diff ? { left: Math.min(diff.left, x), top: Math.min(diff.top, y), right: Math.max(diff.right, x), bottom: Math.max(diff.bottom, y) } : { left: x, top: y, right: x, bottom: y };
        }
      }
      /** The distinct colours inside a box (device pixels), its edges left out (anti-aliasing). */
      const colours = (img: ImageData, box: { left: number; top: number; right: number; bottom: number; dpr: number }) => {
        const seen = new Set<string>();
        for (let y = Math.ceil(box.top * box.dpr) + 1; y < Math.floor(box.bottom * box.dpr) - 1; y++) {
          for (let x = Math.ceil(box.left * box.dpr) + 1; x < Math.floor(box.right * box.dpr) - 1; x++) {
            const i = (y * img.width + x) * 4;
            seen.add(`${img.data[i]},${img.data[i + 1]},${img.data[i + 2]}`);
          }
        }
        return seen.size;
      };
      return { diff, colours: [colours(p, one.box), colours(q, two.box)] };
    }, a, b);
    // Each select is painted out whole: one colour over its box.
    expect(found.colours).toEqual([1, 1]);
    // The screenshots differ (the limit docs/redaction.md names) only on the select's line, from its left edge on: the
    // wider mask and the public button it pushed right. Everything above, below and before it is the same.
    expect(found.diff).toBeDefined();
    const dpr = a.box.dpr;
    expect(found.diff!.left).toBeGreaterThanOrEqual(Math.floor((a.box.left - 4) * dpr));
    expect(found.diff!.top).toBeGreaterThanOrEqual(Math.floor((Math.min(a.box.top, b.box.top) - 4) * dpr));
    expect(found.diff!.bottom).toBeLessThanOrEqual(Math.ceil((Math.max(a.box.bottom, b.box.bottom) + 4) * dpr));
  });
});
