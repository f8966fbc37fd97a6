// What the extension's own pages (popup, options: extension/ui) and the background (extension/background/index.ts) say to
// each other: the requests and change notes are side messages (shared/side-messages.ts); the replies' shapes are here.
import type { Answer, Grantable, Rule, SessionGrant } from './consent/rules.js';
import type { AuditEntry } from './consent/audit.js';

/** What the extension's pages ask the background: side message `page_request` (shared/side-messages.ts). */
export { PageRequestSchema as PopupRequestSchema, ChangedSchema, type Changed, type PageRequest as PopupRequest } from '../shared/side-messages.js';

/** A waiting permission prompt as the popup shows it. Strings from pages (`pages`) are page content: shown escaped and labelled. */
export interface PromptView {
  id: string;
  capability: Grantable;
  /** The origin asked about (scheme://host:port, or "null" for opaque origins). */
  origin: string;
  /** Names of the agents (MCP clients' `clientInfo.name`) whose calls wait. */
  agents: string[];
  /** The tools those calls run. */
  tools: string[];
  /** Titles of the shared tabs involved (set by the pages). */
  pages: string[];
  calls: number;
  since: number;
  /** When the first waiting call gives up, ms since the Unix epoch. */
  until: number;
  /** For exec: the code to run (bounded) or the page operation with its arguments. */
  detail?: { kind: 'code'; code: string; chars: number } | { kind: 'operation'; name: string; args: string };
  /** Set when the origin is a frame's inside a page of another origin. */
  frame?: { inside: string };
  answers: Answer[];
}

export interface PopupState {
  /** Whether the native port to the broker is open. */
  connected: boolean;
  /** Every web tab, with whether it is shared. */
  tabs: Array<{ tab: number; title: string; url: string; shared: boolean; active: boolean; windowId: number }>;
  /** Permission prompts waiting for the person, oldest first. */
  prompts: PromptView[];
}

/** What the options page lists: remembered rules, and session grants with their tab's title. */
export interface RulesState {
  rules: Rule[];
  grants: Array<SessionGrant & { title: string }>;
  /** Prompts waiting now (the options page offers to show them). */
  waiting: number;
}

/** Replies to the other requests. */
export type AnswerReply = { ok: boolean; error?: string };
export type AuditReply = { entries: AuditEntry[] };


