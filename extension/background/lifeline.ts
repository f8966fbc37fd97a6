// The background's end of the lifeline ports (counterpart: extension/content/lifeline.ts): the top frame of every
// shared tab holds one, so a stopped or suspended background is started again when the port reconnects. Here: accept
// those ports, and tell shared tabs to hold one (at start, on sharing, on each new top document).
import { LIFELINE_PORT } from '../../shared/ops.js';
import { sendToFrame } from './frames.js';

const ports = new Set<chrome.runtime.Port>();

/** Registers the port listener; call at top level so a background woken by a lifeline hears it. */
export function acceptLifelines(): void {
  chrome.runtime.onConnect.addListener((port) => {
    // Only our own content scripts; the extension's pages never open this port.
    if (port.name !== LIFELINE_PORT || port.sender?.id !== chrome.runtime.id || port.sender.tab === undefined) return;
    ports.add(port);
    port.onDisconnect.addListener(() => ports.delete(port));
  });
}

/** Asks the top frame of `tab` to hold (or drop) its lifeline; a frame without a content script is skipped. */
export function requestLifeline(tab: number, hold: boolean): void {
  void sendToFrame(tab, 0, 'lifeline', { hold }).catch(() => undefined);
}
