// The MCP server one client connection talks to: registers every enabled tool definition, validates arguments
// with zod, and turns every failure into an `isError` result carrying Oriel's error data (shared/errors.ts). The only module that
// imports the MCP server SDK (with connection.ts).
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, inputRequired, McpServer, type Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { errorData, toErrorData, type ErrorData } from '../../shared/errors.js';
import type { ToolContext, ToolDefinition, ToolOutput } from './tools/types.js';
import { TOOLS } from './tools/index.js';
import { boundText } from './bounds.js';
import { escapeBare } from '../../shared/snapshot/escape.js';
import { commonArgs } from './tools/define.js';
import type { CallTarget } from './call-target.js';
import { SERVER_VERSION } from '../common/version.js';
import { COMMON_ARGS, listedTool, serverInstructions, type ListedTool } from './listing.js';
import { answerSchema, askThroughClient, canAskForms, questionText, type ElicitingRequest } from './ask-in-app.js';
import type { ModernAsks } from './ask-in-app-modern.js';

/** The key of the permission question in a 2026-07-28 `input_required` result and in the retry's `inputResponses`. */
const CONSENT_INPUT = 'oriel_permission';

/** Arguments every tool accepts (their home is listing.ts). */
export { COMMON_ARGS };

/**
 * A Standard Schema that advertises `schema`'s JSON Schema in tools/list but lets every input through, so that Oriel's
 * handler validates it and answers with a structured `invalid_argument` (the SDK's own check answers in plain text).
 */
function advertiseOnly(schema: z.ZodObject) {
  const std = schema['~standard'];
  return { '~standard': { ...std, validate: (value: unknown) => ({ value }) } } as unknown as z.ZodObject;
}

/**
 * Renders an error for the model: code, message and what to do next. Messages can carry page text (a page's
 * exception, a title), so line breaks and bidi controls in them are escaped and cannot forge a `Next:` line.
 */
export function errorText(e: ErrorData): string {
  return `Error ${e.code}: ${escapeBare(e.message)}${e.next ? `\nNext: ${escapeBare(e.next)}` : ''}`;
}

function errorResult(e: ErrorData) {
  return { isError: true, content: [{ type: 'text' as const, text: errorText(e) }], structuredContent: { error: e } };
}

function successResult(out: ToolOutput) {
  const content: Array<{ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string }> = [{ type: 'text', text: boundText(out.text) }];
  if (out.image) content.push({ type: 'image', data: out.image.data, mimeType: out.image.mimeType });
  return { content, structuredContent: out.structured };
}

/** The client's name: from the request's envelope (2026-07-28 era) or from initialize (2025 eras). */
function clientNameOf(server: McpServer, envelope: Record<string, unknown> | undefined): string | undefined {
  const info = envelope?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined;
  if (typeof info?.name === 'string') return info.name;
  return server.server.getClientVersion()?.name;
}

/** Per-connection facts the factory needs. */
export interface ServerEnvironment {
  clientId: string;
  /**
   * Builds the tool context for one call, bound to the call's session and document guard. `clientName` is the name
   * the client gave in its `clientInfo` (on initialize, or in the request's envelope in the 2026-07-28 era).
   */
  context(signal: AbortSignal, target: CallTarget, clientName: string | undefined): ToolContext;
  /** Tools the user's policy disabled (hidden from tools/list, refused if called). */
  disabled(): ReadonlySet<string>;
  /**
   * Where a 2026-07-28-era call may wait for the client's retry with the person's answer (a connection that outlives
   * its requests: stdio); absent, only the popup asks in that revision.
   */
  modernAsks?: ModernAsks<ToolOutput>;
}

/**
 * Creates one McpServer with Oriel's tools. Called once per connection (and per era probe) by serveStdio. Tools the
 * person's policy disables are left out of `tools/list` and answer `operation_disabled` if called anyway; call
 * `sendToolListChanged()` on the server when the policy changes.
 */
