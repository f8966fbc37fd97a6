// What one tool call is aimed at and who listens while it waits: made by the MCP server (./server.ts) from the call's
// common arguments and its client, read by the tool context (./context.ts). Its own module, so neither imports the other.
import type { AppAsk } from '../hub/app-asks.js';
import type { CommonArgs } from './tools/define.js';
import type { LinkScope } from './resources.js';

/** The common arguments of one call (which session, the optional document guard, the lease it runs under) and its listeners. */
export interface CallTarget extends CommonArgs {
  /** Told when the call starts waiting on the person's permission prompt (until when, ms since the epoch). */
  onPrompt?: (until: number) => void;
  /** Asks that prompt in the client's app too, where the person allows it (broker/mcp/ask-in-app.ts). */
  onAsk?: (ask: AppAsk) => void;
  /** Who owns the resource links this call makes, and the client's MCP revision (broker/mcp/resources.ts). */
  links?: LinkScope;
}
