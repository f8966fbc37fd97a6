// The hub's event bus: what happens in the hub (browser events, clients coming and going, policy changes), published
// to whoever listens — MCP connections turn some into notifications (broker/mcp/connection.ts). Typed on Node's
// EventEmitter; listeners must not throw.
import { EventEmitter } from 'node:events';
import type { BrowserEvent } from '../../shared/protocol.js';
import type { Caller } from '../../shared/call.js';

/** Event name → listener arguments. */
export interface HubEventMap {
  /** An event a browser pushed (shared/protocol.ts BrowserEventSchema), with the browser instance it came from. */
  browser: [{ instance: string; event: BrowserEvent }];
  /** An MCP client connected. */
  client_connected: [Caller];
  /** An MCP client's connection closed. */
  client_gone: [Caller];
  /** The set of tools a client may list changed (policy): every connection sends `notifications/tools/list_changed`. */
  tools_changed: [];
}

export class HubEvents extends EventEmitter<HubEventMap> {
  constructor() {
    super();
    // One listener per connected client and feature; the client count is bounded elsewhere.
    this.setMaxListeners(0);
  }
}
