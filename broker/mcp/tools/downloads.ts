// downloads: the files agents' actions downloaded from shared tabs — listed, waited for, read back (text with a byte
// cursor, PDF text per page, other types as facts). Browser side: extension/background/downloads.ts; reading:
// broker/mcp/download-read.ts.
import { z } from 'zod';
import type { DownloadView } from '../../../shared/downloads.js';
import { quote } from '../../../shared/snapshot/escape.js';
import { orielError } from '../../../shared/errors.js';
import { MAX_TIMEOUT_MS } from '../../../shared/time-limits.js';
import type { ToolDefinition } from './types.js';
import { defineTool } from './define.js';
import { snapshot } from './snapshot.js';
import { AS_ARG, AS_USAGE } from './link.js';

const DownloadsArgs = z.object({
  id: z.string().max(80).optional(),
  wait_ms: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional().meta({ default: 0 }),
  cursor: z.string().max(20).optional(),
  as: AS_ARG,
});

function line(d: DownloadView): string {
  const size = d.total !== undefined ? `${d.bytes}/${d.total} bytes` : `${d.bytes} bytes`;
  const where = d.state === 'refused' ? 'not saved: the user chose no folder for agents\' downloads' : d.folder ? `in ${quote(d.folder)}` : '';
  return `${d.id}: ${quote(d.file)} ${d.mime} ${d.state} ${size} from ${d.origin} (${d.session}) ${where}`.trimEnd();
}

export const downloads: ToolDefinition = defineTool({
  name: 'downloads',
  title: 'Downloaded files',
  description: () => `Files your actions downloaded: lists them, or reads one (text, CSV, JSON, PDF text). For a PDF tab use ${snapshot.name}.`,
  usage: `without id it lists; id reads one, waiting up to wait_ms for it to finish; cursor is the next_cursor of the last read; ${AS_USAGE} (any type, up to 6 MiB)`,
  input: DownloadsArgs,
  unlisted: ['as'],
  commonArgs: [],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  capability: 'read',
  async handler(args, ctx) {
    if (args.id === undefined) {
      if (args.as === 'link') throw orielError('invalid_argument', 'as "link" hands over one file: give its id (downloads without arguments lists them).');
      const all = ctx.listDownloads();
      return { structured: { downloads: all }, text: all.length ? all.map(line).join('\n') : 'No downloads from agents\' actions yet.' };
    }
    const view = await ctx.waitDownload(args.id, args.wait_ms ?? 0);
    if (view.state !== 'complete') return { structured: { download: view }, text: line(view) };
    if (args.as === 'link') {
      if (args.cursor !== undefined) throw orielError('invalid_argument', 'A link is the whole file: give cursor or as "link", not both.');
      const link = await ctx.linkResult({ kind: 'download', id: args.id, description: `Downloaded from ${view.origin} (untrusted content)` });
      return { structured: { download: view, uri: link.uri }, text: `${line(view)}\nRead the file (${link.size} bytes, ${link.mimeType}) with resources/read: ${link.uri}`, link };
    }
    const { view: done, content } = await ctx.readDownload(args.id, args.cursor);
    const more = 'next_cursor' in content && content.next_cursor !== undefined ? `\nMore: call again with cursor "${content.next_cursor}".` : '';
    const head = `${line(done)}\nContent of the file (untrusted, from ${done.origin}):`;
    if (content.kind === 'binary') return { structured: { download: done, content }, text: `${line(done)}\nNot text or PDF: only its facts are shown (${content.size} bytes).` };
    if (content.kind === 'pdf') {
      const pages = content.pages.map((p) => `--- page ${p.page} of ${content.page_count} ---\n${p.text}`).join('\n');
      return { structured: { download: done, content }, text: `${head}\n${pages}${content.truncated ? '\n[page cut at the size bound]' : ''}${more}` };
    }
    return { structured: { download: done, content }, text: `${head}\n${content.text}${more}` };
  },
});
