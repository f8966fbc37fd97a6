// Messages between the extension's own pages (popup, options: extension/ui) and the background (extension/background/index.ts).
// The background accepts them only from the extension's own pages, never from content scripts or web pages.
import { z } from 'zod';
import { AnswerSchema, type Answer, type Grantable, type Rule, type SessionGrant } from './consent/rules.js';
import type { AuditEntry } from './consent/audit.js';

export const PopupRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('state') }),
  z.object({ kind: z.literal('share'), tab: z.number().int(), shared: z.boolean() }),
  /** The person answers prompt `prompt`. */
  z.object({ kind: z.literal('answer'), prompt: z.string().max(40), answer: AnswerSchema }),
  /** The remembered rules and session grants (options page). */
  z.object({ kind: z.literal('rules') }),
  /** Revokes one rule or session grant. */
  z.object({ kind: z.literal('revoke'), id: z.string().max(40) }),
  /** The exec audit log, newest last. */
  z.object({ kind: z.literal('audit') }),
  /** Shows the waiting prompts: the toolbar popup where the browser can open it, else a popup window. */
  z.object({ kind: z.literal('show-prompts') }),
]);
export type PopupRequest = z.infer<typeof PopupRequestSchema>;

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

/** The background tells open extension pages that something they show changed; they then ask again. Carries no data. */
export const ChangedSchema = z.object({ kind: z.literal('changed'), what: z.enum(['prompts', 'rules', 'audit']) });
export type Changed = z.infer<typeof ChangedSchema>;
