// Writes the generated references so they cannot drift from the code: docs/tools.md from the tool definitions (names,
// descriptions, arguments, annotations) and the error table of docs/native-messaging.md from shared/errors.ts.
// Usage: npx tsx scripts/tools-doc.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { ERROR_CODES, ERROR_DEFAULTS } from '../shared/errors.js';
import path from 'node:path';
import { z } from 'zod';
import { TOOLS } from '../broker/mcp/tools/index.js';
import { COMMON_ARGS } from '../broker/mcp/server.js';

interface JsonProperty {
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonProperty;
}
interface JsonSchema {
  properties?: Record<string, JsonProperty>;
  required?: string[];
}

/** The bounds a property's schema sets, in words ("1–100", "≤ 200 chars", "≤ 40 items of ≤ 40 chars"); '' if none. */
export function limitsOf(prop: JsonProperty): string {
  const range = (min: number | undefined, max: number | undefined, unit: string) => {
    const hi = max === undefined || max >= Number.MAX_SAFE_INTEGER ? undefined : max;
    const lo = min === undefined || min === 0 ? undefined : min;
    if (lo !== undefined && hi !== undefined) return `${lo}–${hi}${unit}`;
    if (hi !== undefined) return `≤ ${hi}${unit}`;
    return lo !== undefined ? `≥ ${lo}${unit}` : '';
  };
  const own = [range(prop.minimum, prop.maximum, ''), range(prop.minLength, prop.maxLength, ' chars'), range(prop.minItems, prop.maxItems, ' items')].filter(Boolean).join(', ');
  const each = prop.items ? limitsOf(prop.items) : '';
  return each ? `${own || 'items'} of ${each}` : own;
}

export function renderToolsDoc(): string {
  const out: string[] = [
    '# Tools',
    '',
    'Generated from `broker/mcp/tools/*.ts` by `npx tsx scripts/tools-doc.ts`; a unit test fails when this file is stale.',
    'Every tool also takes `session` (optional when exactly one tab is shared) and `document` (a guard: fails with',
    '`stale_document` when the tab shows another document). Failures are results with `isError: true` and',
    '`structuredContent.error = {code, message, retryable, refresh_required, next}`.',
    'The type column gives each argument\'s bounds (numbers: the range; text: its length; lists: how many items); a',
    'call outside them fails with `invalid_argument` naming the argument.',
    '',
    '"Needs" names the capability each tool needs on the origin it touches (read, act, exec; docs/architecture.md,',
    '"Consent"). Sharing a tab grants read and act on the origin it was shared at; anything else waits while the user',
    'answers a prompt in the Oriel popup, then goes on or fails with `permission_denied` or `permission_timeout`. A tool',
    'the user switched off in Oriel\'s options is not listed and answers `operation_disabled`.',
    'Pages that talk back (the bridge, page-registered tools): [bridge.md](bridge.md).',
    '',
  ];
  for (const tool of TOOLS) {
    const schema = z.toJSONSchema(tool.input.extend(COMMON_ARGS)) as JsonSchema;
    const a = tool.annotations;
    out.push(`## \`${tool.name}\` — ${tool.title}`, '', tool.description, '');
    out.push(`Needs: **${tool.capability}**. Annotations: readOnly=${a.readOnlyHint}, destructive=${a.destructiveHint}, openWorld=${a.openWorldHint}.`, '');
    out.push('| argument | type | required | description |', '|---|---|---|---|');
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      const type = prop.enum ? prop.enum.map((v) => JSON.stringify(v)).join(' \\| ') : Array.isArray(prop.type) ? prop.type.join(' \\| ') : (prop.type ?? 'object');
      const limits = limitsOf(prop);
      out.push(`| \`${name}\` | ${type}${limits ? ` (${limits})` : ''} | ${schema.required?.includes(name) ? 'yes' : 'no'} | ${(prop.description ?? '').replace(/\|/g, '\\|')} |`);
    }
    out.push('');
  }
  out.push(...DOWNLOADS_NOTES);
  return out.join('\n');
}

