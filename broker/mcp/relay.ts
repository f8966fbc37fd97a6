// `oriel mcp`: the stdio relay an MCP client spawns. Pipes newline-delimited JSON-RPC between the client and the
// hub, starting the hub if needed. If the hub goes away, every request still waiting is answered (never left
// hanging), and the relay reconnects to a new hub, replaying the legacy handshake so the client carries on.
// stdout carries protocol only. Counterpart: broker/mcp/connection.ts (in the hub).
import type { Socket } from 'node:net';
import { connectHub } from '../hub/spawn.js';
import { logger } from '../common/log.js';
import { errorData } from '../../shared/errors.js';
import { LineSplitter, oversizedReply } from './lines.js';
import { errorText } from './error-text.js';

const log = logger('mcp-relay');
type Id = string | number;

/** Id prefix of the handshake the relay replays after a reconnect; its answer is not forwarded. */
export const REPLAY_PREFIX = 'oriel-relay-replay-';

/** What the relay remembers of the conversation, from the client's side. */
export class Conversation {
  /** Requests sent to the hub and not answered yet: id → method and the raw line. */
  readonly pending = new Map<Id, { method: string; line: string }>();
  /** The legacy `initialize` request and `notifications/initialized`, to replay to a new hub. */
  initialize?: Record<string, unknown>;
  initialized?: string;

  fromClient(line: string): void {
    const msg = parse(line);
    if (!msg) return;
    if (typeof msg.method === 'string' && (typeof msg.id === 'string' || typeof msg.id === 'number')) {
      this.pending.set(msg.id, { method: msg.method, line });
      if (msg.method === 'initialize') this.initialize = msg;
    } else if (msg.method === 'notifications/initialized') this.initialized = line;
    else if (msg.method === 'notifications/cancelled') {
      const id = (msg.params as { requestId?: Id } | undefined)?.requestId;
      if (id !== undefined) this.pending.delete(id);
    }
  }

  /** Returns false when the line answers the relay's own replayed handshake (not for the client). */
  fromHub(line: string): boolean {
    const msg = parse(line);
    if (!msg || msg.method !== undefined) return true;
    if (typeof msg.id === 'string' && msg.id.startsWith(REPLAY_PREFIX)) return false;
    if (typeof msg.id === 'string' || typeof msg.id === 'number') this.pending.delete(msg.id);
    return true;
  }
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The answer for a request the hub can no longer answer: a failed tool result for tool calls, else a JSON-RPC error. */
export function orphanAnswer(id: Id, method: string): string {
  const e = errorData('browser_disconnected', 'The Oriel hub stopped while this call was running; it was not replayed. Check the page (snapshot) before retrying.');
  if (method === 'tools/call') {
    return JSON.stringify({ jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: errorText(e) }], structuredContent: { error: e } } });
  }
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: e.message } });
}

function write(line: string): void {
  process.stdout.write(line + '\n');
}

/**
 * Relays stdio to the hub until the client closes stdin. `tools`: the tool names this client is served
 * (`--tools`, resolved by the CLI; docs/tools.md, "Tool sets"), every tool when omitted.
 */
export async function runMcpRelay(options: { tools?: readonly string[] } = {}): Promise<void> {
  const talk = new Conversation();
  const name = process.env.ORIEL_CLIENT_NAME ?? 'stdio';
  let socket: Socket | undefined;
  let connecting: Promise<Socket> | undefined;
  let stdinEnded = false;
  const backlog: string[] = [];

  process.stdout.on('error', () => process.exit(0)); // the client went away

  const attach = (s: Socket) => {
    const splitter = new LineSplitter(Number.MAX_SAFE_INTEGER);
    s.on('data', (chunk: Buffer) => {
      for (const item of splitter.push(chunk)) if ('line' in item && talk.fromHub(item.line)) write(item.line);
    });
    s.on('error', (err) => log.warn('hub connection error', { message: err.message }));
    s.on('close', () => {
      if (socket !== s) return;
      socket = undefined;
      if (stdinEnded) process.exit(0);
      log.warn('the hub connection closed; answering waiting requests and reconnecting', { waiting: talk.pending.size });
      for (const [id, { method, line }] of talk.pending) {
        // A subscription stream is re-opened on the new hub; everything else is answered now, never replayed.
        if (method === 'subscriptions/listen') backlog.push(line);
        else {
          write(orphanAnswer(id, method));
          talk.pending.delete(id);
        }
      }
      void reconnect();
    });
  };

  const open = async (): Promise<Socket> => {
    const s = await connectHub({ t: 'hello', role: 'client', name, ...(options.tools && { tools: [...options.tools] }) });
    attach(s);
    return s;
  };

  const reconnect = async () => {
    connecting = open().then((s) => {
      if (talk.initialize) s.write(JSON.stringify({ ...talk.initialize, id: `${REPLAY_PREFIX}${Date.now()}` }) + '\n');
      if (talk.initialized) s.write(talk.initialized + '\n');
      for (const line of backlog.splice(0)) s.write(line + '\n');
      socket = s;
      connecting = undefined;
      // The client left while we were reconnecting: say goodbye to the new hub too, so nothing outlives us.
      if (stdinEnded) s.end();
      return s;
    });
    await connecting.catch((err: Error) => {
      log.error('could not reach a hub again; exiting', { message: err.message });
      process.exit(1);
    });
  };

  socket = await open();
  const splitter = new LineSplitter();
  process.stdin.on('data', (chunk: Buffer) => {
    for (const item of splitter.push(chunk)) {
      // An oversized line never leaves the relay: it is answered here, as the hub would answer it.
      if (!('line' in item)) {
        log.warn('dropped an oversized line from the client', { answered: item.id !== undefined ? 'its request id' : 'id null (unreadable)' });
        write(oversizedReply(item.id));
        continue;
      }
      const { line } = item;
      talk.fromClient(line);
      if (socket) socket.write(line + '\n');
      else backlog.push(line);
    }
  });
  process.stdin.on('end', () => {
    stdinEnded = true;
    if (socket) socket.end();
    else if (!connecting) process.exit(0);
  });
}
