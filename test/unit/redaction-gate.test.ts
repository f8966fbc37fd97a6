// The selector gate (shared/selectors.ts) and URL scrubbing (shared/url-redaction.ts): the pure halves of redaction as
// non-interference (docs/redaction.md). The page halves run in real browsers in test/e2e/redaction-differential.test.ts.
import { describe, expect, it } from 'vitest';
import { OrielError } from '../../shared/errors.js';
import { splitSelectorList, vetSelector } from '../../shared/selectors.js';
import { scrubUrl } from '../../shared/url-redaction.js';

function refusal(selector: string): string {
  try {
    vetSelector(selector);
  } catch (err) {
    expect(err).toBeInstanceOf(OrielError);
    expect((err as OrielError).data.code).toBe('invalid_argument');
    return (err as OrielError).data.message;
  }
  throw new Error(`${selector} was allowed`);
}

describe('selector gate', () => {
  it('allows what agents use, re-serialised, and flags what the page must be checked for', () => {
    expect(vetSelector('form > button[type=submit]')).toEqual({ css: 'form > button[type="submit"]', siblings: false, ofType: false, state: false });
    expect(vetSelector('tr:nth-child(2n+1) td:first-child:not(.x), :is(a, b)').css).toBe('tr:nth-child(2n+1) td:first-child:not(.x), :is(a, b)');
    expect(vetSelector('#a + h1').siblings).toBe(true);
    expect(vetSelector('li ~ li').siblings).toBe(true);
    expect(vetSelector('li:nth-of-type(2)').ofType).toBe(true);
    expect(vetSelector('input:not(:checked)').state).toBe(true);
    expect(vetSelector('input:placeholder-shown, div:empty').state).toBe(false);
  });

  it('refuses constructs that observe redacted content, however spelled', () => {
    for (const s of ['div:has(a)', 'form:not(:has(input))', ':is(:has(p))']) expect(refusal(s)).toMatch(/:has\(\)/);
    for (const s of ['input:valid', 'form:INVALID', 'input:user-invalid', 'input:user-valid', 'input:in-range', 'input:out-of-range']) expect(refusal(s)).toMatch(/refused/);
    for (const s of ['input[value]', 'input[VALUE^=a]', 'input[*|value]', 'input[v\\61lue^=h]', 'input[ value ]']) expect(refusal(s)).toMatch(/"value" attribute/);
    expect(refusal(':nth-child(2 of .x)')).toMatch(/An\+B/);
    expect(refusal('li:nth-last-of-type(1 of .x)')).toMatch(/An\+B/);
    expect(refusal('p:dir(rtl)')).toMatch(/:dir/);
    expect(refusal('div:focus-within')).toMatch(/focus-within/);
    expect(refusal('p::before')).toMatch(/pseudo-element/);
    expect(refusal('a:hover-ish')).toMatch(/not among/);
    expect(refusal('p:contains(x)')).toMatch(/contains/);
  });

  it('refuses what it cannot parse instead of passing it on', () => {
    for (const s of ['', 'a[', 'input[/* */value^=h]', ':not(', 'a,']) expect(() => vetSelector(s)).toThrow(OrielError);
  });
});

describe('selector lists of the page\'s style sheets', () => {
  it('splits at top-level commas only, trimmed, without empty parts', () => {
    expect(splitSelectorList('a:hover, :is(b, c) > d ,[title="x,y"]::before,')).toEqual(['a:hover', ':is(b, c) > d', '[title="x,y"]::before']);
    expect(splitSelectorList("e[data-q='\\',']")).toEqual(["e[data-q='\\',']"]);
  });
});

describe('URL scrubbing', () => {
  const names = ['otp', 'card number', 'pw'];
  it('replaces the values of named parameters only, leaving the rest byte for byte', () => {
    expect(scrubUrl('https://x.test/pay?otp=492817&q=a%20b&pw=hunter%2622#top', names)).toBe('https://x.test/pay?otp=[redacted]&q=a%20b&pw=[redacted]#top');
    expect(scrubUrl('/pay?card+number=4111&card%20number=5500', names)).toBe('/pay?card+number=[redacted]&card%20number=[redacted]');
  });
  it('keeps empty values, URLs without a query, and fragments that look like queries', () => {
    expect(scrubUrl('/pay?otp=&pw', names)).toBe('/pay?otp=&pw');
    expect(scrubUrl('/pay#otp=1', names)).toBe('/pay#otp=1');
    expect(scrubUrl('/pay?a=1#?otp=1', names)).toBe('/pay?a=1#?otp=1');
    expect(scrubUrl('/pay?otp=1', [])).toBe('/pay?otp=1');
  });
  it('scrubs by name, never by value: what is shown does not depend on what the field held', () => {
    expect(scrubUrl('/p?otp=111111', names)).toBe(scrubUrl('/p?otp=999999', names));
  });
});
