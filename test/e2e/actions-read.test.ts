// wait_for, extract and extract_rows through MCP in real browsers (docs/tools.md): slow-appearing and vanishing
// content, text in shadow roots, timeouts, every kind of value, redaction refused, lists and span-resolved tables
// with a cursor, and the errors each tool returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './harness.js';
import { actionsRig, inPage, type ActionsRig } from './actions-setup.js';

describe.each(BROWSERS)('read tools in %s', (kind) => {
  let t: ActionsRig;

  beforeAll(async () => {
    t = await actionsRig(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('wait_for: selector and text appear, a handle hides and detaches, shadow text attaches — as they happen', async () => {
    // The page changes when the test releases it, after the waits were asked for (and not before the handles exist).
    await t.load('read.html?after=manual');
    const spinner = await t.handle('#spinner');
    const willGo = await t.handle('#will-go');
    const waits = Promise.all([
      t.tool('wait_for', { selector: '#arrived', timeout_ms: 30_000 }),
      t.tool('wait_for', { text: 'results are READY', timeout_ms: 30_000 }, t.modern),
      t.tool('wait_for', { handle: spinner, state: 'hidden', timeout_ms: 30_000 }),
      t.tool('wait_for', { handle: willGo, state: 'detached', timeout_ms: 30_000 }),
      t.tool('wait_for', { text: 'shadow greeting', state: 'attached', timeout_ms: 30_000 }),
      t.tool('wait_for', { selector: '#will-hide', state: 'hidden', timeout_ms: 30_000 }),
    ]);
    await inPage(t.page, () => (window as unknown as { releaseChanges(): void }).releaseChanges());
    const [sel, text, hidden, detached, shadow, styleHidden] = await waits;
    for (const r of [sel, text, hidden, detached, shadow, styleHidden]) expect(r.isError, r.text).toBe(false);
    expect(sel.structured.handle).toBe(text.structured.handle);
    expect(detached.structured.handle).toBeUndefined();
    expect(await t.page.$eval('#arrived', (el) => el.isConnected)).toBe(true);
    // The found element is usable at once.
    const read = await t.tool('extract', { handle: shadow.structured.handle });
    expect(read.structured.value).toBe('Shadow greeting');
  });

  it('wait_for errors: timeout, detached handle waiting to be visible, several targets, nothing given', async () => {
    await t.load('read.html?after=manual');
    const willGo = await t.handle('#will-go');
    const timeout = await t.tool('wait_for', { selector: '#never', timeout_ms: 200 });
    expect(timeout.error?.code).toBe('timeout');
    await inPage(t.page, () => (window as unknown as { releaseChanges(): void }).releaseChanges());
    expect((await t.tool('wait_for', { handle: willGo, state: 'detached' })).isError).toBe(false);
    expect((await t.tool('wait_for', { handle: willGo })).error?.code).toBe('detached');
    expect((await t.tool('wait_for', { selector: '#a', text: 'b' })).error?.code).toBe('invalid_argument');
    expect((await t.tool('wait_for', {})).error?.code).toBe('invalid_argument');
    expect((await t.tool('wait_for', { selector: '[[' })).error?.code).toBe('invalid_argument');
    const doc = await t.load('read.html?fresh');
    expect((await t.tool('wait_for', { handle: `${doc}.1` })).error?.code).toBe('no_snapshot');
    expect((await t.tool('wait_for', { handle: 'zzzzzzzz.1' })).error?.code).toBe('unknown_handle');
  });

  it('extract: text, value, attribute, live property; truncation; redacted fields refused', async () => {
    await t.load('read.html');
    const price = await t.handle('#price');
    expect((await t.tool('extract', { handle: price })).structured).toMatchObject({ handle: price, value: 'Price: $39.00', truncated: false });
    expect((await t.tool('extract', { handle: price, max_chars: 5 })).structured).toMatchObject({ value: 'Price', truncated: true });
    expect((await t.tool('extract', { handle: price, what: 'attribute', name: 'data-sku' })).structured.value).toBe('kb-1');
    expect((await t.tool('extract', { handle: price, what: 'attribute', name: 'nope' })).structured.value).toBeNull();
    expect((await t.tool('extract', { selector: '#qty', what: 'value' })).structured.value).toBe('3');
    expect((await t.tool('extract', { selector: '#agree', what: 'value' })).structured.value).toBe(true);
    expect((await t.tool('extract', { selector: '#multi', what: 'value' })).structured.value).toEqual(['a', 'b']);
    await t.page.$eval('#agree', (el) => ((el as HTMLInputElement).checked = false));
    expect((await t.tool('extract', { selector: '#agree', what: 'property', name: 'checked' })).structured.value).toBe(false);
    expect((await t.tool('extract', { selector: '#qty', what: 'property', name: 'validity' })).structured.value).toMatchObject({ valid: true });
    for (const selector of ['#pw', '#otp']) {
      const r = await t.tool('extract', { selector, what: 'value' });
      expect(r.error?.code).toBe('permission_denied');
      expect(r.text).not.toMatch(/hunter2|123456/);
    }
    expect((await t.tool('extract', { selector: '#otp', what: 'attribute', name: 'value' })).error?.code).toBe('permission_denied');
  });

  it('extract errors: missing name, method, no such property, no value, no match, several matches, handles', async () => {
    const doc = await t.load('read.html');
    expect((await t.tool('extract', { handle: `${doc}.1` })).error?.code).toBe('no_snapshot');
    const price = await t.handle('#price');
    expect((await t.tool('extract', { handle: price, what: 'attribute' })).error?.code).toBe('invalid_argument');
    expect((await t.tool('extract', { handle: price, what: 'property', name: 'click' })).error?.code).toBe('invalid_argument');
    expect((await t.tool('extract', { handle: price, what: 'property', name: 'nonesuch' })).error?.code).toBe('invalid_argument');
    // Object internals and prototypes are refused as the caller's mistake, not failed as an internal error.
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty']) {
      const r = await t.tool('extract', { handle: price, what: 'property', name });
      expect(r.error?.code, `${name}: ${r.text}`).toBe('invalid_argument');
    }
    expect((await t.tool('extract', { handle: price, what: 'value' })).error?.code).toBe('invalid_argument');
    expect((await t.tool('extract', { selector: '#nope' })).error?.code).toBe('not_actionable');
    expect((await t.tool('extract', { selector: 'p' })).error?.code).toBe('invalid_argument');
    expect((await t.tool('extract', { handle: `${doc}.zz` })).error?.code).toBe('unknown_handle');
    await t.page.evaluate(() => document.getElementById('price')!.remove());
    expect((await t.tool('extract', { handle: price })).error?.code).toBe('detached');
  });

  it('extract_rows: row selector with relative columns and absolute links; a list handle', async () => {
    await t.load('read.html');
    const r = await t.tool('extract_rows', { selector: '#products .product', columns: { name: 'h3', price: '.price', url: 'a@href' } });
    expect(r.structured.columns).toEqual(['name', 'price', 'url']);
    expect(r.structured.rows).toEqual([
      { name: 'Wireless keyboard', price: '$39.00', url: `${t.site.url}p/kb-1` },
      { name: 'Mouse', price: '$19.00', url: `${t.site.url}p/m-1` },
      { name: 'Monitor', price: null, url: `${t.site.url}p/mon` },
    ]);
    const list = await t.tool('extract_rows', { handle: await t.handle('#products') });
    expect((list.structured.rows as unknown[]).length).toBe(3);
  });

  it('extract_rows: a table handle gives header-derived columns with rowspan/colspan resolved', async () => {
    await t.load('read.html');
    const r = await t.tool('extract_rows', { handle: await t.handle('#sales') });
    expect(r.structured.columns).toEqual(['Region', 'Q1 / Jan', 'Q1 / Feb', 'Total']);
    expect(r.structured.rows).toEqual([
      { Region: 'North', 'Q1 / Jan': '1', 'Q1 / Feb': '2', Total: '3' },
      { Region: 'North', 'Q1 / Jan': '4', 'Q1 / Feb': '5', Total: '9' },
      { Region: 'South', 'Q1 / Jan': '6 (both)', 'Q1 / Feb': '6 (both)', Total: '6' },
    ]);
    const dup = await t.tool('extract_rows', { handle: await t.handle('#plain-table') });
    expect(dup.structured.columns).toEqual(['Name', 'Name (2)']);
  });

  it('extract_rows: bounded pages with a cursor, and its errors', async () => {
    await t.load('read.html');
    const big = await t.handle('#big');
    const first = await t.tool('extract_rows', { handle: big });
    expect(first.structured).toMatchObject({ total: 250, truncated: true, next_cursor: '100' });
    expect((first.structured.rows as unknown[]).length).toBe(100);
    const rest = await t.tool('extract_rows', { handle: big, cursor: '100', max_rows: 1000 });
    expect((rest.structured.rows as Array<{ n: string }>)[0]).toEqual({ n: '100' });
    expect(rest.structured).toMatchObject({ truncated: false });
    expect(rest.structured.next_cursor).toBeUndefined();
    expect((await t.tool('extract_rows', { handle: big, cursor: 'x' })).error?.code).toBe('invalid_argument');
    expect((await t.tool('extract_rows', {})).error?.code).toBe('invalid_argument');
    expect((await t.tool('extract_rows', { handle: await t.handle('#price') })).error?.code).toBe('invalid_argument');
    expect((await t.tool('extract_rows', { selector: 'li', columns: { a: '[[' } })).error?.code).toBe('invalid_argument');
  });
});
