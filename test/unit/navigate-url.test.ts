// navigate's URL at the tool boundary: text a URL parser would silently strip or replace (control characters, lone
// surrogates) is refused instead of loading another address than the one given (trial: "\u0000\ud800" loaded /%EF%BF%BD).
import { describe, expect, it } from 'vitest';
import { NavigateArgs, navigateUrlProblem } from '../../shared/ops.js';

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

describe('navigate url that names no address', () => {
  it('refuses a bare host or plain words, which would load as a path below the current page, naming the absolute URL to give', () => {
    const cases: Array<[string, string]> = [
      ['example.com', 'https://example.com'],
      ['example.com/a?b=1', 'https://example.com/a?b=1'],
      ['localhost:8080', 'https://localhost:8080'],
      ['example.com:8443/a', 'https://example.com:8443/a'],
      ['not a url', 'https://example.com/'],
      ['cart', 'https://example.com/'],
      ['nav.html', 'https://nav.html'],
    ];
    for (const [url, instead] of cases) {
      const r = NavigateArgs.safeParse({ url });
      expect(r.success, url).toBe(false);
      expect(r.error?.issues[0]?.path, url).toEqual(['url']);
      expect(r.error?.issues[0]?.message, url).toContain(`give an absolute http(s) URL such as ${instead},`);
      expect(navigateUrlProblem(url), url).toBeDefined();
    }
  });

  it('keeps absolute URLs and relative references that stay on the site: a path from the root, a query, a fragment, a dot path', () => {
    for (const url of ['https://example.com', 'HTTP://example.com/a', '/cart', '//cdn.example.com/x', '?q=x', '#reviews', './next', '../up', '..', 'javascript:void 0', 'javascript:1', 'mailto:a@example.com']) {
      expect(navigateUrlProblem(url), url).toBeUndefined();
      expect(NavigateArgs.safeParse({ url }).success, url).toBe(true);
    }
  });
});