export function createMcpServer(env: ServerEnvironment, tools: readonly ToolDefinition[] = TOOLS): McpServer {
  const server = new McpServer(
    { name: 'oriel', version: SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: true } },
      instructions: serverInstructions(tools),
    },
  );
  // tools/list shows the compact form (listing.ts); the handler below validates against the full schema, bounds included.
  const listed: ListedTool[] = [];
  for (const def of tools) {
    const full = def.input.extend(COMMON_ARGS);
    const annotations = { title: def.title, ...def.annotations };
    listed.push(listedTool(def));
    // Unknown arguments are refused, naming them: silently dropping one would hide a model's misunderstanding.
    const strict = full.strict();
    server.registerTool(
      def.name,
      { title: def.title, description: def.description, inputSchema: advertiseOnly(full), annotations },
      async (raw: unknown, ctx) => {
        if (env.disabled().has(def.name)) return errorResult(errorData('operation_disabled', `The user switched off "${def.name}" in Oriel's options, so agents cannot use it.`));
        const parsed = strict.safeParse(raw ?? {});
        if (!parsed.success) {
          const issues = parsed.error.issues.slice(0, 5).map((i) =>
            i.code === 'unrecognized_keys'
              ? `unknown argument${i.keys.length > 1 ? 's' : ''} ${i.keys.slice(0, 10).map((k) => JSON.stringify(k.slice(0, 60))).join(', ')} (${def.name} takes: ${Object.keys(full.shape).join(', ')})`
              : `${i.path.join('.') || '(arguments)'}: ${i.message}`,
          );
          return errorResult(errorData('invalid_argument', `Invalid arguments for ${def.name}: ${issues.join('; ')}`));
        }
        const { common, own: args } = commonArgs(parsed.data as Record<string, unknown>);
        const progress = progressReporter(ctx.mcpReq, def.name);
        try {
          const target: CallTarget = { ...common, ...(progress.onPrompt && { onPrompt: progress.onPrompt }), ...appAsking(server, ctx.mcpReq) };
          const clientName = clientNameOf(server, ctx.mcpReq.envelope);
          if (env.modernAsks && canAskForms((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: unknown } | undefined)) {
            // 2026-07-28: the question goes back as input_required; the client's retry carries the answer.
            const state = ctx.mcpReq.requestState<string>();
            const step =
              typeof state === 'string'
                ? await env.modernAsks.resume(env.clientId, def.name, state, ctx.mcpReq.inputResponses?.[CONSENT_INPUT], ctx.mcpReq.signal)
                : await env.modernAsks.start(env.clientId, def.name, ctx.mcpReq.signal, (onAsk, signal) => {
                    const context = env.context(signal, { ...target, onAsk }, clientName);
                    return def.handler(args, context);
                  });
            if (step.kind === 'done') return successResult(step.result);
            const q = step.ask.question;
            return inputRequired({ inputRequests: { [CONSENT_INPUT]: inputRequired.elicit({ mode: 'form', message: questionText(q, step.ask.client), requestedSchema: answerSchema(q) }) }, requestState: step.token });
          }
          const context = env.context(ctx.mcpReq.signal, target, clientName);
          return successResult(await def.handler(args, context));
        } catch (err) {
          return errorResult(toErrorData(err));
        } finally {
          progress.stop();
        }
      },
    );
  }
  // The SDK's own switch for a tool (RegisteredTool.disable) would also refuse calls with a JSON-RPC error; Oriel lists
  // the enabled tools itself so that a call to a disabled one still gets its structured operation_disabled result.
  server.server.removeRequestHandler('tools/list');
  server.server.setRequestHandler('tools/list', () => {
    const off = env.disabled();
    return { tools: listed.filter((t) => !off.has(t.name)) as Tool[] };
  });
  return server;
}

/**
 * `onAsk` for a call whose client can show a form (2025 revisions: the `elicitation` capability from initialize); the
 * hub uses it only where the person let this client ask in its app. The 2026-07-28 revision has no server-to-client
 * request (a request carries its envelope instead), so there the popup alone asks.
 */
function appAsking(server: McpServer, req: ElicitingRequest & { envelope?: unknown }): Pick<CallTarget, 'onAsk'> {
  if (req.envelope !== undefined) return {};
  return canAskForms(server.server.getClientCapabilities()) ? { onAsk: askThroughClient(req) } : {};
}

/**
 * How often a call still running tells a client that asked for progress, ms: well under the MCP SDKs' default 60 s
 * request timeout, which they restart on each progress notification when asked to (`resetTimeoutOnProgress`).
 */
export const PROGRESS_INTERVAL_MS = 10_000;

/**
 * Progress for one call, when the client sent `_meta.progressToken`: a notification every {@link PROGRESS_INTERVAL_MS}
 * while the call runs (waiting on a permission prompt, on `wait_for`, on a lease...), and one at once when it starts
 * waiting on the person's prompt, saying until when. `progress` counts the notifications (it only grows, as the
 * specification requires); there is no `total`. `stop` ends them when the call ends.
 * https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/progress
 */
function progressReporter(
  req: { _meta?: Record<string, unknown>; notify(n: { method: string; params?: Record<string, unknown> }): Promise<void> },
  tool: string,
): { onPrompt?: (until: number) => void; stop(): void } {
  const token = req._meta?.progressToken;
  if (typeof token !== 'string' && typeof token !== 'number') return { stop() {} };
  const started = Date.now();
  let progress = 0;
  let promptUntil: number | undefined;
  const send = () => {
    const now = Date.now();
    const message =
      promptUntil !== undefined && promptUntil > now
        ? `Waiting up to ${Math.max(0, Math.round((promptUntil - now) / 1000))} s more for the user to answer Oriel's permission prompt.`
        : `${tool} is still running (${Math.round((now - started) / 1000)} s so far).`;
    void req.notify({ method: 'notifications/progress', params: { progressToken: token, progress: ++progress, message } }).catch(() => undefined);
  };
  const timer = setInterval(send, PROGRESS_INTERVAL_MS);
  return {
    onPrompt(until) {
      promptUntil = until;
      send();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
