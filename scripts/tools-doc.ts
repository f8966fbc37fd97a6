// Writes docs/tools.md from the tool definitions (names, descriptions, arguments, annotations), so the document
// cannot drift from what clients see. Usage: npx tsx scripts/tools-doc.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { TOOLS } from '../broker/mcp/tools/index.js';
import { COMMON_ARGS } from '../broker/mcp/server.js';

interface JsonSchema {
  properties?: Record<string, { description?: string; type?: string | string[]; enum?: unknown[] }>;
  required?: string[];
}

export function renderToolsDoc(): string {
  const out: string[] = [
    '# Tools',
    '',
    'Generated from `broker/mcp/tools/*.ts` by `npx tsx scripts/tools-doc.ts`; a unit test fails when this file is stale.',
    'Every tool also takes `session` (optional when exactly one tab is shared) and `document` (a guard: fails with',
    '`stale_document` when the tab shows another document). Failures are results with `isError: true` and',
    '`structuredContent.error = {code, message, retryable, refresh_required, next}`.',
    '',
    '"Needs" names the capability each tool belongs to in the per-origin permission model (SPEC §8: read, act, exec).',
    'Until permission prompts exist, sharing a tab is the gate for read and act, and `evaluate` (exec) is also off',
    'until the user turns on "Let agents run JavaScript in shared tabs" in Oriel\'s options.',
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
      out.push(`| \`${name}\` | ${type} | ${schema.required?.includes(name) ? 'yes' : 'no'} | ${(prop.description ?? '').replace(/\|/g, '\\|')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

const file = path.resolve(import.meta.dirname, '../docs/tools.md');
if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const text = renderToolsDoc();
  if (process.argv.includes('--check')) {
    if (readFileSync(file, 'utf8') !== text) {
      process.stderr.write('docs/tools.md is stale: run npx tsx scripts/tools-doc.ts\n');
      process.exit(1);
    }
  } else writeFileSync(file, text);
}
