// The hub's check of each line a client sends: lines that are not JSON-RPC messages, or requests whose parameters do
// not fit, are answered with the JSON-RPC error a client expects instead of being dropped or answered vaguely.
// https://www.jsonrpc.org/specification#error_object (-32700 parse error, -32600 invalid request, -32602 invalid params)
import { specTypeSchemas, type SpecTypeName } from '@modelcontextprotocol/server';

/** What became of one line. */
export type LineVerdict =
  | { kind: 'message'; line: string; value: Record<string, unknown> }
  | { kind: 'reply'; error: { code: number; message: string }; /** The request's id, when it could be read. */ id?: string | number };

/** Classifies one complete line (without its newline). */
export function checkLine(line: string): LineVerdict | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'reply', error: { code: -32700, message: 'Parse error: the line is not JSON' } };
  }
  if (Array.isArray(value)) return { kind: 'reply', error: { code: -32600, message: 'Invalid request: JSON-RPC batches are not supported' } };
  if (typeof value !== 'object' || value === null) return { kind: 'reply', error: { code: -32600, message: 'Invalid request: not a JSON-RPC 2.0 message' } };
  if ((value as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    // The id is echoed whenever it can be read (https://www.jsonrpc.org/specification#response_object): null only when
    // it is missing or not one an answer can carry, so a client that got `jsonrpc` wrong is not left waiting.
    const id = (value as { id?: unknown }).id;
    const message = `Invalid request: not a JSON-RPC 2.0 message ("jsonrpc" must be "2.0")`;
    return { kind: 'reply', error: { code: -32600, message }, ...((typeof id === 'string' || typeof id === 'number') && { id }) };
  }
  // MCP request ids are strings or numbers, never null (https://modelcontextprotocol.io/specification/2025-06-18/basic#requests);
  // an id the answer could not echo is refused here rather than left unanswered.
  if ('id' in value) {
    const id = (value as { id: unknown }).id;
    if (typeof id !== 'string' && typeof id !== 'number') {
      return { kind: 'reply', error: { code: -32600, message: `Invalid request: "id" must be a string or a number, not ${id === null ? 'null' : Array.isArray(id) ? 'an array' : typeof id === 'object' ? 'an object' : typeof id}` } };
    }
    // JSON-RPC says numbers SHOULD NOT have fractional parts; the SDK refuses them without a word, so the client would
    // wait out its timeout. Refused here, with the id echoed as sent.
    if (typeof id === 'number' && !Number.isSafeInteger(id)) {
      return { kind: 'reply', error: { code: -32600, message: 'Invalid request: a numeric "id" must be a whole number' }, id };
    }
  }
  // https://www.jsonrpc.org/specification#request_object: a method is a string, params an object or an array; a
  // message with neither a method nor a result or error is nothing a peer can answer.
  const message = value as Record<string, unknown>;
  const id = message.id as string | number | undefined;
  const invalid = (why: string): LineVerdict => ({ kind: 'reply', error: { code: -32600, message: `Invalid request: ${why}` }, ...(id !== undefined && { id }) });
  if ('method' in message && typeof message.method !== 'string') return invalid('"method" must be a string');
  if ('params' in message && (typeof message.params !== 'object' || message.params === null)) return invalid('"params" must be an object');
  if (!('method' in message) && !('result' in message) && !('error' in message)) return invalid('neither a request, a notification nor a response');
  const params = id !== undefined && typeof message.method === 'string' ? paramsIssue(message) : undefined;
  if (params) return { kind: 'reply', error: { code: -32602, message: `Invalid params for ${message.method as string}: ${params}` }, id: id! };
  return { kind: 'message', line, value: message };
}

/**
 * The MCP client requests whose parameters the SDK checks with a generic failure (-32603 and a schema dump), by method:
 * their spec type in the SDK's own schemas (`tools/call` and `initialize` it answers with -32602 itself).
 * https://modelcontextprotocol.io/specification/2025-06-18/schema
 */
const CHECKED_REQUESTS: Readonly<Record<string, SpecTypeName>> = {
  'tools/list': 'ListToolsRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'resources/subscribe': 'SubscribeRequest',
  'resources/unsubscribe': 'UnsubscribeRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'completion/complete': 'CompleteRequest',
  'logging/setLevel': 'SetLevelRequest',
  ping: 'PingRequest',
};

/** What is wrong with a request's parameters, in one line (the first issue), or undefined when they fit or are not checked here. */
function paramsIssue(message: Record<string, unknown>): string | undefined {
  const type = Object.hasOwn(CHECKED_REQUESTS, message.method as string) ? CHECKED_REQUESTS[message.method as string] : undefined;
  if (!type) return undefined;
  const result = specTypeSchemas[type]['~standard'].validate({ method: message.method, ...('params' in message && { params: message.params }) });
  if (result instanceof Promise || !result.issues?.length) return undefined;
  const issue = result.issues[0]!;
  const where = (issue.path ?? []).map((p) => (typeof p === 'object' ? String(p.key) : String(p))).join('.');
  return `${where ? `${where}: ` : ''}${issue.message}`.slice(0, 300);
}

