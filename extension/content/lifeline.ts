// The lifeline: a port from the top frame of a shared tab to the background. The browser closes it when it stops the
// background (Chromium service worker: idle, crash, update; Firefox event page: suspension); reconnecting wakes the
// background again, which reconnects to the broker so the tab's session answers again without the person doing
// anything. Counterpart: extension/background/lifeline.ts.
import { LIFELINE_PORT } from '../../shared/ops.js';

/** First and longest wait before reconnecting a dropped lifeline, ms. */
const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 30_000;

let port: chrome.runtime.Port | undefined;
let wanted = false;
let retryMs = FIRST_RETRY_MS;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Holds the lifeline (the background says this tab is shared) or drops it (unshared). Idempotent. */
export function holdLifeline(hold: boolean): void {
  wanted = hold;
  // The background just reached us, so it is running: the next drop retries quickly again.
  retryMs = FIRST_RETRY_MS;
  if (hold) connect();
  else {
    clearTimeout(timer);
    timer = undefined;
    const p = port;
    port = undefined;
    p?.disconnect();
  }
}

function connect(): void {
  if (port || !wanted || timer) return;
  let p: chrome.runtime.Port;
  try {
    p = chrome.runtime.connect({ name: LIFELINE_PORT });
  } catch {
    // "Extension context invalidated": the extension was reloaded or updated and this script is an orphan.
    wanted = false;
    return;
  }
  port = p;
  p.onDisconnect.addListener(() => {
    if (port !== p) return;
    port = undefined;
    if (!wanted) return;
    // The background went away. Reconnecting starts it again; back off in case it keeps refusing.
    timer = setTimeout(() => {
      timer = undefined;
      connect();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  });
}
