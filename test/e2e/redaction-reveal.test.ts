// Secret fields a page makes public (docs/redaction.md, "Secret for life" and the card-name rule), in real Chromium and
// Firefox through MCP: a "show password" button, a field the page reveals as it loads, a code whose `autocomplete` a
// button removes, and card fields known only by name or id (test/fixtures/actions/reveal.html, plain and with ?b).
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './harness.js';
import { actionsRig, inPage, type ActionsRig } from './actions-setup.js';

/** The secrets of the plain page (?b swaps each for another of the same length). */
const REVEALED = ['hunter2', 'trustno1', '492817'];
const CARDS = ['4111111111111111', '4012888888881881', '737', '246', '8080'];
const LEAK = new RegExp(REVEALED.join('|'));
const CARD_LEAK = new RegExp(CARDS.join('|'));

/** A screenshot's PNG, base64. */
async function screenshot(client: Client): Promise<string> {
  const r = (await client.callTool({ name: 'screenshot', arguments: { format: 'png' } })) as { isError?: boolean; content?: Array<{ type: string; data?: string; text?: string }> };
  const image = r.content?.find((c) => c.type === 'image')?.data;
  if (r.isError || !image) throw new Error(`screenshot failed: ${JSON.stringify(r.content)}`);
  return image;
}

