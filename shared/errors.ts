// The one error vocabulary, shared by extension and broker; errors cross every boundary as ErrorData. The error
// table in docs/native-messaging.md is generated from ERROR_DEFAULTS (scripts/tools-doc.ts).
import { z } from 'zod';

/** Every error code Oriel can report. */
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
  'dialog_opened',
  'too_large',
  'busy',
  'lease_expired',
  'lease_invalid',
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
  /** What the code means, for the generated error table (docs/native-messaging.md). */
  meaning: string;
  retryable: boolean;
  refresh_required: boolean;
  next: string;
}

/** Per code: what it means, whether retrying can help, whether handles must be refreshed, and what to do next. */
export const ERROR_DEFAULTS: Readonly<Record<ErrorCode, Readonly<CodeDefaults>>> = {
  no_session: { meaning: 'no tab is shared, or there is no session with that id', retryable: true, refresh_required: false, next: 'ask the user to share a tab from the Oriel popup, then list_sessions' },
  ambiguous_session: { meaning: 'several sessions exist and the call gave no `session`; the message and `details.sessions` name them all', retryable: true, refresh_required: false, next: 'call again with one of the listed session ids' },
  session_gone: { meaning: 'the tab was unshared or closed', retryable: false, refresh_required: true, next: 'list_sessions' },
  no_snapshot: { meaning: 'this document has issued no handles yet', retryable: true, refresh_required: true, next: 'snapshot' },
  unknown_handle: { meaning: 'the handle was never issued by the document now in that tab', retryable: false, refresh_required: true, next: 'snapshot' },
  detached: { meaning: 'the element the handle named was removed', retryable: true, refresh_required: true, next: 'snapshot' },
  stale_document: { meaning: 'the tab shows another document than the call expected (guard, or a navigation during the call)', retryable: true, refresh_required: true, next: 'snapshot' },
  not_actionable: { meaning: 'the target is hidden, disabled, covered (the message says by what) or not editable', retryable: true, refresh_required: false, next: 'wait_for, or snapshot to find another target' },
  timeout: { meaning: "the call's deadline passed", retryable: true, refresh_required: false, next: 'snapshot to see the page as it is now, then retry with a longer timeout_ms' },
  navigation_failed: { meaning: "the load failed; the message has the browser's reason", retryable: true, refresh_required: false, next: 'check the URL, then navigate again' },
  permission_denied: { meaning: 'the user (or redaction) refused this read or action', retryable: false, refresh_required: false, next: 'do without this value; snapshot shows what may be read' },
  permission_timeout: { meaning: 'the user did not answer the permission prompt in time', retryable: true, refresh_required: false, next: 'ask the user to answer the prompt in the Oriel popup, then retry' },
  operation_disabled: { meaning: "the user's policy switched this tool or capability off", retryable: false, refresh_required: false, next: "use another tool, or ask the user to allow it in Oriel's options" },
  invalid_argument: { meaning: 'the arguments failed validation (the message names which and why)', retryable: false, refresh_required: false, next: 'fix the arguments as the message says (see the tool description)' },
  page_error: { meaning: "the page's own code threw; its message, bounded", retryable: false, refresh_required: false, next: 'fix the expression, or read the page with snapshot or extract' },
  evaluate_unavailable: { meaning: 'code cannot run in this page; the message says what the user must switch on', retryable: false, refresh_required: false, next: 'ask the user to switch on what the message names, or use snapshot and extract' },
  dialog_opened: {
    meaning: 'the action opened a JavaScript dialog (alert, confirm, prompt) and neither the call nor the tab\'s dialog_policy said how to answer it: Oriel dismissed it and the action itself was carried out; or the action would have left a page that asks first ("Leave site?") and Oriel stayed; or the page shows the browser\'s own dialog, which the person has not answered, and the call did nothing (`details.open_dialog`); the message says which',
    retryable: true,
    refresh_required: false,
    next: 'to answer it, repeat the action with dialog: "accept" or "dismiss" (dialog_text for a prompt), or set the tab\'s dialog_policy; snapshot to see the page',
  },
  too_large: { meaning: 'a request or result is over its bound', retryable: false, refresh_required: false, next: 'narrow the request (a smaller max_chars, a root, a filter, fewer rows)' },
  busy: { meaning: "the tab's call queue is full, or this client has too many calls in flight; nothing was done", retryable: true, refresh_required: false, next: 'wait a few seconds for earlier calls on this tab to finish, then retry the same call' },
  lease_expired: { meaning: 'the lease the call quoted has ended: released, unused for its TTL, past its hard maximum, or its holder disconnected; other clients may have used the tab since', retryable: true, refresh_required: true, next: 'snapshot to see the tab as it is now, then acquire_lease again if the sequence needs it' },
  lease_invalid: { meaning: 'the lease the call quoted was never issued to this client (another client holds it, it is made up, or it is for another session)', retryable: false, refresh_required: false, next: 'call without lease, or acquire_lease for this session and quote the id it returns' },
  browser_disconnected: { meaning: 'the browser went away during the call; the call was not replayed', retryable: true, refresh_required: true, next: 'list_sessions' },
  cancelled: { meaning: 'the client cancelled the request', retryable: true, refresh_required: false, next: 'call again if it is still needed' },
  unsupported: { meaning: 'an operation this browser, frame or page cannot do', retryable: false, refresh_required: false, next: 'snapshot, or navigate to a web page' },
  internal: { meaning: 'a bug in Oriel; the message never contains paths or tokens', retryable: false, refresh_required: false, next: 'retry once; if it fails again, report it' },
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
  const d = ERROR_DEFAULTS[code];
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

/** Removes filesystem paths from a message so errors never leak them. */
export function scrubMessage(message: string): string {
  return message.replace(/(?:[A-Za-z]:\\|\/)(?:[\w.-]+[\\/])+[\w.-]*/g, '<path>');
}
