// Builds the narrow ToolContext a tool handler receives from the hub's state. The one place a call's deadline is set.
import type { Hub } from '../hub/hub.js';
import type { AppAsk } from '../hub/app-asks.js';
import { sessionId } from '../hub/sessions.js';
import type { Caller } from '../../shared/call.js';
import { orielError } from '../../shared/errors.js';
import type { SessionView, ToolContext, ToolOutput } from './tools/types.js';
import { ModernAsks } from './ask-in-app-modern.js';
import { readUploadFiles } from './files.js';
import { downloadView, type DownloadRecord } from '../hub/downloads.js';
import { readDownload } from './download-read.js';
import { createMcpServer } from './server.js';
import { TOOLS } from './tools/index.js';

/** Default page-call deadline when a tool gives none, ms. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** No page call may run longer than this, ms. */
export const MAX_CALL_TIMEOUT_MS = 120_000;
/** Shortest page-call budget, ms. */
const MIN_CALL_TIMEOUT_MS = 100;

/** The common arguments of one call: which session, the optional document guard, the lease it runs under. */
export interface CallTarget {
  session?: string;
  document?: string;
  lease?: string;
  /** The tool's deadline defaults, ms. */
  timeout?: { default: number; max: number };
  /** Told when the call starts waiting on the person's permission prompt (until when, ms since the epoch). */
  onPrompt?: (until: number) => void;
  /** Asks that prompt in the client's app too, where the person allows it (broker/mcp/ask-in-app.ts). */
  onAsk?: (ask: AppAsk) => void;
}

/**
 * The context of one tool call by `caller`. `callPage` turns the tool's budget (its own or the tool's default, clamped
 * to the tool's and Oriel's maximum) into the call's absolute deadline, which the hub, the background and the content
 * script only read.
 */
export function makeToolContext(hub: Hub, caller: Caller, signal: AbortSignal, target: CallTarget = {}): ToolContext {
  const budget = (requested: number | undefined) => {
    const max = Math.min(target.timeout?.max ?? MAX_CALL_TIMEOUT_MS, MAX_CALL_TIMEOUT_MS);
    return Math.min(Math.max(requested ?? target.timeout?.default ?? DEFAULT_CALL_TIMEOUT_MS, MIN_CALL_TIMEOUT_MS), max);
  };
  const common = {
    caller,
    signal,
    ...(target.session !== undefined && { session: target.session }),
    ...(target.lease !== undefined && { lease: target.lease }),
  };
  const startedDownloads: SessionDownloads = [];
  const pageChanges: unknown[] = [];
  return {
    clientId: caller.id,
    startedDownloads,
    pageChanges,
    listDownloads() {
      return hub.downloads.all().map(downloadView);
    },
    async waitDownload(id, ms) {
      return downloadView(await hub.downloads.settled(id, ms, signal));
    },
    async readDownload(id, cursor) {
      const record = await hub.downloads.settled(id, 0);
      mayRead(hub, record);
      return { view: downloadView(record), content: await readDownload(record.info, cursor) };
    },
    signal,
    ...(target.lease !== undefined && { lease: target.lease }),
    listSessions(): SessionView[] {
      return hub.sessions.all().map((s) => ({
        id: s.id,
        title: s.info.title,
        url: s.info.url,
        origin: s.info.origin,
        browser: s.browser,
        active: s.info.active,
        connected: s.connected,
        grants: s.info.grants ?? [],
        ...(s.info.withheld && { withheld: true }),
        ...(s.info.document !== undefined && { document: s.info.document }),
        ...(s.info.opener !== undefined && { opener: sessionId(s.instance, s.info.opener) }),
        ...leaseFacts(hub, s.id, caller),
      }));
    },
    readUploadFiles(paths) {
      const session = hub.sessions.resolve(target.session);
      return readUploadFiles(hub.uploadFolder(session.instance), paths, { signal });
    },
    async callPage(op, args, options = {}) {
      const value = await hub.callPage({
        ...common,
        op,
        args,
        deadline: Date.now() + budget(options.timeoutMs),
        ...(target.document !== undefined && { document: target.document }),
        ...(target.onPrompt && { onPrompt: target.onPrompt }),
        ...(target.onAsk && { onAsk: target.onAsk }),
      });
      // What the action changed (extension/background/action-changes.ts): the tool's answer shows it (./changes.ts).
      const changes = (value as { changes?: unknown } | null)?.changes;
      if (changes !== undefined) pageChanges.push(changes);
      // The background names the downloads the call started (extension/background/downloads.ts); the tool's answer shows them.
      const ids = (value as { downloads?: unknown } | null)?.downloads;
      if (Array.isArray(ids)) {
        const instance = hub.sessions.resolve(target.session).instance;
        for (const id of ids.slice(0, 20)) {
          const record = typeof id === 'string' ? hub.downloads.get(`${instance}-d${id}`) : undefined;
          if (record) startedDownloads.push(downloadView(record));
        }
      }
      return value;
    },
    acquireLease(options) {
      return hub.acquireLease({ ...common, deadline: Date.now() + budget(options.timeoutMs), ...(options.ttlMs !== undefined && { ttlMs: options.ttlMs }) });
    },
    releaseLease(lease) {
      return hub.releaseLease(lease, caller);
    },
    async awaitMessages({ after, max, timeoutMs }) {
      const session = hub.sessions.resolve(target.session);
      if (target.document !== undefined && session.info.document !== undefined && session.info.document !== target.document) {
        throw orielError('stale_document', `The tab now shows another document (doc=${session.info.document}, expected ${target.document}).`, { details: { document: session.info.document } });
      }
      const read = await hub.bridge.wait(session.id, after, max, timeoutMs, signal);
      const document = hub.sessions.get(session.id)?.info.document;
      return { ...read, ...(document !== undefined && { document }) };
    },
  };
}

