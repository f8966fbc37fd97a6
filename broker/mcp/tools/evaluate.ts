// evaluate: the escape hatch — one JavaScript expression in the page's main world (docs/tools.md). Needs the exec grant.
// Page side: extension/background/ops/evaluate.ts.
import { EvaluateArgs } from '../../../shared/ops.js';
import { escapeJson } from '../../../shared/snapshot/escape.js';
import type { ToolDefinition } from './types.js';
import { defineTool } from './define.js';
import { click } from './click.js';
import { type } from './input.js';
import { extract, extractRows } from './read.js';
import { snapshot } from './snapshot.js';

export const evaluate: ToolDefinition = defineTool({
  name: 'evaluate',
  title: 'Run a JavaScript expression in the page',
  description: () => `Runs a JavaScript expression in the page, returning its JSON value; asks the user. Prefer ${snapshot.name}, ${extract.name}, ${click.name}.`,
  usage:
    'a promise is awaited; max_chars bounds the result',
  notes: () =>
    `Escape hatch: evaluates one JavaScript expression in the shared tab's own page context (awaiting a promise) and returns its JSON value, bounded. Oriel writes the JSON itself, as JSON.stringify would, whatever the page did to JSON.stringify (a toJSON a page gave every object or array is not called). It can change the page. Each use waits for the user's permission unless they allowed it for longer: Oriel's popup shows them the code (permission_denied or permission_timeout otherwise; operation_disabled if they switched agents' code off). Works on pages whose CSP forbids eval once the user allows user scripts for Oriel; otherwise fails saying what to enable. Prefer ${snapshot.name}, ${extract.name} and ${extractRows.name} to read, ${click.name} and ${type.name} to act. A value whose JSON is longer than max_chars comes back cut: \`value\` is then the first max_chars characters of that JSON as a string, \`truncated\` is true, \`chars\` is the length of the whole JSON (to decide whether to ask for less, or for more with a larger max_chars), and \`type\` is still the type of what the expression returned.`,
  input: EvaluateArgs,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  capability: 'exec',
  async handler(args, ctx) {
    const value = await ctx.callPage('evaluate', args);
    // A cut value is the start of its JSON text: shown as that text, not as a JSON string of it.
    const cut = value.truncated && typeof value.value === 'string' ? value.value : undefined;
    const json = value.value === undefined ? 'undefined' : escapeJson(cut ?? JSON.stringify(value.value));
    const whole = value.chars !== undefined ? `, ${value.chars} in all` : '';
    return { structured: value, text: `${value.type}: ${json}${cut !== undefined ? ` [truncated: the first ${cut.length} characters of its JSON${whole}]` : ''}` };
  },
});
