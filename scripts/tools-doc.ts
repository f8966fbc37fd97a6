// Writes the generated references so they cannot drift from the code: docs/tools.md from the tool definitions (names,
// descriptions, arguments, annotations) and the error table of docs/native-messaging.md from shared/errors.ts.
// Usage: npx tsx scripts/tools-doc.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { ERROR_CODES, ERROR_DEFAULTS } from '../shared/errors.js';
import path from 'node:path';
import { z } from 'zod';
import { TOOLS } from '../broker/mcp/tools/index.js';
import { DEFAULT_TOOL_SET, TOOL_SETS } from '../broker/mcp/tools/sets.js';
import { advertisedCommonArgs, COMMON_ARGS, listedTool, SHARED_ARGUMENTS } from '../broker/mcp/listing.js';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** "1–200 characters", "0–60000", "≤ 40 items of ≤ 40 characters": the bounds the validation enforces. */
function limits(p: JsonSchema): string {
  const parts: string[] = [];
  if (p.minimum !== undefined || p.maximum !== undefined) parts.push(`${p.minimum ?? ''}–${p.maximum ?? ''}`);
  if (p.maxLength !== undefined) parts.push(`≤ ${p.maxLength} characters`);
  if (p.maxItems !== undefined) parts.push(`≤ ${p.maxItems} items${p.items?.maxLength !== undefined ? ` of ≤ ${p.items.maxLength} characters` : ''}`);
  return parts.join(', ');
}

function typeOf(p: JsonSchema): string {
  if (p.enum) return p.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (Array.isArray(p.type)) return p.type.length === 6 ? 'any JSON value' : p.type.join(' \\| ');
  if (p.type === 'array' && p.items?.type) return `${String(p.items.type)}[]`;
  return p.type ?? '';
}

/** The sets (broker/mcp/tools/sets.ts) a tool belongs to. */
function setsOf(name: string): string[] {
  return Object.entries(TOOL_SETS).filter(([, tools]) => (tools as readonly string[]).includes(name)).map(([set]) => set);
}

