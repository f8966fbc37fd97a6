// The bridge in the content script (top frame only; docs/bridge.md). Page → agents: hears the page's
// `{type: 'oriel-bridge', data}` posts, refuses what is over the size bound or the rate, and pushes the rest to the
// background (extension/background/push.ts), counting the refused ones so agents learn they were dropped. Agents →
// page: the `send_message` handler hands the message to the MAIN-world side (extension/main/bridge.ts), which
// dispatches the page's event. Everything the page posts is page content: measured, never interpreted.
import { TokenBucket } from 'limiter';
import { BRIDGE_LIMITS, BRIDGE_MESSAGE_TYPE, jsonBytes, type PagePush } from '../../shared/bridge.js';
import { BRIDGE_DELIVER } from '../../shared/page-channel.js';
import { orielError } from '../../shared/errors.js';
import { currentRegistry } from './document.js';
import type { ContentHandlers } from './handlers.js';
import { sendSide } from '../side-channel.js';

/** A full bucket: the `limiter` package starts its buckets empty. */
function fullBucket(size: number, perSecond: number): TokenBucket {
  const bucket = new TokenBucket({ bucketSize: size, tokensPerInterval: perSecond, interval: 'second' });
  bucket.content = size;
  return bucket;
}

/** What this frame knows of its document's bridge: whether it opened it, and what was refused since the last push. */
interface BridgeState {
  document: string;
  opened: boolean;
  skipped: number;
  messages: TokenBucket;
  bytes: TokenBucket;
  /** Warned in the page's console about refusals (once per document, so a flood does not flood the console). */
  warned: boolean;
}

let state: BridgeState | undefined;

/** The state of the document this frame shows now (a new document starts closed, with full buckets). */
function current(): BridgeState {
  const document = currentRegistry().namespace;
  if (state?.document !== document) {
    state = {
      document,
      opened: false,
      skipped: 0,
      messages: fullBucket(BRIDGE_LIMITS.burstMessages, BRIDGE_LIMITS.messagesPerSecond),
      bytes: fullBucket(BRIDGE_LIMITS.burstBytes, BRIDGE_LIMITS.bytesPerSecond),
      warned: false,
    };
  }
  return state;
}

/** Counts a message that will not reach agents, and tells the page's developer why (once). */
function refuse(s: BridgeState, why: string): void {
  s.skipped++;
  if (!s.warned) {
    s.warned = true;
    console.warn(`[Oriel] A bridge message was not delivered to agents: ${why}. Agents see it as dropped. See Oriel's docs/bridge.md.`);
  }
}

/** One `message` event on the top window: a bridge post of the page's own, or nothing to do with us. */
function onMessage(event: MessageEvent): void {
  // Only the document's own scripts: a frame's or another window's posts have another source.
  if (event.source !== window) return;
  const envelope: unknown = event.data;
  if (typeof envelope !== 'object' || envelope === null || (envelope as { type?: unknown }).type !== BRIDGE_MESSAGE_TYPE) return;
  const s = current();
  s.opened = true;
  if (!s.messages.tryRemoveTokens(1)) return refuse(s, `more than ${BRIDGE_LIMITS.messagesPerSecond} messages a second`);
  let json: string | undefined;
  try {
    json = JSON.stringify((envelope as { data?: unknown }).data ?? null);
  } catch {
    return refuse(s, 'its data is not JSON-serialisable');
  }
  const bytes = jsonBytes(json ?? 'null');
  if (bytes > BRIDGE_LIMITS.messageBytes) return refuse(s, `it is over ${BRIDGE_LIMITS.messageBytes} bytes as JSON`);
  if (!s.bytes.tryRemoveTokens(bytes)) return refuse(s, `more than ${BRIDGE_LIMITS.bytesPerSecond} bytes a second`);
  const push: PagePush = { document: s.document, data: json ?? 'null', skipped: s.skipped };
  s.skipped = 0;
  sendSide('page_push', push).catch(() => {
    // The extension is reloading or its background is asleep mid-restart: the message is lost, and counted.
    if (state === s) s.skipped++;
  });
}

/** Starts listening in the top frame (the bridge is the top document's: frames cannot talk to agents). */
export function startBridge(): void {
  if (window !== window.top) return;
  window.addEventListener('message', onMessage);
}

export const bridgeHandlers: ContentHandlers = {
  /** Hands an agent's message to the page; refused when this document never opened the bridge. */
  send_message: (args) => {
    if (window !== window.top) throw orielError('unsupported', 'The bridge belongs to the top document of the tab.');
    const s = current();
    if (!s.opened) {
      throw orielError('unsupported', "This page has not opened the Oriel bridge (it opens it by posting a message to agents first), so it would not hear the message.", {
        next: 'await_message to see whether the page posts, or snapshot to read it',
      });
    }
    const delivered = !window.dispatchEvent(new CustomEvent(BRIDGE_DELIVER, { detail: JSON.stringify(args.data), cancelable: true }));
    if (!delivered) throw orielError('unsupported', "Oriel's page script is not running in this page, so the message cannot be delivered.");
    return { document: s.document, delivered };
  },
};
