// Telling which frame an <iframe> element shows, so the background can stitch child frames in place.
// Firefox: runtime.getFrameId(element). Chromium has no such API, so the background hands each child frame a random
// token, the child posts it to its parent window, and the parent's content script records which window sent it.
import { nativeGetFrameId } from './dom.js';

/** Tokens seen from child windows of this frame. A WeakMap: windows of removed frames are not kept alive. */
const tokens = new WeakMap<Window, string>();
const waiters = new Set<() => void>();
const TOKEN = /^ft[a-z0-9]{8,40}$/;

/** Listens for hello messages from child frames (installed once when the content script loads). */
export function listenForChildFrames(): void {
  addEventListener('message', (event: MessageEvent) => {
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null) return;
    const token = (data as { orielFrameHello?: unknown }).orielFrameHello;
    if (typeof token !== 'string' || !TOKEN.test(token) || !event.source) return;
    tokens.set(event.source as Window, token);
    for (const w of waiters) w();
  });
}

/** Child side: announces this frame's token to its parent window. */
export function announceToParent(token: string): boolean {
  if (window.parent === window || !TOKEN.test(token)) return false;
  window.parent.postMessage({ orielFrameHello: token }, '*');
  return true;
}

/** Waits (bounded) until every expected token has arrived from a child window. */
export async function awaitTokens(expected: readonly string[], timeoutMs: number): Promise<void> {
  if (expected.length === 0 || nativeGetFrameId()) return;
  const have = () => {
    const seen = new Set<string>();
    for (const f of Array.from(document.querySelectorAll('iframe,frame'))) {
      const w = (f as HTMLIFrameElement).contentWindow;
      const t = w ? tokens.get(w) : undefined;
      if (t) seen.add(t);
    }
    return expected.every((t) => seen.has(t));
  };
  if (have()) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      waiters.delete(check);
      clearTimeout(timer);
      resolve();
    };
    const check = () => {
      if (have()) done();
    };
    const timer = setTimeout(done, timeoutMs);
    waiters.add(check);
  });
}

/** The frame reference of an iframe element: its frameId where the browser says, else the token its window sent. */
export function frameRefOf(frame: HTMLIFrameElement | HTMLFrameElement): number | string | undefined {
  const getFrameId = nativeGetFrameId();
  if (getFrameId) {
    try {
      const id = getFrameId(frame);
      return id >= 0 ? id : undefined;
    } catch {
      return undefined;
    }
  }
  const w = frame.contentWindow;
  return w ? tokens.get(w) : undefined;
}
