// upload: set files on a file input from the folder the person chose in Oriel's options. The broker reads the files
// (broker/mcp/files.ts: never outside that folder, bounded) and they travel to the page in the call, their names in the
// arguments where a consent prompt can show them. Page side: extension/content/actions/upload.ts.
import { z } from 'zod';
import { TargetArgs } from '../../../shared/act.js';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_FILES } from '../../../shared/input-ops.js';
import { MAX_TIMEOUT_MS } from '../../../shared/time-limits.js';
import type { ToolDefinition } from './types.js';
import { defineTool, oneElement } from './define.js';
import { click } from './click.js';
import { snapshot } from './snapshot.js';

const UploadToolArgs = TargetArgs.extend({
  paths: z
    .array(z.string().min(1).max(1000))
    .max(UPLOAD_MAX_FILES),
  timeout_ms: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional().meta({ default: 5_000 }),
});

export const upload: ToolDefinition = defineTool({
  name: 'upload',
  title: 'Choose files for a file input',
  description: () => `Sets files on a file input from the user's Oriel upload folder. Never ${click.name} a file input.`,
  usage:
    `paths are relative to the upload folder ([] clears the input); at most ${UPLOAD_MAX_FILES} files and ${UPLOAD_MAX_BYTES / 1024} KiB`,
  notes: () =>
    `Sets files on a file input (handle, or a selector such as input[type=file] for a hidden one) as a file picker would, reading them from the folder the user allows uploads from in Oriel's options (off until they choose one; nothing outside it). Paths are relative to that folder. Do not ${click.name} the input: that opens a picker you cannot use; use this instead.`,
  input: UploadToolArgs,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  capability: 'act',
  acting: true,
  choose: [oneElement(() => snapshot)],
  async handler(args, ctx) {
    const files = await ctx.readUploadFiles(args.paths);
    const { paths: _paths, ...target } = args;
    const value = await ctx.callPage('upload', { ...target, files });
    const list = value.files.map((f) => `${JSON.stringify(f.name)} (${f.size} bytes)`).join(', ');
    return { structured: value, text: `${value.handle} now holds ${list || 'no files'} (synthetic input)${value.dom_changed ? ': page changed' : ''}.` };
  },
});
