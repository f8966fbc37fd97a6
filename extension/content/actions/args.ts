// Validating a content operation's arguments with its shared schema (shared/ops.ts), as invalid_argument errors.
import type { z } from 'zod';
import { orielError } from '../../../shared/errors.js';

/**
 * Parses `raw` with `schema`, dropping the fields the background adds (`call`, and `redaction`, which
 * ../redaction.ts reads); a failure is `invalid_argument`.
 */
export function parseArgs<S extends z.ZodType>(schema: S, raw: Record<string, unknown>, op: string): z.infer<S> {
  const { call: _call, redaction: _redaction, ...rest } = raw;
  const parsed = schema.safeParse(rest);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
  throw orielError('invalid_argument', `Invalid arguments for ${op}${where}: ${issue?.message ?? 'wrong shape'}.`);
}