type SessionDownloads = ReturnType<typeof downloadView>[];

/**
 * Reading a download is reading the origin it came from (docs/tools.md, "downloads"): its tab must still be shared and
 * connected, show that origin, and hold an allowance there (sharing's own included) with no denial of reading.
 * @throws OrielError `permission_denied`.
 */
function mayRead(hub: Hub, record: DownloadRecord): void {
  const session = hub.sessions.get(record.session);
  const origin = record.info.origin;
  if (!session || !session.connected || session.info.origin !== origin) {
    throw orielError('permission_denied', `Reading this file is reading ${origin}: the tab it came from is no longer shared or shows another site now.`, { next: 'navigate the tab back to that site, or ask the user to share it again' });
  }
  const grants = session.info.grants ?? [];
  const allowed = grants.some((g) => g.effect === 'allow' && !g.exact_code) && !grants.some((g) => g.effect === 'deny' && g.capability === 'read');
  if (!allowed) throw orielError('permission_denied', `The user has not allowed reading ${origin}.`, { next: 'snapshot the tab first (the user is asked), then read again' });
}

/** The lease facts of `session` as `caller` may see them: who holds it and until when, never the id. */
function leaseFacts(hub: Hub, session: string, caller: Caller): Pick<SessionView, 'lease'> {
  const held = hub.leaseOf(session);
  if (!held) return {};
  return { lease: { holder: held.holder.name, yours: held.holder.id === caller.id, expires_at: new Date(held.expiresAt).toISOString(), max_until: new Date(held.maxUntil).toISOString() } };
}

const parkedCalls = new WeakMap<Hub, ModernAsks<ToolOutput>>();

/** The hub's table of 2026-era calls waiting for their client's retry (shared by every connection, keyed by state). */
function modernAsksOf(hub: Hub): ModernAsks<ToolOutput> {
  let asks = parkedCalls.get(hub);
  if (!asks) parkedCalls.set(hub, (asks = new ModernAsks<ToolOutput>()));
  return asks;
}

/**
 * The MCP server for one hub client (a stdio connection or an HTTP session): its tools act as that client, under the
 * name the client gives in `initialize`, with the tools every connected browser allows. `tools` names the tools it
 * serves (docs/tools.md, "Tool sets"); every tool when omitted, and names Oriel does not know are ignored.
 */
export function serverForClient(hub: Hub, clientId: string, caller: Caller, tools?: readonly string[]): ReturnType<typeof createMcpServer> {
  return createMcpServer({
    clientId,
    context: (signal, target, clientName) => {
      if (clientName) hub.clients.rename(clientId, clientName);
      return makeToolContext(hub, hub.clients.get(clientId) ?? caller, signal, target);
    },
    disabled: () => hub.disabledTools(),
    modernAsks: modernAsksOf(hub),
  }, tools ? TOOLS.filter((t) => tools.includes(t.name)) : TOOLS);
}
