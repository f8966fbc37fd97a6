// evaluate: the escape hatch — one JavaScript expression in the page's main world (docs/tools.md). Needs the exec grant.
// Page side: extension/background/ops/evaluate.ts.
import { Script } from 'node:vm';
import { orielError } from '../../../shared/errors.js';
import { EvaluateArgs } from '../../../shared/ops.js';
import { escapeJson } from '../../../shared/snapshot/escape.js';
import type { ToolDefinition } from './types.js';
import { defineTool } from './define.js';
import { click } from './click.js';
import { type } from './input.js';
import { extract, extractRows } from './read.js';
import { snapshot } from './snapshot.js';

/**
 * The two ways evaluate runs an expression (extension/background/ops/evaluate.ts), each with the line of the source
 * the expression starts on: as the body of an async arrow function passed to the runner (user scripts: the same
 * source, the runner's left out), and as the value a function made by the Function constructor returns (scripting;
 * the constructor's own source text, ECMA-262 CreateDynamicFunction).
 */
const FORMS: ReadonlyArray<{ source: (expression: string) => string; firstLine: number }> = [
  { source: (e) => `(function () {})(async () => (\n${e}\n), '', 0, 0, {})`, firstLine: 2 },
  { source: (e) => `(function anonymous(\n) {\nreturn (\n${e}\n);\n})`, firstLine: 4 },
];

/**
 * Why `expression` cannot run as evaluate runs it, or undefined: the parser's message and where, as in
 * "SyntaxError: Unexpected token 'const' (line 1)", when it parses in neither of the forms evaluate gives it.
 * Compiles with Node's JavaScript parser (`vm.Script`), which runs nothing. Undefined too when the parser cannot tell
 * (an expression nested too deeply for it): the browser then decides.
 */
export function syntaxErrorOf(expression: string): string | undefined {
  let first: string | undefined;
  for (const form of FORMS) {
    try {
      new Script(form.source(expression), { filename: 'expression' });
      return undefined;
    } catch (err) {
      if (!(err instanceof Error) || err.name !== 'SyntaxError') return undefined;
      if (first !== undefined) continue;
      // The stack's first line is "expression:<line of the source>".
      const line = Number(/^expression:(\d+)/.exec(err.stack ?? '')?.[1]) - form.firstLine + 1;
      const lines = expression.split('\n').length;
      const where = !(line >= 1) ? '' : line > lines ? ' (at its end)' : lines > 1 ? ` (line ${line})` : '';
      first = `SyntaxError: ${err.message}${where}`;
    }
  }
  return first;
}

export const evaluate: ToolDefinition = defineTool({
  name: 'evaluate',
  title: 'Run a JavaScript expression in the page',
  description: () => `Runs a JavaScript expression in the page, returning its JSON value; asks the user. Prefer ${snapshot.name}, ${extract.name}, ${click.name}.`,
  usage:
    'a promise is awaited; max_chars bounds the result',
  notes: () =>
    `Escape hatch: evaluates one JavaScript expression in the shared tab's own page context (awaiting a promise) and returns its JSON value, bounded. Oriel writes the JSON itself, as JSON.stringify would, whatever the page did to JSON.stringify (a toJSON a page gave every object or array is not called). It can change the page. Each use waits for the user's permission unless they allowed it for longer: Oriel's popup shows them the code (permission_denied or permission_timeout otherwise; operation_disabled if they switched agents' code off); an expression that does not parse fails at once with invalid_argument, without asking. Works on pages whose CSP forbids eval once the user allows user scripts for Oriel; otherwise fails saying what to enable. Prefer ${snapshot.name}, ${extract.name} and ${extractRows.name} to read, ${click.name} and ${type.name} to act. A value whose JSON is longer than max_chars comes back cut: \`value\` is then the first max_chars characters of that JSON as a string, \`truncated\` is true, \`chars\` is the length of the whole JSON (to decide whether to ask for less, or for more with a larger max_chars), and \`type\` is still the type of what the expression returned.`,
  input: EvaluateArgs,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  capability: 'exec',
  async handler(args, ctx) {
    // Checked here, before the call reaches the browser: code that cannot run never makes the person answer a prompt.
    const bad = syntaxErrorOf(args.expression);
    if (bad !== undefined) {
      throw orielError('invalid_argument', `The expression does not parse, so nothing ran and the user was not asked: ${bad}. evaluate takes one expression; wrap statements in (() => { …; return value })().`);
    }
    const value = await ctx.callPage('evaluate', args);
    // A cut value is the start of its JSON text: shown as that text, not as a JSON string of it.
    const cut = value.truncated && typeof value.value === 'string' ? value.value : undefined;
    const json = value.value === undefined ? 'undefined' : escapeJson(cut ?? JSON.stringify(value.value));
    const whole = value.chars !== undefined ? `, ${value.chars} in all` : '';
    return { structured: value, text: `${value.type}: ${json}${cut !== undefined ? ` [truncated: the first ${cut.length} characters of its JSON${whole}]` : ''}` };
  },
});
