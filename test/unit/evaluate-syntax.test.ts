// evaluate's syntax check in the broker (broker/mcp/tools/evaluate.ts): code that parses in neither form evaluate runs
// it in is refused before the browser (and the person) hears of it; code that parses in either is never refused.
import { describe, expect, it } from 'vitest';
import { syntaxErrorOf } from '../../broker/mcp/tools/evaluate.js';

describe('syntaxErrorOf', () => {
  it('names the parser error and where it is', () => {
    expect(syntaxErrorOf('const x = 1; x')).toBe("SyntaxError: Unexpected token 'const'");
    expect(syntaxErrorOf('1 +* 2')).toBe("SyntaxError: Unexpected token '*'");
    expect(syntaxErrorOf('[1,\n2 3]')).toBe('SyntaxError: Unexpected number (line 2)');
    expect(syntaxErrorOf('(1 +')).toMatch(/^SyntaxError: .+ \(at its end\)$/);
    expect(syntaxErrorOf('`open template')).toMatch(/^SyntaxError: /);
  });

  it('accepts every expression one of the two forms takes', () => {
    for (const ok of [
      '1 + 1',
      '{ a: 1, b: [2, 3] }',
      "document.querySelector('h1').textContent",
      '1 // a comment at the end',
      '(() => {\n  const rows = [...document.querySelectorAll("tr")];\n  return rows.length;\n})()',
      '/[a-z]+/giu.test("abc")',
      '`a ${1 + 1} b`',
      // Only the user-script form, an async arrow function, takes await …
      'await fetch("/").then((r) => r.status)',
      // … and only the Function constructor's, a plain function, takes new.target or await as a name.
      'new.target',
      '((await) => await)(1)',
    ]) {
      expect(syntaxErrorOf(ok), ok).toBeUndefined();
    }
  });

  it('leaves to the browser what is too deeply nested for the parser to tell', () => {
    expect(syntaxErrorOf('('.repeat(100_000))).toBeUndefined();
  });
});
