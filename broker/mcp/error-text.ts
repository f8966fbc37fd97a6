// How an Oriel error reads for the model in a tool result's text: code, message and what to do next. Shared by the
// hub's MCP server (./server.ts) and the stdio relay (./relay.ts), which answers for a hub that went away.
import type { ErrorData } from '../../shared/errors.js';
import { escapeBare } from '../../shared/snapshot/escape.js';

/**
 * Renders an error for the model: `Error <code>: <message>` and, when there is one, a `Next:` line. Messages can carry
 * page text (a page's exception, a title), so line breaks and bidi controls in them are escaped and cannot forge a
 * `Next:` line.
 */
export function errorText(e: ErrorData): string {
  return `Error ${e.code}: ${escapeBare(e.message)}${e.next ? `\nNext: ${escapeBare(e.next)}` : ''}`;
}
