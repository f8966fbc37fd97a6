// The optional Streamable HTTP transport (`oriel serve --http`), served inside the hub so HTTP clients share its
// sessions, leases and queues with stdio clients. Loopback only; every request must carry the bearer token; the Host
// header must name the loopback (DNS rebinding) and browsers' requests are refused (an Origin or Fetch Metadata header).
// Both protocol eras: 2026-07-28 per request (the SDK's createMcpHandler; callers in ./http-callers.ts), the 2025 eras
// as Streamable HTTP sessions, each session one client (./http-sessions.ts); malformed requests are refused first
// (./http-target.ts). Counterpart of connection.ts (stdio clients); started by broker/hub/server.ts on request.
// https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  OAuthError,
  OAuthErrorCode,
  originValidationResponse,
  requireBearerAuth,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { Hub } from '../hub/hub.js';
import { logger } from '../common/log.js';
import { createMcpServer } from './server.js';
import { ModernCallers } from './http-callers.js';
import { SessionBook } from './http-sessions.js';
import { malformedTarget } from './http-target.js';
import { makeToolContext, serverForClient } from './context.js';
import { readResult } from './resources.js';
import { MCP_PATH } from './http-port.js';

const log = logger('http');

/** Most 2025-era sessions open at once; at the cap a new one replaces the one idle longest without an open stream. */
const MAX_SESSIONS = 128;
/** A 2025-era session without requests and without an open stream this long ends (its client's leases with it), ms. */
const SESSION_IDLE_MS = 5 * 60_000;
/** A 2025-era session whose client's stream closed ends this long after unless the client comes back, ms. */
const SESSION_GONE_MS = 3_000;
/** Most 2026-07-28 calls in flight at once (each its own caller until it ends). */
const MAX_MODERN_CALLS = 256;
/** Largest request body, bytes (the stdio side allows 8 MiB lines; HTTP clients send tool calls, not pages). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The loopback address `host` names (`127.0.0.0/8`, `::1`, or `localhost` as 127.0.0.1), or undefined for any other
 * host: Oriel's HTTP transport never listens beyond this machine.
 */
export function loopbackAddress(host: string): string | undefined {
  if (host === 'localhost') return '127.0.0.1';
  if (host === '::1' || host === '[::1]') return '::1';
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (m && m.slice(1).every((o) => Number(o) <= 255)) return host;
  return undefined;
}

/** Options of {@link startHttpServer}. */
export interface HttpServeOptions {
  /** A loopback address ({@link loopbackAddress}); anything else is refused. */
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The bearer token every request must carry (broker/common/http-token.ts). */
  token: string;
}

/** A running HTTP transport. */
export interface HttpServer {
  /** `http://<host>:<port>/mcp` */
  url: string;
  close(): Promise<void>;
}

/** Why a request is refused before MCP sees it, as a JSON-RPC error body (the SDK's own guards answer alike). */
function refuse(status: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status });
}

