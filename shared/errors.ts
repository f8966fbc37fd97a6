// The one error vocabulary (SPEC §5), shared by extension and broker; errors cross every boundary as ErrorData.
import { z } from 'zod';

/** Every error code Oriel can report (SPEC §5). */
export const ERROR_CODES = [
  'no_session',
  'ambiguous_session',
  'session_gone',
  'no_snapshot',
  'unknown_handle',
  'detached',
  'stale_document',
  'not_actionable',
  'timeout',
  'navigation_failed',
  'permission_denied',
  'permission_timeout',
  'operation_disabled',
  'invalid_argument',
  'page_error',
  'evaluate_unavailable',
  'too_large',
  'browser_disconnected',
  'cancelled',
  'unsupported',
  'internal',
] as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The wire shape of an error: what a tool result's `structuredContent.error` holds and what every channel carries.
 * `next` names the tool or action the agent should take next (for example `"snapshot"`).
 */
export const ErrorDataSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string().max(4000),
  retryable: z.boolean(),
  refresh_required: z.boolean(),
  next: z.string().max(200).optional(),
  /** Extra machine-readable facts (for example the sessions to choose from, or what covers a target). */
  details: z.record(z.string(), z.unknown()).optional(),
});
/** See {@link ErrorDataSchema}. */
export type ErrorData = z.infer<typeof ErrorDataSchema>;

interface CodeDefaults {
  retryable: boolean;
  refresh_required: boolean;
  next?: string;
}

/** Per code: whether retrying can help, whether handles must be refreshed, and what to do next (SPEC §5). */
const DEFAULTS: Record<ErrorCode, Required<CodeDefaults>> = {
  no_session: { retryable: true, refresh_required: false, next: 'ask the user to share a tab from the Oriel popup, then list_sessions' },
  ambiguous_session: { retryable: true, refresh_required: false, next: 'call again with one of the listed session ids' },
  session_gone: { retryable: false, refresh_required: true, next: 'list_sessions' },
  no_snapshot: { retryable: true, refresh_required: true, next: 'snapshot' },
  unknown_handle: { retryable: false, refresh_required: true, next: 'snapshot' },
  detached: { retryable: true, refresh_required: true, next: 'snapshot' },
  stale_document: { retryable: true, refresh_required: true, next: 'snapshot' },
  not_actionable: { retryable: true, refresh_required: false, next: 'wait_for, or snapshot to find another target' },
  timeout: { retryable: true, refresh_required: false, next: 'snapshot to see the page as it is now, then retry with a longer timeout_ms' },
  navigation_failed: { retryable: true, refresh_required: false, next: 'check the URL, then navigate again' },
  permission_denied: { retryable: false, refresh_required: false, next: 'do without this value; snapshot shows what may be read' },
  permission_timeout: { retryable: true, refresh_required: false, next: 'ask the user to answer the prompt in the Oriel popup, then retry' },
  operation_disabled: { retryable: false, refresh_required: false, next: 'use another tool, or ask the user to allow it in Oriel\'s options' },
  invalid_argument: { retryable: false, refresh_required: false, next: 'fix the arguments as the message says (see the tool description)' },
  page_error: { retryable: false, refresh_required: false, next: 'fix the expression, or read the page with snapshot or extract' },
  evaluate_unavailable: { retryable: false, refresh_required: false, next: 'ask the user to switch on what the message names, or use snapshot and extract' },
  too_large: { retryable: false, refresh_required: false, next: 'narrow the request (a smaller max_chars, a root, a filter, fewer rows)' },
  browser_disconnected: { retryable: true, refresh_required: true, next: 'list_sessions' },
  cancelled: { retryable: true, refresh_required: false, next: 'call again if it is still needed' },
  unsupported: { retryable: false, refresh_required: false, next: 'snapshot, or navigate to a web page' },
  internal: { retryable: false, refresh_required: false, next: 'retry once; if it fails again, report it' },
};

/** An error that carries {@link ErrorData}; thrown inside Oriel and turned into an `isError` tool result at the edge. */
export class OrielError extends Error {
  readonly data: ErrorData;
  constructor(data: ErrorData, options?: { cause?: unknown }) {
    super(data.message, options);
    this.name = 'OrielError';
    this.data = data;
  }
  get code(): ErrorCode {
    return this.data.code;
  }
}

/** Builds {@link ErrorData} for `code`, filling `retryable`, `refresh_required` and `next` from the code's defaults. */
export function errorData(code: ErrorCode, message: string, extra: Partial<Omit<ErrorData, 'code' | 'message'>> = {}): ErrorData {
  const d = DEFAULTS[code];
  return { code, message: message.slice(0, 4000), retryable: d.retryable, refresh_required: d.refresh_required, next: d.next, ...extra };
}

/** Shorthand: a throwable {@link OrielError}. */
export function orielError(code: ErrorCode, message: string, extra: Partial<Omit<ErrorData, 'code' | 'message'>> = {}): OrielError {
  return new OrielError(errorData(code, message, extra));
}

/** Turns anything thrown into {@link ErrorData}; unknown errors become `internal` with a bounded message. */
export function toErrorData(err: unknown): ErrorData {
  if (err instanceof OrielError) return err.data;
  const parsed = ErrorDataSchema.safeParse(err);
  if (parsed.success) return parsed.data;
  if (err instanceof Error && err.name === 'ZodError') {
    return errorData('internal', 'The browser answered with a result Oriel did not expect (the extension and the broker may be different versions).');
  }
  const message = err instanceof Error ? err.message : String(err);
  return errorData('internal', scrubMessage(message).slice(0, 500));
}

/** Removes filesystem paths from a message so errors never leak them (SPEC §5). */
export function scrubMessage(message: string): string {
  return message.replace(/(?:[A-Za-z]:\\|\/)(?:[\w.-]+[\\/])+[\w.-]*/g, '<path>');
}