export function renderToolsDoc(): string {
  const out: string[] = [
    '# Tools',
    '',
    'Generated from `broker/mcp/tools/*.ts` and `broker/mcp/listing.ts` by `npx tsx scripts/tools-doc.ts`; a unit test',
    'fails when this file is stale. Failures are results with `isError: true` and',
    '`structuredContent.error = {code, message, retryable, refresh_required, next}`.',
    '',
    '"Needs" names the capability each tool needs on the origin it touches (read, act, exec; docs/architecture.md,',
    '"Consent"). Sharing a tab grants read and act on the origin it was shared at; anything else waits while the user',
    'answers a prompt in the Oriel popup, then goes on or fails with `permission_denied` or `permission_timeout`. A tool',
    'the user switched off in Oriel\'s options is not listed and answers `operation_disabled`.',
    'Where the user allowed it for your client (by its `clientInfo.name`, in Oriel\'s options) and your client declared',
    'form-mode `elicitation` (2025-06-18, 2025-11-25), the same prompt is also sent to your client as',
    '`elicitation/create` while the call waits: one required field `answer`, one of `allow_once`, `allow_origin` (not',
    'for code), `allow_code_session` (code only: this exact code in this tab), `deny_once`. Declining denies once;',
    'cancelling leaves the question to the popup. The first answer, popup or client, wins; the other is withdrawn (the',
    'client\'s request is cancelled). An answer settles only your own calls (docs/architecture.md, "Asking in the agent\'s',
    'app"). In the 2026-07-28 revision (stdio), a client declaring form `elicitation` gets an `input_required` result',
    'with that form under `oriel_permission` and a `requestState`; retry with the answer to go on.',
    'Pages that talk back (the bridge, page-registered tools): [bridge.md](bridge.md).',
    '',
    '## Results',
    '',
    'A result has two parts. The text content is what the model reads: a rendering of the result (for `snapshot`, the',
    'outline itself). `structuredContent` is the data for programs: ids, handles, URLs, states, counts, coverage and',
    'cursors. A large text is never carried twice: `snapshot`\'s outline is only in the text content, and its',
    '`structuredContent` holds `snapshot`, `document`, `url`, `title`, `coverage`, `cursor`, `changes` (and `loading`',
    'while the page loads). Small values that are the answer itself (`extract`\'s `value`, `evaluate`\'s `value`,',
    '`extract_rows`\' rows) appear in both: the text is escaped and bounded for the model, the structured field keeps',
    'the JSON type. `screenshot` returns an image content block and its size and format in `structuredContent`.',
    '',
    'Waiting: when a request carries `_meta.progressToken`, Oriel sends `notifications/progress` every 10 s while the',
    'call runs, and one at once when it starts waiting on a permission prompt; clients that restart their request',
    'timeout on progress (the TypeScript SDK\'s `resetTimeoutOnProgress`) keep the call alive through a long prompt.',
    'Without that, keep calls under your client\'s request timeout (60 s by default in the official SDKs): the default',
    'prompt wait is 45 s and `wait_for` waits at most 50 s, so Oriel\'s own answer (`permission_timeout`, `timeout`)',
    'arrives first. A client that gives up and cancels the request withdraws its prompt; the tab stays usable.',
    '',
    '## What tools/list carries',
    '',
    'A client sends the tool list to its model with every request, so Oriel keeps it small (the default list is under',
    '10,000 characters of JSON; `test/unit/tools.test.ts` holds it there, docs/BENCHMARKS.md measures it). Each tool',
    'lists its name, a one- or two-sentence description of when to use it, and its arguments with their JSON types,',
    'enums and which are required. What each tool would otherwise repeat is said once:',
    '',
    '- the arguments many tools share (below) are explained in the server\'s `instructions`, sent once at `initialize`;',
    '- so is each tool\'s **Arguments** paragraph below (its `usage`);',
    '- bounds (lengths, ranges, counts) and defaults are in the tables below and enforced by the validation, which',
    '  answers a value out of bounds with `invalid_argument` naming the bound;',
    '- titles (the headings below) are not listed: clients show the name of a tool without one; annotations are',
    '  listed only where they differ from the protocol\'s defaults (`readOnlyHint` false, `destructiveHint` true,',
    '  `idempotentHint` false, `openWorldHint` true).',
    '',
    'Every argument has a JSON type; free-form data (`send_message.data`) is typed as any JSON value',
    '(`["object","array","string","number","boolean","null"]`). The longer notes under each tool are not listed.',
    '',
    '## Tool sets',
    '',
    `\`oriel mcp --tools <list>\` serves only some tools: a comma-separated list of sets and tool names (e.g. \`core,evaluate\`).`,
    `The default is \`${DEFAULT_TOOL_SET}\`: every tool. \`oriel config <client> --tools core\` prints a configuration with it.`,
    '',
    '| set | tools |',
    '|---|---|',
    ...Object.entries(TOOL_SETS).map(([set, tools]) => `| \`${set}\` | ${tools.join(', ')} |`),
    `| \`all\` | every tool (${TOOLS.length}) |`,
    '',
    '## Shared arguments',
    '',
    'Listed by type alone in each tool\'s schema; explained once, here and in the server\'s instructions.',
    '',
    '| argument | meaning |',
    '|---|---|',
    ...Object.entries(SHARED_ARGUMENTS).map(([name, text]) => `| \`${name}\` | ${cell(text)}. |`),
    '',
    'Every tool accepts `session`, `document` and `lease`; a tool\'s table below shows those it lists.',
    '',
  ];
  for (const tool of TOOLS) {
    const listed = listedTool(tool);
    const common = Object.fromEntries(advertisedCommonArgs(tool).map((k) => [k, COMMON_ARGS[k]]));
    const schema = z.toJSONSchema(tool.input.extend(common), { io: 'input' }) as JsonSchema;
    const a = tool.annotations;
    out.push(`## \`${tool.name}\` — ${tool.title}`, '', tool.description, '');
    if (tool.usage) out.push(`**Arguments:** ${tool.usage}.`, '');
    if (tool.notes) out.push(tool.notes, '');
    const sets = setsOf(tool.name);
    out.push(
      `Needs: **${tool.capability}**. Sets: ${[...sets, 'all'].map((s) => `\`${s}\``).join(', ')}. Annotations: readOnly=${a.readOnlyHint}, destructive=${a.destructiveHint}, idempotent=${a.idempotentHint ?? false}, openWorld=${a.openWorldHint}. Listed: ${JSON.stringify(listed).length} characters.`,
      '',
    );
    const props = Object.entries(schema.properties ?? {});
    if (props.length === 0) {
      out.push('No arguments.', '');
      continue;
    }
    out.push('| argument | type | required | default | limits | description |', '|---|---|---|---|---|---|');
    for (const [name, prop] of props) {
      const text = prop.description ?? (Object.hasOwn(SHARED_ARGUMENTS, name) ? 'shared (above)' : 'see Arguments');
      const dflt = prop.default === undefined ? '' : `\`${JSON.stringify(prop.default)}\``;
      out.push(`| \`${name}\` | ${typeOf(prop)} | ${schema.required?.includes(name) ? 'yes' : 'no'} | ${dflt} | ${limits(prop)} | ${cell(text)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** The error table, one row per code of shared/errors.ts. */
export function renderErrorTable(): string {
  const rows = ERROR_CODES.map((code) => {
    const d = ERROR_DEFAULTS[code];
    return `| \`${code}\` | ${cell(d.meaning)} | ${d.retryable ? 'yes' : 'no'} | ${d.refresh_required ? 'yes' : 'no'} | ${cell(d.next)} |`;
  });
  return ['| code | meaning | retryable | refresh handles | next (default) |', '|---|---|---|---|---|', ...rows].join('\n');
}

const ERRORS_START = '<!-- errors:start (generated by scripts/tools-doc.ts) -->';
const ERRORS_END = '<!-- errors:end -->';

/** `doc` with the text between the error-table markers replaced by {@link renderErrorTable}. */
export function withErrorTable(doc: string): string {
  const start = doc.indexOf(ERRORS_START);
  const end = doc.indexOf(ERRORS_END);
  if (start < 0 || end < start) throw new Error('docs/native-messaging.md lacks the error-table markers');
  return `${doc.slice(0, start + ERRORS_START.length)}\n${renderErrorTable()}\n${doc.slice(end)}`;
}

const toolsFile = path.resolve(import.meta.dirname, '../docs/tools.md');
const wireFile = path.resolve(import.meta.dirname, '../docs/native-messaging.md');
if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const tools = renderToolsDoc();
  const wire = withErrorTable(readFileSync(wireFile, 'utf8'));
  if (process.argv.includes('--check')) {
    if (readFileSync(toolsFile, 'utf8') !== tools || readFileSync(wireFile, 'utf8') !== wire) {
      process.stderr.write('generated docs are stale: run npx tsx scripts/tools-doc.ts\n');
      process.exit(1);
    }
  } else {
    writeFileSync(toolsFile, tools);
    writeFileSync(wireFile, wire);
  }
}