/** Constant-time comparison of two tokens (through their digests, so lengths do not leak either). */
function sameToken(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Serves MCP over Streamable HTTP on `options.host:options.port` until closed.
 * @throws Error when `host` is not a loopback address, or the port cannot be bound (e.g. in use).
 */
export async function startHttpServer(hub: Hub, options: HttpServeOptions): Promise<HttpServer> {
  const address = loopbackAddress(options.host);
  if (!address) throw new Error(`refusing to listen on ${JSON.stringify(options.host)}: the HTTP transport binds a loopback address only`);
  if (!/^[\w-]{32,}$/.test(options.token)) throw new Error('the HTTP transport needs a bearer token');

  const gate = requireBearerAuth({
    verifier: {
      async verifyAccessToken(token: string): Promise<AuthInfo> {
        if (!sameToken(token, options.token)) throw new OAuthError(OAuthErrorCode.InvalidToken, 'The token is not valid for this Oriel.');
        return { token, clientId: 'oriel-http', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
      },
    },
  });

  // 2026-07-28 clients have no connection and no session: each exchange is its own caller, and a lease carries a
  // hold across exchanges (./http-callers.ts). The client's name is only the caller's label.
  const modern = new ModernCallers(hub, MAX_MODERN_CALLS);
  const modernHandler = createMcpHandler(
    () => {
      const exchange = modern.exchange();
      const server = createMcpServer({
        clientId: 'http',
        context: (signal, target, clientName) => makeToolContext(hub, exchange.callerFor(target.lease, clientName), signal, target),
        disabled: () => hub.disabledTools(),
        // No connection to scope a result link to: it belongs to every 2026-07-28 exchange, and its URI (128 random
        // bits, shown only to the client that made it) is the key, as a lease id is (docs/tools.md, "Results as resource links").
        readResult: (uri) => readResult(hub, 'http', uri),
      });
      // The exchange is over (answered, or its client went away): its caller leaves unless it now holds a lease.
      server.server.onclose = () => exchange.end();
      return server;
    },
    { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES, onerror: (err) => log.warn('http mcp error', { message: err.message }) },
  );
  const holdersSweep = setInterval(() => modern.sweep(), 5_000).unref();

  // 2025-era clients open a session with initialize: each session is one client until it ends (./http-sessions.ts).
  type Open = { transport: WebStandardStreamableHTTPServerTransport; clientId: string; server: ReturnType<typeof createMcpServer> };
  const sessions = new SessionBook<Open>({ max: MAX_SESSIONS, idleMs: SESSION_IDLE_MS, goneMs: SESSION_GONE_MS }, (_id, s, why) => {
    log.info('ended an HTTP session', { why });
    void s.transport.close();
  });
  // The person's tool policy changed: 2025-era sessions are told directly, 2026-07-28 clients on their subscriptions.
  const onToolsChanged = () => {
    for (const s of sessions.values()) s.server.sendToolListChanged();
    modernHandler.notify.toolsChanged();
  };
  hub.events.on('tools_changed', onToolsChanged);
  const leave = (clientId: string) => {
    const gone = hub.clients.remove(clientId);
    if (gone) hub.events.emit('client_gone', gone);
  };
  const legacy = async (request: Request, authInfo: AuthInfo): Promise<Response> => {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const known = sessions.get(sessionId);
      if (!known) return refuse(404, 'Session not found: initialize again.');
      sessions.touch(sessionId);
      const response = await known.transport.handleRequest(request, { authInfo });
      // The standalone SSE stream is how the session knows its client is still there: when it closes (the client
      // closed, or was killed) and stays closed, the session ends.
      if (request.method === 'GET' && response.ok && response.body) {
        const closed = sessions.streamOpened(sessionId);
        if (request.signal.aborted) closed();
        else request.signal.addEventListener('abort', closed, { once: true });
      }
      return response;
    }
    if (!sessions.makeRoom()) return refuse(503, `Too many open sessions (${MAX_SESSIONS}), each with a client attached; close one and retry.`);
    const clientId = `h${randomBytes(4).toString('hex')}`;
    const caller = hub.clients.add(clientId, '');
    hub.events.emit('client_connected', caller);
    let opened: string | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_BODY_BYTES,
      onsessioninitialized: (id) => {
        opened = id;
        sessions.add(id, { transport, clientId, server });
      },
    });
    transport.onclose = () => {
      if (opened) sessions.delete(opened);
      leave(clientId);
    };
    const server = serverForClient(hub, clientId, caller);
    await server.connect(transport);
    const response = await transport.handleRequest(request, { authInfo });
    // Not an initialize (or a failed one): no session was opened, and no client stays.
    if (!opened) await transport.close();
    return response;
  };

  const handle = async (request: Request): Promise<Response> => {
    // DNS rebinding: a page on evil.example resolving to 127.0.0.1 still sends Host: evil.example.
    const badHost = hostHeaderValidationResponse(request, localhostAllowedHostnames());
    if (badHost) {
      log.warn('refused a request for another host', { host: (request.headers.get('host') ?? '').slice(0, 100) });
      return badHost;
    }
    // Browsers send Origin on cross-origin requests and Sec-Fetch-Site on all of theirs; MCP clients send neither
    // (Node's fetch does send Sec-Fetch-Mode, so that one proves nothing).
    // https://fetch.spec.whatwg.org/#origin-header, https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header
    const badOrigin = originValidationResponse(request, []);
    if (badOrigin || request.headers.has('sec-fetch-site')) {
      log.warn('refused a browser request', { origin: (request.headers.get('origin') ?? '').slice(0, 100) });
      return badOrigin ?? refuse(403, 'Requests from web browsers are refused.');
    }
    const auth = await gate(request);
    if (auth instanceof Response) {
      log.warn('refused a request without the right bearer token');
      return auth;
    }
    if (new URL(request.url).pathname !== MCP_PATH) return refuse(404, `MCP is served at ${MCP_PATH}.`);
    return (await isLegacyRequest(request, undefined, { maxRequestBodySize: MAX_BODY_BYTES })) ? legacy(request, auth) : modernHandler.fetch(request, { authInfo: auth });
  };

  const nodeHandler = toNodeHandler({ fetch: handle }, { maxRequestBodySize: MAX_BODY_BYTES, onerror: (err) => log.warn('http request failed', { message: err.message }) });
  const server = http.createServer((req, res) => {
    const malformed = malformedTarget(req);
    if (!malformed) return void nodeHandler(req, res);
    log.warn('refused a malformed request', { reason: malformed });
    res.writeHead(400, { 'content-type': 'application/json', connection: 'close' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: `Bad request: ${malformed}` }, id: null }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, address, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}${MCP_PATH}`;
  log.info('serving MCP over HTTP', { url });
  return {
    url,
    async close() {
      clearInterval(holdersSweep);
      sessions.stop();
      hub.events.off('tools_changed', onToolsChanged);
      await Promise.allSettled(sessions.values().map((s) => s.transport.close()));
      modern.clear();
      await modernHandler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
