// Builds the narrow ToolContext a tool handler receives from the hub's state. The one place a call's deadline is set.
import type { Hub } from '../hub/hub.js';
import type { CallTarget } from './call-target.js';
import { sessionId } from '../hub/sessions.js';
import type { Caller } from '../../shared/call.js';
import { orielError } from '../../shared/errors.js';
import type { SessionView, ToolContext, ToolOutput } from './tools/types.js';
import { ModernAsks } from './ask-in-app-modern.js';
import { readUploadFiles } from './files.js';
import { downloadView, type DownloadRecord } from '../hub/downloads.js';
import { readDownload } from './download-read.js';
import { mayReadOrigin } from './read-grant.js';
import { linkResult, readResult } from './resources.js';
import { createMcpServer } from './server.js';
import { TOOLS } from './tools/index.js';
import { budgetMs, LEASE_WAIT_BUDGET, opBudgetMs } from './tools/budget.js';

/** No page call may run longer than this, ms. */
export const MAX_CALL_TIMEOUT_MS = 120_000;
/** Shortest page-call budget, ms. */
const MIN_CALL_TIMEOUT_MS = 100;

/**
 * The context of one tool call by `caller`. `callPage` turns the operation's budget for its arguments
 * (./tools/budget.ts), kept within Oriel's bounds, into the call's absolute deadline, which the hub, the background and
 * the content script only read.
 */
export function makeToolContext(hub: Hub, caller: Caller, signal: AbortSignal, target: CallTarget = {}): ToolContext {
  const deadline = (ms: number) => Date.now() + Math.min(Math.max(ms, MIN_CALL_TIMEOUT_MS), MAX_CALL_TIMEOUT_MS);
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
    linkResult(request) {
      return linkResult(hub, target.links ?? { owner: caller.id, revision: undefined }, request, () => {
        // The call's session: named, or the one its lease holds (a lease names its session), or the only one.
        const held = target.session === undefined && target.lease !== undefined ? hub.sessions.all().filter((s) => hub.leaseOf(s.id)?.holder.id === caller.id) : [];
        const s = held.length === 1 ? held[0]! : hub.sessions.resolve(target.session);
        return { id: s.id, origin: s.info.origin };
      });
    },
    signal,
    ...(target.lease !== undefined && { lease: target.lease }),
    noSessionText: () => hub.noSessionText(),
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
    async callPage(op, args) {
      const answer = await hub.callPage({
        ...common,
        op,
        args,
        deadline: deadline(opBudgetMs(op, args)),
        ...(target.document !== undefined && { document: target.document }),
        ...(target.onPrompt && { onPrompt: target.onPrompt }),
        ...(target.onAsk && { onAsk: target.onAsk }),
      });
      // What the action changed (extension/background/action-changes.ts): the tool's answer shows it (./changes.ts).
      if (answer.changes !== undefined) pageChanges.push(answer.changes);
      // The background names the downloads the call started (extension/background/downloads.ts); the tool's answer shows them.
      if (answer.downloads) {
        const instance = hub.sessions.resolve(target.session).instance;
        for (const id of answer.downloads) {
          const record = hub.downloads.get(`${instance}-d${id}`);
          if (record) startedDownloads.push(downloadView(record));
        }
      }
      return answer.value;
    },
    acquireLease(options) {
      return hub.acquireLease({ ...common, deadline: deadline(budgetMs(LEASE_WAIT_BUDGET, { timeout_ms: options.timeoutMs })), ...(options.ttlMs !== undefined && { ttlMs: options.ttlMs }) });
    },
    releaseLease(lease) {
      return hub.releaseLease(lease, caller);
    },
    async awaitMessages({ after, max, timeoutMs }) {
      // A lease quoted here is checked as for a page call: a lease that is not the caller's, or is for another tab,
      // is refused rather than ignored; it names the session when none is given.
      const named = target.session === undefined ? undefined : hub.sessions.resolve(target.session);
      const session = target.lease === undefined ? (named ?? hub.sessions.resolve(undefined)) : hub.sessions.resolve(hub.scheduler.leases.check(target.lease, caller, named?.id).session);
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

/** Reading a download is reading the origin it came from (docs/tools.md, "downloads"). @throws OrielError `permission_denied`. */
function mayRead(hub: Hub, record: DownloadRecord): void {
  mayReadOrigin(hub, record.session, record.info.origin, 'this file');
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
    readResult: (uri) => readResult(hub, clientId, uri),
  }, tools ? TOOLS.filter((t) => tools.includes(t.name)) : TOOLS);
}
