// wait_for, extract, extract_rows: reading the page without changing it.
// Page side: extension/content/actions/wait.ts, extract.ts, rows.ts.
import { ExtractArgs, ExtractRowsArgs, WaitForArgs } from '../../../shared/ops.js';
import { escapeJson, quote } from '../../../shared/snapshot/escape.js';
import type { ToolDefinition } from './types.js';
import { defineTool, exactlyOne, oneElement } from './define.js';
import { evaluate } from './evaluate.js';
import { snapshot } from './snapshot.js';

export const waitFor: ToolDefinition = defineTool({
  name: 'wait_for',
  title: 'Wait for an element or text',
  description: () => `Waits for an element or visible text to appear or go, e.g. content an action loads; returns its handle. To read use ${snapshot.name}.`,
  usage:
    'handle, selector or text; state is visible (default), hidden, attached or detached',
  notes: () =>
    `Waits until a handle, a CSS selector or a piece of visible text becomes visible (default), hidden, attached or detached in the shared tab, reacting to page changes as they happen; by selector or text it follows the tab into a new page if it navigates (give document to fail with stale_document instead). Fails with timeout after timeout_ms (default 10000, at most 50000). Returns a handle for what it found. Does not change the page. Use it after an action that loads content; to read the page now use ${snapshot.name}.`,
  input: WaitForArgs,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  capability: 'read',
  choose: [exactlyOne(['handle', 'selector', 'text'])],
  async handler(args, ctx) {
    const value = await ctx.callPage('wait_for', args);
    return { structured: value, text: `It is ${value.state} (after ${value.elapsed_ms} ms)${value.handle ? `: ${value.handle}` : ''}.` };
  },
});

export const extract: ToolDefinition = defineTool({
  name: 'extract',
  title: 'Read one value from an element',
  description: () => `Reads one value of one element: text, form value, attribute or DOM property. For tables use ${extractRows.name}.`,
  usage:
    'what picks which (default text); name is the attribute or property; max_chars bounds it',
  notes: () =>
    `Reads one value from one element of the shared tab without changing it: its visible text (default), its form value, an attribute, or a live DOM property (e.g. checked, validity). The element is a handle from ${snapshot.name} or a CSS selector matching exactly one element. Password, one-time-code and card fields are refused. For many rows at once use ${extractRows.name}; for page-script state use ${evaluate.name}.`,
  commonArgs: ['session', 'lease'],
  input: ExtractArgs,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  capability: 'read',
  choose: [oneElement(() => snapshot)],
  async handler(args, ctx) {
    const value = await ctx.callPage('extract', args);
    const shown = typeof value.value === 'string' ? quote(value.value) : escapeJson(JSON.stringify(value.value) ?? 'undefined');
    return { structured: value, text: `${value.handle}: ${shown}${value.truncated ? ' [truncated]' : ''}` };
  },
});

export const extractRows: ToolDefinition = defineTool({
  name: 'extract_rows',
  title: 'Read a list or table as records',
  description: () => `Reads a table or list as rows of named columns. For one value use ${extract.name}.`,
  usage:
    'a table or list handle (columns from its headers), or a row selector with columns {name: CSS selector in the row; "a@href" reads an attribute; "" the row}; max_rows per call (default 100) and cursor to continue; link_urls adds the URLs of links',
  notes: () =>
    `Reads a list or table of the shared tab as records without changing it. Give a table handle (columns come from its headers, rowspan/colspan resolved and reported in spanned; link_urls adds the URLs of links) or a list handle, or a row CSS selector plus columns mapping names to selectors relative to each row ("a@href" reads an attribute). Returns at most max_rows rows (default 100) and a next_cursor to continue; complete is false when the page shows only a window of a longer list. For one value use ${extract.name}; to see the page structure use ${snapshot.name}.`,
  commonArgs: ['session', 'lease'],
  input: ExtractRowsArgs,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  capability: 'read',
  choose: [{ keys: ['handle', 'selector'], count: 'at_least_one', message: 'Give a table or list handle, or a row selector.', next: () => snapshot }],
  async handler(args, ctx) {
    const value = await ctx.callPage('extract_rows', args);
    const spans = new Map((value.spanned ?? []).map((s) => [s.row, s.columns]));
    // Cells and column names are page text: quoted, so a cell cannot fake a separator or a row.
    const lines = value.rows.map((r, i) => value.columns.map((c) => quote(r[c] ?? '')).join(' | ') + (spans.has(i) ? `   (${spans.get(i)!.map((c) => quote(c)).join(', ')}: from a spanning cell)` : ''));
    let head = `${value.rows.length} of ${value.total} rows; columns: ${value.columns.map((c) => quote(c)).join(' | ')}`;
    if (!value.complete) {
      const of = value.set_size !== undefined && value.set_size >= 0 ? ` of ${value.set_size}` : '';
      const at = value.window ? `rows ${value.window.first}-${value.window.last}${of}` : `${value.total} rows${of}`;
      head += `\nPartial: the page shows only a window (${at}) of a longer list; scroll it and call again for the rest.`;
    }
    const tail = value.next_cursor ? `\nMore rows: call again with cursor "${value.next_cursor}".` : '';
    return { structured: value, text: `${head}\n${lines.join('\n')}${tail}` };
  },
});
