// The MCP server one client connection talks to: registers every enabled tool definition, validates arguments
// with zod, and turns every failure into an `isError` result carrying Oriel's error data (shared/errors.ts); serves the
// result links tools make with `resources/read` (./resources.ts). The only module that imports the MCP server SDK (with
// connection.ts).
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, inputRequired, McpServer, PROTOCOL_VERSION_META_KEY, ProtocolError, ProtocolErrorCode, ResourceTemplate, type Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { errorData, toErrorData, type ErrorData } from '../../shared/errors.js';
import type { ToolContext, ToolDefinition, ToolOutput } from './tools/types.js';
import { TOOLS } from './tools/index.js';
import { setsWith } from './tools/sets.js';
import { boundText } from './bounds.js';
import { errorText } from './error-text.js';
import { commonArgs } from './tools/define.js';
import type { CallTarget } from './call-target.js';
import { SERVER_VERSION } from '../common/version.js';
import { COMMON_ARGS, listedTool, serverInstructions, type ListedTool } from './listing.js';
import { answerSchema, askThroughClient, canAskForms, questionText, type ElicitingRequest } from './ask-in-app.js';
import type { ModernAsks } from './ask-in-app-modern.js';
import { RESULT_URI_TEMPLATE, type BlobContents } from './resources.js';

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

function errorResult(e: ErrorData) {
  return { isError: true, content: [{ type: 'text' as const, text: errorText(e) }], structuredContent: { error: e } };
}

type Content = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string } | ({ type: 'resource_link' } & NonNullable<ToolOutput['link']>);

function successResult(out: ToolOutput) {
  const content: Content[] = [{ type: 'text', text: boundText(out.text) }];
  if (out.image) content.push({ type: 'image', data: out.image.data, mimeType: out.image.mimeType });
  if (out.link) content.push({ type: 'resource_link', ...out.link });
  return { content, structuredContent: out.structured };
}

/**
 * A failed `resources/read` as a JSON-RPC error carrying Oriel's error data beside the URI: an unknown or expired link
 * is Invalid Params (-32602, as the MCP specification answers a resource it does not have), anything else a server
 * error (-32000).
 */
function resourceError(uri: string, err: unknown): ProtocolError {
  const e = toErrorData(err);
  const code = e.code === 'invalid_argument' && e.details?.reason === 'unknown_resource' ? ProtocolErrorCode.InvalidParams : -32000;
  return new ProtocolError(code, errorText(e), { uri, error: e });
}

/** The MCP revision a request came in: its own (2026-07-28 envelope) or the one negotiated at initialize (2025 eras). */
function revisionOf(server: McpServer, envelope: Record<string, unknown> | undefined): string | undefined {
  const own = envelope?.[PROTOCOL_VERSION_META_KEY];
  return typeof own === 'string' ? own : server.server.getNegotiatedProtocolVersion();
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
  /**
   * Reads a result link this connection made (broker/mcp/resources.ts); absent, the server offers no resources and
   * tools refuse `as: "link"`.
   * @throws OrielError as `readResult`.
   */
  readResult?(uri: string): Promise<BlobContents>;
}

/**
 * Answers a `tools/call` for a name that is not one of `names` as unknown, before the SDK looks it up. The SDK keeps its
 * tools in a plain object, so a name every object inherits (`__proto__`, `constructor`, `toString`) finds
 * `Object.prototype`'s member there and is answered "Tool __proto__ disabled" — wrong, and misleading when an agent
 * passes a page's operation name as a tool name. Must run before the first `registerTool`, which installs the SDK's
 * handler. The answer is the SDK's own for an unknown tool: a JSON-RPC InvalidParams error
 * (https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling); for one of Oriel's tools that
 * the connection's tool set leaves out, its message says so and how to be served it.
 */
function guardToolNames(server: McpServer, names: ReadonlySet<string>): void {
  type CallHandler = (request: { params: { name: string } }, ctx: unknown) => unknown;
  const inner = server.server as unknown as { setRequestHandler(method: string, handler: CallHandler): void };
  const set = inner.setRequestHandler.bind(inner);
  inner.setRequestHandler = (method, handler) =>
    set(method, method !== 'tools/call' ? handler : (request, ctx) => {
      const name = request.params.name;
      if (!names.has(name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, unservedToolText(name));
      return handler(request, ctx);
    });
}

/** The message for a `tools/call` of a name this connection does not serve: unknown to Oriel, or left out of its set. */
function unservedToolText(name: string): string {
  const quoted = JSON.stringify(name.slice(0, 100));
  if (!TOOLS.some((t) => t.name === name)) {
    return `Tool ${quoted} not found: Oriel has no tool of that name (tools/list names them). An operation a page registered is run with call_tab_operation.`;
  }
  const sets = setsWith(name);
  return (
    `Tool ${quoted} is not served to this client: it is an Oriel tool, but the tool set chosen with \`oriel mcp --tools\` leaves it out. ` +
    `To use it, add ${name}${sets.length ? ` (or a set that has it: ${sets.join(', ')})` : ''} to --tools in the client's MCP configuration, or drop --tools to be served every tool ` +
    `(\`oriel config <client>\` prints the entry), then restart the client.`
  );
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
      // The tools capability (listChanged: true) is declared below, not here: declared here, the SDK would install its
      // tools/call handler before guardToolNames could wrap it.
      capabilities: { ...(env.readResult && { resources: {} }) },
      instructions: serverInstructions(tools),
    },
  );
  guardToolNames(server, new Set(tools.map((t) => t.name)));
  server.server.registerCapabilities({ tools: { listChanged: true } });
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
          const links = env.readResult ? { owner: env.clientId, revision: revisionOf(server, ctx.mcpReq.envelope as Record<string, unknown> | undefined) } : undefined;
          const target: CallTarget = { ...common, ...(progress.onPrompt && { onPrompt: progress.onPrompt }), ...appAsking(server, ctx.mcpReq), ...(links && { links }) };
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
  // Result links (docs/tools.md, "Results as resource links"): read by URI, never listed (a template without a list).
  const readResult = env.readResult?.bind(env);
  if (readResult) {
    server.registerResource(
      'result',
      new ResourceTemplate(RESULT_URI_TEMPLATE, { list: undefined }),
      { title: 'A tool result kept as a link', description: 'Screenshots and downloaded files a tool returned as a resource_link; read by the connection that made them, for 10 minutes.' },
      async (uri) => {
        try {
          return { contents: [await readResult(uri.href)] };
        } catch (err) {
          throw resourceError(uri.href, err);
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
