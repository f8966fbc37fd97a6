// navigate's URL at the tool boundary: text a URL parser would silently strip or replace (control characters, lone
// surrogates) is refused instead of loading another address than the one given (trial: "\u0000\ud800" loaded /%EF%BF%BD).
import { describe, expect, it } from 'vitest';
import { NavigateArgs } from '../../shared/ops.js';

describe('navigate url', () => {
  it('refuses control characters and lone surrogates, and keeps every well-formed address', () => {
    for (const url of ['\u0000\ud800', 'https://example.com/\u0000', 'https://exa\tmple.com/', 'https://example.com/\udc00', 'https://example.com/a\u007f']) {
      expect(NavigateArgs.safeParse({ url }).success, JSON.stringify(url)).toBe(false);
    }
    for (const url of ['https://example.com/', '/relative?q=1', 'https://example.com/caf\u00e9', 'https://example.com/\ud83d\ude00', 'http://127.0.0.1:8080/a b']) {
      expect(NavigateArgs.safeParse({ url }).success, JSON.stringify(url)).toBe(true);
    }
  });
});
