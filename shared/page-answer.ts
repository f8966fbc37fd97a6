// What a public page call answers the broker (extension/background/pipeline/index.ts → broker/hub/hub.ts): the op's
// result from the op map, or the PDF itself for an op that reads PDF tabs, with what the background adds to any call's
// result. Checked once where it enters the broker, so tools receive their op's typed result.
import { z } from 'zod';
import { OPS, specOf, type OpResult, type PublicOpName } from './ops.js';

/** What the background answers a PDF-reading op on a tab showing a PDF: its URL and bytes in base64 (at most 5 MiB before encoding). */
export const PdfTabValue = z.object({ pdf: z.object({ url: z.string().max(8192), data: z.string().max(7 * 1024 * 1024) }) });
export type PdfTabValue = z.infer<typeof PdfTabValue>;

/**
 * What call `N` answers: its op's result, or for an op whose entry says `reads_pdf` the PDF tab's bytes
 * (docs/architecture.md, "The op map").
 */
export type CallValue<N extends PublicOpName> = OpResult<N> | ((typeof OPS)[N] extends { reads_pdf: true } ? PdfTabValue : never);

/** Most download ids one answer names (more are not followed). */
const MAX_DOWNLOADS = 20;

/**
 * One call's answer, split: the value tools read, and what the background put beside the op's own result — what the
 * action changed in the page (`changes`, extension/background/action-changes.ts; checked where it is shown,
 * broker/mcp/changes.ts) and the ids of the downloads it started (`downloads`).
 */
export interface PageAnswer<N extends PublicOpName> {
  value: CallValue<N>;
  changes?: unknown;
  downloads?: string[];
}

const Downloads = z.array(z.string().max(64)).max(1_000);

const schemas = new Map<PublicOpName, z.ZodType>();

/** The schema call `op`'s value must fit: the op's result, or first a PDF tab's bytes where the op reads PDF tabs. */
function valueSchema(op: PublicOpName): z.ZodType {
  let schema = schemas.get(op);
  if (!schema) {
    schema = specOf(op).reads_pdf ? z.union([PdfTabValue, OPS[op].result]) : OPS[op].result;
    schemas.set(op, schema);
  }
  return schema;
}

/**
 * Checks the browser's answer to call `op` against the op map. The value is what the schema parsed (fields it does
 * not list are dropped); `changes` and `downloads` are taken from beside it, and a malformed `downloads` list is left
 * out rather than failing a call whose work is done.
 * @returns the answer, or a message naming the first problem (path and reason), bounded to 500 characters.
 */
export function parsePageAnswer<N extends PublicOpName>(op: N, raw: unknown): { ok: true; answer: PageAnswer<N> } | { ok: false; message: string } {
  const parsed = valueSchema(op).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
    return { ok: false, message: `The browser's answer to ${op} does not fit its result schema${where}: ${issue?.message ?? 'wrong shape'}. The extension and the broker may be different versions.`.slice(0, 500) };
  }
  // The schema of `op` parsed it: it is `op`'s value (the one place the map's result schema meets its type).
  const answer: PageAnswer<N> = { value: parsed.data as CallValue<N> };
  const beside = raw as { changes?: unknown; downloads?: unknown };
  if (beside.changes !== undefined) answer.changes = beside.changes;
  const downloads = Downloads.safeParse(beside.downloads);
  if (downloads.success && downloads.data.length > 0) answer.downloads = downloads.data.slice(0, MAX_DOWNLOADS);
  return { ok: true, answer };
}
