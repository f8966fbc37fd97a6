// The shape of an Oriel MCP tool definition and the narrow context its handler receives.
import type { z } from 'zod';
import type { Capability, OpArgs, PublicOpName } from '../../../shared/ops.js';
import type { CallValue } from '../../../shared/page-answer.js';
import type { BridgeRead } from '../../../shared/bridge.js';
import type { TabGrant } from '../../../shared/protocol.js';
import type { DownloadView } from '../../../shared/downloads.js';
import type { DownloadContent } from '../download-read.js';
import type { LinkRequest, ResultLink } from '../resources.js';

export type { Capability };

/** MCP tool annotations, set truthfully (docs/tools.md). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

/** A session as tools see it. */
export interface SessionView {
  id: string;
  title: string;
  url: string;
  origin: string;
  browser: string;
  /** Top-frame document id, when known. */
  document?: string;
  /** Whether the tab is visible in its window. */
  active: boolean;
  /** The session whose page opened this tab (a new tab or popup shared for that reason). */
  opener?: string;
  connected: boolean;
  /** What the person granted or denied on the tab's top origin (sharing grants read and act on the origin shared at). */
  grants: TabGrant[];
  /** True when nothing grants read on the tab's top origin: `title` is empty and `url` is the origin alone. */
  withheld?: boolean;
  /** Who holds the tab under a lease, and until when (ISO 8601), if anyone. Never the lease id. */
  lease?: { holder: string; yours: boolean; expires_at: string; max_until: string };
}

/** A lease as its holder sees it (acquire_lease, release_lease). */
export interface LeaseGrant {
  /** The opaque id to quote as `lease`. */
  lease: string;
  session: string;
  ttlMs: number;
  /** When it lapses without further calls, and its hard end: ms since the Unix epoch. */
  expiresAt: number;
  maxUntil: number;
}

/** What a tool handler may use. Read-only; one per call. */
export interface ToolContext {
  /** Stable id of the MCP client connection making the call. */
  clientId: string;
  /** Aborted when the client cancels the request. */
  signal: AbortSignal;
  /** The lease this call quotes (its `lease` argument), if any. */
  lease?: string;
  /** Every session visible to this client. */
  listSessions(): SessionView[];
  /** What to tell the agent when no tab is shared: whether a browser with Oriel is connected at all, or reconnecting. */
  noSessionText(): string;
  /**
   * Holds the call's session for this client across calls (quoting the call's own `lease` renews it instead).
   * `ttlMs`: inactivity TTL; `timeoutMs`: how long to wait while another client holds the session (./budget.ts,
   * LEASE_WAIT_BUDGET, when omitted).
   * @throws OrielError: session errors, `timeout` (naming the holder), `cancelled`, `busy`, `lease_expired`,
   *   `lease_invalid`.
   */
  acquireLease(options: { ttlMs?: number; timeoutMs?: number }): Promise<LeaseGrant>;
  /**
   * Ends a lease this client holds.
   * @throws OrielError `lease_expired`, `lease_invalid`.
   */
  releaseLease(lease: string): LeaseGrant;
  /**
   * Runs one page operation in the call's session (its `session` argument: optional when exactly one session exists,
   * or named by its `lease`), in its turn with the session's other calls (under its lease if it quotes one), under the
   * call's `document` guard if it gave one, within the operation's budget for these arguments (./budget.ts).
   * Answers the operation's result, checked against the op map where it entered the broker (shared/page-answer.ts;
   * for an op that reads PDF tabs, possibly the PDF instead).
   * @throws OrielError: no_session, ambiguous_session, session_gone, stale_document, browser_disconnected, timeout,
   *   cancelled, busy, lease_expired, lease_invalid, the page's own error, or `internal` (an answer that does not fit
   *   the op's result schema).
   */
  callPage<N extends PublicOpName>(op: N, args: OpArgs<N>): Promise<CallValue<N>>;
  /**
   * Reads the call's session's bridge messages after cursor `after` (docs/bridge.md), waiting up to `timeoutMs` for one
   * when there are none yet. Does not consume: other readers see the same messages.
   * @throws OrielError: no_session, ambiguous_session, session_gone, invalid_argument (a cursor past the end),
   *   cancelled.
   */
  awaitMessages(options: { after: number; max: number; timeoutMs: number }): Promise<BridgeRead>;
  /**
   * Reads files for upload from the folder the person chose in the options of the browser holding the call's session
   * (broker/mcp/files.ts): names relative to that folder, never outside it.
   * @throws OrielError: session errors, `operation_disabled` (no folder chosen), `permission_denied` (outside it),
   *   `invalid_argument`, `too_large`.
   */
  readUploadFiles(paths: readonly string[]): Promise<Array<{ name: string; type: string; data: string }>>;
  /** Downloads agents' actions started in shared tabs, oldest first (broker/hub/downloads.ts). */
  listDownloads(): DownloadView[];
  /**
   * Download `id` once it is no longer in progress, waiting at most `ms`.
   * @throws OrielError `invalid_argument` (no such download), `cancelled`.
   */
  waitDownload(id: string, ms: number): Promise<DownloadView>;
  /**
   * Reads finished download `id` from `cursor` on (broker/mcp/download-read.ts). Reading it is reading the origin it
   * came from: its tab must still be shared, show that origin and hold a grant there.
   * @throws OrielError `invalid_argument`, `permission_denied`, `too_large`.
   */
  readDownload(id: string, cursor: string | undefined): Promise<{ view: DownloadView; content: DownloadContent }>;
  /** Downloads the page calls of this tool call started (shown with its result). */
  readonly startedDownloads: DownloadView[];
  /**
   * Keeps a binary result (a screenshot's bytes, a finished download) for the calling client to read with
   * `resources/read`, and returns the `resource_link` the result carries instead of the bytes (broker/mcp/resources.ts).
   * @throws OrielError `unsupported` (the client's MCP revision has no resource links), `too_large`, and for a download
   *   `invalid_argument` and `permission_denied` as {@link readDownload}.
   */
  linkResult(request: LinkRequest): Promise<ResultLink>;
  /** What the page calls of this tool call reported changed in the page, as the browser sent it (broker/mcp/changes.ts). */
  readonly pageChanges: unknown[];
}