describe.each(BROWSERS)('secret fields a page reveals, in %s', (kind) => {
  let t: ActionsRig;

  beforeAll(async () => {
    t = await actionsRig(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Loads the page, reads it once, presses both reveal buttons, and checks the page really shows its secrets now. */
  const loadAndReveal = async (variant: '' | '?b'): Promise<string> => {
    const doc = await t.load(`reveal.html${variant}`);
    const before = await t.tool('snapshot');
    expect(before.text).toMatch(/textbox "Password" \[[^\]]*redacted/);
    for (const button of ['#eye', '#show-code']) {
      const r = await t.tool('click', { selector: button });
      expect(r.isError, r.text).toBe(false);
    }
    const page = await inPage(t.page, () => ({
      pw: (document.getElementById('pw') as HTMLInputElement).type,
      pin: (document.getElementById('pin') as HTMLInputElement).type,
      otp: document.getElementById('otp')!.hasAttribute('autocomplete'),
    }));
    expect(page).toEqual({ pw: 'text', pin: 'text', otp: false });
    return doc;
  };

  it('a password field turned into text, and a code that lost its autocomplete, stay secret in snapshot, extract and wait_for (legacy era)', async () => {
    await loadAndReveal('');
    const snap = await t.tool('snapshot');
    expect(snap.isError, snap.text).toBe(false);
    expect(snap.text).not.toMatch(LEAK);
    expect(snap.text).toMatch(/textbox "Password" \[[^\]]*redacted/);
    // Revealed by the page as it loaded, before Oriel read it: still secret.
    expect(snap.text).toMatch(/textbox "PIN" \[[^\]]*redacted/);

    for (const selector of ['#pw', '#pin', '#otp']) {
      for (const args of [{ what: 'value' }, { what: 'text' }, { what: 'property', name: 'value' }, { what: 'attribute', name: 'value' }, { what: 'property', name: 'textContent' }]) {
        const r = await t.tool('extract', { selector, ...args });
        expect(r.error?.code, `${selector} ${JSON.stringify(args)}: ${r.text}`).toBe('permission_denied');
        expect(r.text).not.toMatch(LEAK);
      }
    }
    const form = await t.tool('extract', { selector: 'form', what: 'property', name: 'outerHTML' });
    expect(form.isError, form.text).toBe(false);
    expect(form.text).not.toMatch(LEAK);
    const text = await t.tool('extract', { selector: 'form', what: 'property', name: 'textContent' });
    expect(text.isError, text.text).toBe(false);
    expect(text.text).not.toMatch(LEAK);

    for (const secret of REVEALED) {
      const r = await t.tool('wait_for', { text: secret, timeout_ms: 500 });
      expect(r.error?.code, r.text).toBe('timeout');
    }
    const rows = await t.tool('extract_rows', { selector: 'form label', columns: { v: 'input' } });
    expect(rows.isError, rows.text).toBe(false);
    expect(rows.text).not.toMatch(LEAK);
  });

  /** The secrets of swap.html, and what the agent types into its password fields. */
  const SWAPPED = /hunter22|shadow99|tiger77|sesame42|opensez1/;

  /** Calls a tool and checks nothing of the swapped secrets is anywhere in its result. */
  const clean = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await t.tool(name, args);
    expect(r.isError, `${name}: ${r.text}`).toBe(false);
    expect(JSON.stringify(r), name).not.toMatch(SWAPPED);
    return r;
  };

  /** The handle the snapshot `text` gives the element of `role` named `name`. */
  const handleIn = (text: string, role: string, name: string): string => {
    const m = new RegExp(`${role} "${name}"[^\\n]*?@(\\S+)`).exec(text);
    if (!m) throw new Error(`no ${role} "${name}" in ${text}`);
    return m[1]!;
  };

  it('a "show password" button that replaces the field with a text field (the trial): the new field is secret in the click\'s changes and every later read', async () => {
    await t.load('swap.html');
    await clean('snapshot');
    const click = await clean('click', { selector: 'section button' });
    expect(await inPage(t.page, () => (document.querySelector('[aria-label="Pass shown"]') as HTMLInputElement).value)).toBe('hunter22');
    expect(click.text).toMatch(/textbox "Pass shown" \[[^\]]*redacted/);
    const snap = await clean('snapshot');
    expect(snap.text).toMatch(/textbox "Pass shown" \[[^\]]*redacted/);
    const r = await t.tool('extract', { selector: '[aria-label="Pass shown"]', what: 'value' });
    expect(r.error?.code, r.text).toBe('permission_denied');
    expect((await t.tool('wait_for', { text: 'hunter22', timeout_ms: 500 })).error?.code).toBe('timeout');
    await clean('extract', { selector: 'section', what: 'property', name: 'outerHTML' });
  });

  it('a value typed into the password field, then shown by replacing the field, stays secret', async () => {
    await t.load('swap.html');
    await clean('type', { selector: '#pw', text: 'sesame42', clear: true });
    await clean('click', { selector: 'section button' });
    expect(await inPage(t.page, () => (document.querySelector('[aria-label="Pass shown"]') as HTMLInputElement).value)).toBe('sesame42');
    expect((await clean('snapshot')).text).toMatch(/textbox "Pass shown" \[[^\]]*redacted/);
  });

  it('a field replaced inside a shadow root, in a new wrapper, is secret', async () => {
    await t.load('swap.html');
    const before = await clean('snapshot');
    await clean('click', { handle: handleIn(before.text, 'button', 'Show shadow') });
    expect(await inPage(t.page, () => (document.getElementById('host')!.shadowRoot!.querySelector('input') as HTMLInputElement).value)).toBe('shadow99');
    expect((await clean('snapshot')).text).toMatch(/textbox "Shadow shown" \[[^\]]*redacted/);
  });

  it('a form re-rendered whole from its state (React-style) keeps the password secret in its text field, and over-redacts the form\'s other text fields', async () => {
    await t.load('swap.html');
    const before = await clean('snapshot');
    expect(before.text).toContain('value="ann"');
    await clean('type', { handle: handleIn(before.text, 'textbox', 'Secret'), text: 'opensez1', clear: true });
    await clean('click', { selector: '#app button' });
    expect(await inPage(t.page, () => (document.querySelector('[aria-label="Secret shown"]') as HTMLInputElement).value)).toBe('opensez1');
    const snap = await clean('snapshot');
    expect(snap.text).toMatch(/textbox "Secret shown" \[[^\]]*redacted/);
    // The documented over-redaction: the user name was re-rendered in the same step.
    expect(snap.text).toMatch(/textbox "User" \[[^\]]*redacted/);
    // Hidden and shown again: each render's fields inherit from the last.
    await clean('click', { selector: '#app button' });
    await clean('click', { selector: '#app button' });
    expect((await clean('snapshot')).text).toMatch(/textbox "Secret shown" \[[^\]]*redacted/);
  });

  it('card fields known only by name or id are secret; other names are not (modern era)', async () => {
    await t.load('reveal.html');
    const snap = await t.tool('snapshot', {}, t.modern);
    expect(snap.text).not.toMatch(CARD_LEAK);
    for (const label of ['Card', 'Card again', 'CVC', 'CVV', 'Security code']) expect(snap.text).toMatch(new RegExp(`textbox "${label}" \\[[^\\]]*redacted`));
    expect(snap.text).toContain('public-acc-1');
    expect(snap.text).toContain('public-555');
    for (const selector of ['[name=cardnumber]', '#card-number', '[name=cvc]', '[name="payment[cvv2]"]', '[name=securityCode]']) {
      const r = await t.tool('extract', { selector, what: 'value' }, t.modern);
      expect(r.error?.code, `${selector}: ${r.text}`).toBe('permission_denied');
    }
    expect((await t.tool('extract', { selector: '[name=accnum]', what: 'value' }, t.modern)).structured.value).toBe('public-acc-1');
  });

  it('after the reveal, two pages that differ only in their secrets give the same snapshot, form markup and screenshot', async () => {
    const outputs: Array<{ snap: string; markup: string; shot: string }> = [];
    for (const variant of ['', '?b'] as const) {
      const doc = await loadAndReveal(variant);
      // Document and snapshot ids and the URL differ by design.
      const same = (s: string) => s.split(doc).join('DOC').replaceAll('reveal.html?b', 'reveal.html').replace(/snapshot=\S+/g, 'snapshot=');
      const snap = same((await t.tool('snapshot')).text);
      const markup = same((await t.tool('extract', { selector: 'form', what: 'property', name: 'innerHTML' })).text);
      outputs.push({ snap, markup, shot: await screenshot(t.legacy) });
    }
    expect(outputs[0]!.snap).toMatch(/textbox "Password"/);
    const [a, b] = outputs as [(typeof outputs)[0], (typeof outputs)[0]];
    expect({ markup: b.markup === a.markup, snapshot: b.snap === a.snap, screenshot: b.shot === a.shot }).toEqual({ markup: true, snapshot: true, screenshot: true });
    expect(b.snap).toBe(a.snap);
  });
});
