// The exec audit log's entries: every exec grant the person gives and every exec use an agent makes, bounded to the
// newest entries. Kept by the background (extension/background/audit.ts), shown and exported by the options page.
import { z } from 'zod';
import { ERROR_DEFAULTS, type ErrorCode } from '../../shared/errors.js';
import { answerLabel, ANSWERS, type Answer } from './rules.js';

/** Entries kept: the newest this many. */
export const MAX_AUDIT_ENTRIES = 1000;
/** Longest code kept per entry, characters (the entry says how long the code was, and its SHA-256). */
export const MAX_AUDIT_CODE_CHARS = 2000;

export const AuditEntrySchema = z.object({
  /** When, ms since the Unix epoch. */
  time: z.number(),
  /**
   * `grant`: the person allowed exec (`outcome` says how widely); `use`: an agent's exec call ran or was refused;
   * `answer`: any other answer the person gave in an agent's app (`source: "app"`).
   */
  kind: z.enum(['grant', 'use', 'answer']),
  /** The Oriel session (shared tab) and the origin the code ran on or was allowed for. */
  session: z.string().max(100),
  origin: z.string().max(300),
  /** The agent: its MCP client's name (`clientInfo.name`) and the hub's id for the connection. */
  client: z.string().max(200),
  client_id: z.string().max(40),
  tool: z.string().max(40),
  /** The code (bounded), its length and SHA-256; or the page operation with its arguments. */
  code: z.string().max(MAX_AUDIT_CODE_CHARS + 100).optional(),
  code_chars: z.number().int().optional(),
  code_sha256: z.string().max(64).optional(),
  operation: z.string().max(2000).optional(),
  /** For grants and answers, the answer given (e.g. allow_once, allow_session); for uses, `ok` or the error code. */
  outcome: z.string().max(60),
  /**
   * For uses: whether the code (or page operation) was handed to the page to run; false when the call stopped before
   * (refused, withdrawn or timed out at the prompt, the tab gone). Absent in entries written before it existed.
   */
  ran: z.boolean().optional(),
  /** For grants and answers: where the person answered — Oriel's popup, or the app of the client `source_client`. */
  source: z.enum(['popup', 'app']).optional(),
  source_client: z.string().max(200).optional(),
  /** For answers: the capability asked about (exec grants say it by their kind). */
  capability: z.enum(['read', 'act', 'exec']).optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** `list` with `entry` appended, keeping the newest {@link MAX_AUDIT_ENTRIES}. */
export function appendBounded(list: readonly AuditEntry[], entry: AuditEntry, max = MAX_AUDIT_ENTRIES): AuditEntry[] {
  return [...list, entry].slice(-max);
}

/** Bounds code for an entry: its first characters, plus its full length. */
export function codeFields(code: string, sha256: string): Pick<AuditEntry, 'code' | 'code_chars' | 'code_sha256'> {
  return { code: code.length > MAX_AUDIT_CODE_CHARS ? `${code.slice(0, MAX_AUDIT_CODE_CHARS)}…` : code, code_chars: code.length, code_sha256: sha256 };
}

/** What the log's "what happened" column says of an entry: `allowed`, `ran`, or `not run` (the code never reached the page). */
export function auditVerb(entry: AuditEntry): string {
  if (entry.kind === 'grant') return 'allowed';
  if (entry.kind === 'answer') return `answered (${entry.capability ?? ''})`;
  return entry.ran === false ? 'not run' : 'ran';
}

/**
 * An entry's outcome in words, for the person: the answer as the prompt's button said it for a grant; for a use,
 * "finished" or what its error code means (docs/native-messaging.md, "Errors"). Unknown codes are shown as they are.
 */
export function auditOutcomeWords(entry: AuditEntry): string {
  if (entry.kind === 'grant' || entry.kind === 'answer') {
    return (ANSWERS as readonly string[]).includes(entry.outcome) ? answerLabel(entry.outcome as Answer, 'exec', entry.operation !== undefined) : entry.outcome;
  }
  if (entry.outcome === 'ok') return 'finished';
  const known = (ERROR_DEFAULTS as Record<string, { meaning: string } | undefined>)[entry.outcome];
  return known ? `${known.meaning} (${entry.outcome as ErrorCode})` : entry.outcome;
}