/** How downloads work and where the browsers differ (the downloads tool's behaviour beyond its arguments). */
const DOWNLOADS_NOTES = [
  '## Downloads and PDFs: where files go, what agents see, and how the browsers differ',
  '',
  '- **Which downloads are an agent\'s.** A download that begins while an agent\'s acting call (click, type, press_key,',
  '  navigate, call_tab_operation …) runs in a shared tab, or up to 4 s after it ends, whose page origin is a document of',
  '  that tab; an http(s) file whose response just started (within 2 s, seen with `webRequest`) in another tab is not the',
  '  agent\'s, and one whose request was not seen — like a data: URL with no referrer — counts only during the call or',
  '  1 s after. Every other download is the',
  '  person\'s: left alone and never shown. The acting call\'s result lists the downloads it started (`downloads`), as far',
  '  as they began before it answered; `downloads` lists later ones too. Limit: a blob: or data: download the person',
  '  starts in another tab of the same site while an agent\'s call runs there cannot be told apart from the agent\'s.',
  '- **Where they go.** Extensions can write only inside the browser\'s downloads folder, so the person names one folder',
  '  there in Oriel\'s options ("Downloads folder", e.g. `oriel-agents`); off until they do. With no folder chosen, an',
  '  agent\'s download is cancelled (its partial file removed) and reported as `refused`. Names never collide: an existing',
  '  name gets a numbered one (`conflictAction: "uniquify"`). The broker reads a file only at the path the browser',
  '  reported, only when it is a regular file directly in that folder, without following a link.',
  '- **Chromium** renames the download before it is written (`downloads.onDeterminingFilename`). A page that starts',
  '  several downloads without a person\'s gesture hits Chromium\'s "automatic downloads" setting, which the person may',
  '  have to allow for the site. (A browser driven with the DevTools protocol\'s `Browser.setDownloadBehavior` ignores',
  '  extensions\' names: Oriel\'s tests set the download folder through the profile instead.)',
  '- **Firefox** has no `onDeterminingFilename`: Oriel cancels the download and starts it again with',
  '  `downloads.download({ filename: "<folder>/<name>" })`, so the file is fetched a second time with the person\'s cookies',
  '  (a one-time link or a POST response may not survive that and ends `interrupted`); a page\'s blob: URL is read in the',
  '  tab\'s content-script world and a data: URL decoded, since Firefox fetches neither for an extension.',
  '- **Reading back** counts as reading the origin the file came from: its tab must still be shared, connected and',
  '  showing that origin with a grant there, else `permission_denied`. Text, CSV and JSON come as UTF-8 text, 20,000',
  '  bytes a call with a byte `cursor`; PDFs as text per page with page numbers (PDF.js in the broker, 20,000 characters a',
  '  call, `cursor` = the next page, at most 30 MiB); other types as facts only. The person\'s redaction selectors and',
  '  value limits do not apply to files (they describe page elements); the file is page content, labelled untrusted.',
  '- **A PDF in a shared tab** (the browser\'s own viewer, where no content script runs) is read by `snapshot`: the',
  '  background knows the tab shows a PDF from its response\'s `Content-Type`, fetches the same URL again with the',
  '  person\'s cookies (`credentials: "include"`, the HTTP cache first), at most 5 MiB, and the answer is its text per page',
  '  (`--- page 2 of 9 ---`), within `max_chars`, with `cursor` = `pdf:<page>` to go on. It needs read on the tab\'s',
  '  origin (sharing grants it); there are no handles, and redaction selectors do not apply to PDF text. A PDF the tab',
  '  got by a POST, or that was open before Oriel started, is not recognised (snapshot then shows the viewer\'s page).',
  '',
];

/** The error table, one row per code of shared/errors.ts. */
export function renderErrorTable(): string {
  const rows = ERROR_CODES.map((code) => {
    const d = ERROR_DEFAULTS[code];
    const cell = (s: string) => s.replace(/\|/g, '\\|');
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
