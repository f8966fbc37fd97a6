// The native-messaging port to the broker: connects, says hello with the shared tabs, reconnects with backoff when
// the host goes away, and hands calls to the router. Counterpart: broker/native-host/relay.ts.
import { HubToBrowserSchema, NATIVE_HOST_NAME, WIRE_VERSION, type BrowserInfo, type BrowserToHub, type HubToBrowser } from '../../shared/protocol.js';
import type { PageCall } from '../../shared/call.js';
import { describeSharedTabs } from './sharing.js';
import { inOrder } from './in-order.js';

type CallHandler = (call: PageCall) => Promise<BrowserToHub>;

/** What the background does with what the hub sends, and what its hello says besides the shared tabs. */
export interface NativeHandlers {
  call: CallHandler;
  cancel(id: number): void;
  /** A call that waited on a permission prompt may go on (pipeline/turns.ts). */
  turn(id: number): void;
  /** An MCP client left (its id). */
  clientGone(client: string): void;
  /** The person answered a prompt in an agent's app (the hub checked it is bound to that client's call). */
  answer(message: Extract<HubToBrowser, { t: 'answer' }>): void;
  /** The hello went out on a new port (the policy follows it: ./policy.ts). */
  greeted?(): void;
  /** The port closed: calls in flight can no longer be answered. */
  disconnected(): void;
}

const MAX_BACKOFF_MS = 30_000;
let port: chrome.runtime.Port | undefined;
/** True once the hello went out on the current port (nothing else may precede it). */
let greeted = false;
let backoff = 500;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
let identity: BrowserInfo | undefined;
let handlers: NativeHandlers | undefined;

/** Whether the port is open (for the popup). */
export function isConnected(): boolean {
  return port !== undefined;
}

/** Sends a message to the hub if connected; silently drops it otherwise (the next hello carries the state). */
export function post(message: BrowserToHub): void {
  // Nothing may precede the hello on a new port.
  if (!greeted && message.t !== 'hello') return;
  try {
    port?.postMessage(message);
  } catch {
    /* port closed under us */
  }
}

/** Whether the hello went out on an open port (events may follow). */
export function isGreeted(): boolean {
  return port !== undefined && greeted;
}

/**
 * Sends the shared tabs (with their documents and grants) to the hub: sharing or consent changed. Sends run one at a
 * time, in call order, so a slow read of older state can never post after (and so overwrite) a newer list. Resolves
 * once this call's list has been posted (or dropped, when no port is open).
 */
export const sendTabs: () => Promise<void> = inOrder(async () => {
  if (port && greeted) post({ t: 'tabs', tabs: await describeSharedTabs() });
});

/** A shared tab's title, URL or load state goes to the hub at most this often, ms (a page can retitle in a loop). */
const TABS_MIN_INTERVAL_MS = 100;
let lastTabs = 0;
let tabsTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * {@link sendTabs} for changes a page makes itself: at once, or — within {@link TABS_MIN_INTERVAL_MS} of the last
 * such send — once at the end of that interval, with the state then (changes in between are coalesced, not dropped).
 */
export function sendTabsSoon(): void {
  if (tabsTimer !== undefined) return;
  const wait = lastTabs + TABS_MIN_INTERVAL_MS - Date.now();
  if (wait > 0) {
    tabsTimer = setTimeout(() => {
      tabsTimer = undefined;
      sendTabsSoon();
    }, wait);
    return;
  }
  lastTabs = Date.now();
  void sendTabs();
}

/** Starts the connection loop. */
export function startNative(info: BrowserInfo, on: NativeHandlers): void {
  identity = info;
  handlers = on;
  connect();
}

function scheduleReconnect(): void {
  if (reconnectTimer) return;
  reconnectTimer = setTimeout(() => {
    reconnectTimer = undefined;
    connect();
  }, backoff);
  backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
}

function connect(): void {
  if (port || !identity) return;
  let p: chrome.runtime.Port;
  try {
    p = chrome.runtime.connectNative(NATIVE_HOST_NAME);
  } catch (err) {
    console.warn('[oriel] connectNative failed', err);
    scheduleReconnect();
    return;
  }
  port = p;
  greeted = false;
  p.onDisconnect.addListener(() => {
    const reason = chrome.runtime.lastError?.message ?? (p as unknown as { error?: { message?: string } }).error?.message;
    console.warn('[oriel] native host disconnected', reason ?? '');
    if (port === p) port = undefined;
    handlers?.disconnected();
    scheduleReconnect();
  });
  p.onMessage.addListener((raw: unknown) => {
    const parsed = HubToBrowserSchema.safeParse(raw);
    if (!parsed.success) {
      console.warn('[oriel] ignored a malformed message from the hub');
      return;
    }
    const message = parsed.data;
    switch (message.t) {
      case 'welcome':
        backoff = 500;
        return;
      case 'ping':
        post({ t: 'pong', n: message.n });
        return;
      case 'cancel':
        handlers?.cancel(message.id);
        return;
      case 'turn':
        handlers?.turn(message.id);
        return;
      case 'client_gone':
        handlers?.clientGone(message.client);
        return;
      case 'answer':
        handlers?.answer(message);
        return;
      case 'rejected':
        console.warn('[oriel] the broker rejected a message:', message.reason);
        return;
      case 'call':
        void handlers?.call(message.call).then(post);
        return;
    }
  });
  void describeSharedTabs({ documents: true }).then((tabs) => {
    post({ t: 'hello', wire: WIRE_VERSION, browser: identity!, tabs });
    greeted = true;
    handlers?.greeted?.();
  });
}
