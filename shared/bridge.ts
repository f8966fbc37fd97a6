// The page bridge: the envelope a page posts to agents, the event agents' messages reach it as, the shapes on each hop
// and the bounds every hop enforces. Page side: extension/main/bridge.ts (MAIN world) and extension/content/bridge.ts;
// background: extension/background/push.ts; hub: broker/hub/bridge.ts; tools: broker/mcp/tools/bridge.ts. For web
// teams: docs/bridge.md.
import { z } from 'zod';
import { BRIDGE_EVENT, BRIDGE_MESSAGE_TYPE } from './page-channel.js';
import { MAX_TIMEOUT_MS } from './time-limits.js';

export { BRIDGE_EVENT, BRIDGE_MESSAGE_TYPE };

/** The bridge's bounds. Bytes are of the message's `data` as UTF-8 JSON. */
export const BRIDGE_LIMITS = {
  /** Largest message either way. */
  messageBytes: 64 * 1024,
  /** Messages the hub keeps per session, oldest dropped first. */
  bufferMessages: 256,
  /** Bytes the hub keeps per session, oldest dropped first. */
  bufferBytes: 1024 * 1024,
  /** Page → agents, per document (content script) and again per tab (background): a burst, then a steady rate. */
  burstMessages: 64,
  messagesPerSecond: 16,
  burstBytes: 512 * 1024,
  bytesPerSecond: 128 * 1024,
} as const;

/** Longest wait of one `await_message`, ms: under the 60 s request timeout MCP clients commonly use (./time-limits.ts). */
export const MAX_AWAIT_MS = MAX_TIMEOUT_MS;

const encoder = new TextEncoder();

/**
 * Size of a message's JSON text in UTF-8 bytes. Text longer than `limit` characters is over any byte bound already, so
 * its length is returned without encoding it (a flooding page does not make Oriel copy its strings).
 */
export function jsonBytes(text: string, limit: number = BRIDGE_LIMITS.messageBytes): number {
  return text.length > limit ? text.length : encoder.encode(text).byteLength;
}

/**
 * A content script's push to the background (content → background, `chrome.runtime.sendMessage`): one message the
 * page posted. `data` is its JSON text; `skipped` counts the messages this document posted since the last push that
 * never left the page (over the size bound or the rate), so the hub can number past them.
 */
export const PagePushSchema = z
  .object({
    document: z.string().min(1).max(32),
    data: z.string().max(BRIDGE_LIMITS.messageBytes),
    skipped: z.number().int().min(0).max(1e9),
  })
  .strict();
export type PagePush = z.infer<typeof PagePushSchema>;

/** One message as an agent reads it from the hub's buffer. */
export const BridgeMessageSchema = z.object({
  /** Position in the session's stream, from 1; gaps are messages that were dropped. */
  seq: z.number().int(),
  /** The document (handle namespace) that posted it: a message from a page since navigated away keeps its own. */
  document: z.string(),
  /** Origin of that document. */
  origin: z.string(),
  /** When the hub received it, ISO 8601. */
  at: z.string(),
  /** The page's data: page content, untrusted. */
  data: z.unknown(),
});
export type BridgeMessage = z.infer<typeof BridgeMessageSchema>;

/** What one `await_message` returns. */
export const BridgeReadSchema = z.object({
  messages: z.array(BridgeMessageSchema),
  /** The cursor to pass as `after` next time: the last message returned (or the stream's end). */
  next: z.number().int(),
  /** Messages after the given cursor that no reader will ever see: evicted from the buffer, or refused in the page. */
  dropped: z.number().int(),
  /** True when the wait ended without a new message. */
  timed_out: z.boolean(),
  /** The document the tab shows now, when known (compare with each message's `document`). */
  document: z.string().optional(),
});
export type BridgeRead = z.infer<typeof BridgeReadSchema>;