/**
 * Every JSON type: the explicit `type` of a free-form argument ("any JSON value"), for model APIs that want a type on
 * every property (https://json-schema.org/draft/2020-12/json-schema-validation#section-6.1.1).
 */
export const JSON_TYPES = ['object', 'array', 'string', 'number', 'boolean', 'null'] as const;

/** What a handler returns: the structured result and its text rendering for the model. */
export interface ToolOutput {
  structured: Record<string, unknown>;
  text: string;
  /** Optional image content (screenshot). */
  image?: { data: string; mimeType: string };
  /** Optional `resource_link` content: a binary result kept for `resources/read` (docs/tools.md, "Results as resource links"). */
  link?: ResultLink;
}

/** One MCP tool, as ./define.ts makes it from a tool file's specification. `input` must be a flat z.object. */
export interface ToolDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /**
   * The prompt a model reads before choosing the tool, listed on every request: when to use it and which tool to use
   * instead, in one or two sentences.
   */
  description: string;
  /**
   * How its less obvious arguments work, a sentence or two: sent once in the server's instructions (and in
   * docs/tools.md) rather than with every tools/list.
   */
  usage?: string;
  /** More about the tool for docs/tools.md (limits, consent, edge cases); never listed. */
  notes?: string;
  /**
   * `.describe()` each argument in a few words unless the description names it; the arguments many tools share
   * (handle, selector, timeout_ms, dialog, …) carry no description of their own (broker/mcp/listing.ts).
   */
  input: S;
  /** The common arguments it lists (all three when omitted); it accepts all of them whatever this says. */
  commonArgs?: ReadonlyArray<'session' | 'document' | 'lease'>;
  /**
   * Arguments of its own it accepts but leaves out of tools/list (explained in the server's instructions instead),
   * where listing them on every tool would cost more than the model gains: e.g. `dialog` on tools that seldom open one.
   */
  unlisted?: readonly string[];
  annotations: ToolAnnotations;
  capability: Capability;
  /** Whether it acts on the page: its answer then carries the parts every action shares (./response.ts, ACTING_PARTS). */
  acting?: boolean;
  /** Checks the call's preconditions, runs the tool and adds the answer's shared parts. */
  handler(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutput>;
}
