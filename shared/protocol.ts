// The browser wire: messages between the extension's background and the hub (carried by the native host relay),
// and the hello that opens every hub-socket connection. Documented in docs/native-messaging.md.
import { z } from 'zod';
import { ErrorDataSchema } from './errors.js';
import { ORIGIN_MAX, PageCallSchema } from './call.js';
import { BRIDGE_LIMITS } from './bridge.js';
import { AppAnswerSchema, MAX_APP_CLIENT_CHARS, MAX_APP_CLIENTS, PromptQuestionSchema } from './ask-in-app.js';
import { DownloadInfoSchema } from './downloads.js';

/**
 * Version of the browser ⇄ hub protocol; both ends refuse another. 2: calls travel in one envelope; events.
 * 3: consent — the browser's tool policy, calls suspended on permission prompts, pending prompts, clients leaving.
 * 4 also carries asking in the agent's app (an optional question on `call_suspended`, `answer` frames, `ask_in_app`
 * policy): additions an older end leaves out or ignores, so the version stays.
 */
export const WIRE_VERSION = 4;

/** Name of the native messaging host, as registered by `oriel install`. */
export const NATIVE_HOST_NAME = 'dev.oriel.broker';

/** A capability a person grants per origin (docs/architecture.md, "Consent"). */
export const GrantCapabilitySchema = z.enum(['read', 'act', 'exec']);

/**
 * One grant or denial that applies to a session's top origin now: where it comes from (`share`: sharing the tab;
 * `session`: an answer for this session; `origin`, `host`, `any`: a remembered rule for this origin, this host on any
 * port, or every origin) and, for exec, whether it is for one exact expression.
 */
export const TabGrantSchema = z.object({
  capability: GrantCapabilitySchema,
  effect: z.enum(['allow', 'deny']),
  scope: z.enum(['share', 'session', 'origin', 'host', 'any']),
  exact_code: z.boolean().optional(),
});
export type TabGrant = z.infer<typeof TabGrantSchema>;

/** One shared tab as the background reports it. */
export const TabInfoSchema = z.object({
  tab: z.number().int().nonnegative(),
  title: z.string().max(2000),
  url: z.string().max(8192),
  origin: z.string().max(2000),
  /** Whether the tab is the visible (active) tab of its window. */
  active: z.boolean(),
  /** Document id of the top frame, when known. */
  document: z.string().max(32).optional(),
  /** The shared tab that opened this one (a link to a new tab, window.open), when it was shared for that reason. */
  opener: z.number().int().nonnegative().optional(),
  /** What the person granted or denied on the tab's top origin (list_sessions shows it). */
  grants: z.array(TabGrantSchema).max(50).optional(),
  /**
   * True when nothing grants read on the tab's top origin now: the browser then sends no title (empty) and the origin
   * alone as `url` (docs/architecture.md, "Sessions").
   */
  withheld: z.boolean().optional(),
});
export type TabInfo = z.infer<typeof TabInfoSchema>;

/** What agents are told of a page whose top origin has no read grant, in place of its title and address. */
export const WITHHELD_NOTE = 'no read grant here: title and address withheld; calls ask the user unless denied';

/**
 * The person's policy in one browser that the broker applies: the tools they switched off (hidden from agents, refused
 * if called), and the folder agents may upload files from (absolute path), or null when upload is off.
 */
export const PolicySchema = z.object({
  disabled: z.array(z.string().max(40)).max(100).default([]),
  upload_folder: z.string().max(4096).nullable(),
  /** The MCP client names (`clientInfo.name`) the person lets ask permission questions in their own app. */
  ask_in_app: z.array(z.string().max(MAX_APP_CLIENT_CHARS)).max(MAX_APP_CLIENTS).optional(),
});
export type Policy = z.infer<typeof PolicySchema>;

/** A permission prompt waiting for the person's answer (`oriel status` lists them). */
export const PromptInfoSchema = z.object({
  id: z.string().max(40),
  capability: GrantCapabilitySchema,
  origin: z.string().max(300),
  /** Names of the MCP clients whose calls wait on it (their `clientInfo.name`). */
  clients: z.array(z.string().max(200)).max(50),
  /** How many calls wait on it. */
  calls: z.number().int().nonnegative(),
  /** When it appeared, ms since the Unix epoch. */
  since: z.number(),
});
export type PromptInfo = z.infer<typeof PromptInfoSchema>;

export const BrowserInfoSchema = z.object({
  /** Product family, e.g. "chromium" or "firefox". */
  name: z.string().max(40),
  version: z.string().max(80),
  /** Random id minted once per browser profile and kept in extension storage; prefixes session ids. */
  instance: z.string().regex(/^[a-z0-9]{4,12}$/),
  extension_id: z.string().max(200),
  /**
   * The address of the extension's popup (`runtime.getURL`), for opening it as a page where there is no toolbar
   * (a headless browser). Firefox's `moz-extension://` host is random per profile, so only the browser can say it.
   */
  popup_url: z
    .string()
    .max(300)
    .regex(/^[a-z][a-z-]*-extension:\/\/[A-Za-z0-9-]+\/[\w./-]+$/)
    .optional()
    .catch(undefined), // an address of another shape is left out, never a reason to refuse the hello
});
export type BrowserInfo = z.infer<typeof BrowserInfoSchema>;

/**
 * Something that happened in the browser, pushed up without being asked (not an answer to a call). Each kind names the
 * tab or call it concerns, except `policy` and `prompts`, which concern the whole browser. The hub turns them into
 * session changes, buffers, call deadlines and client notifications (broker/hub/events.ts).
 */
export const BrowserEventSchema = z.discriminatedUnion('kind', [
  /** The top frame of a shared tab shows a new document. */
  z.object({ kind: z.literal('document'), tab: z.number().int(), document: z.string().max(32), url: z.string().max(8192), withheld: z.boolean().optional() }),
  /**
   * The top document of a shared tab posted a bridge message (docs/bridge.md). `data` is its JSON text; `skipped`
   * counts messages of this tab refused since the last one (over the size bound or the rate), so the hub numbers past
   * them and readers learn they were dropped.
   */
  z.object({
    kind: z.literal('page_message'),
    tab: z.number().int(),
    document: z.string().max(32),
    origin: z.string().max(2000),
    data: z.string().max(BRIDGE_LIMITS.messageBytes),
    skipped: z.number().int().min(0).max(1e9),
  }),
  /** The person's policy the broker applies, for the whole browser (no tab). Sent after every hello and whenever it changes. */
  z.object({ kind: z.literal('policy'), ...PolicySchema.shape }),
  /** The permission prompts waiting now (the whole list, after every change). */
  z.object({ kind: z.literal('prompts'), prompts: z.array(PromptInfoSchema).max(200) }),
  /**
   * Call `call` waits on a permission prompt until `until` (ms since the Unix epoch): its deadline is suspended.
   * `prompt` is the question, for the calling client's app to ask too where the person allowed it.
   */
  z.object({ kind: z.literal('call_suspended'), call: z.number().int(), until: z.number().int(), prompt: PromptQuestionSchema.optional() }),
  /** Call `call` was allowed after a prompt and goes on with the budget it had left: its new absolute `deadline`. */
  z.object({ kind: z.literal('call_resumed'), call: z.number().int(), deadline: z.number().int() }),
  /** A download an agent's call started in a shared tab was created or changed (shared/downloads.ts). */
  z.object({ kind: z.literal('download'), download: DownloadInfoSchema }),
]);
export type BrowserEvent = z.infer<typeof BrowserEventSchema>;

/** Background → hub. */
export const BrowserToHubSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('hello'), wire: z.number().int(), browser: BrowserInfoSchema, tabs: z.array(TabInfoSchema).max(5000) }),
  z.object({ t: z.literal('tabs'), tabs: z.array(TabInfoSchema).max(5000) }),
  /** The answer to a call: `ok` with `value`, or not `ok` with `error`. */
  z.object({ t: z.literal('result'), id: z.number().int(), ok: z.boolean(), value: z.unknown().optional(), error: ErrorDataSchema.optional() }),
  z.object({ t: z.literal('event'), event: BrowserEventSchema }),
  z.object({ t: z.literal('pong'), n: z.number().int() }),
]);
export type BrowserToHub = z.infer<typeof BrowserToHubSchema>;

/** Hub → background. Every frame must fit the browsers' 1 MB host→browser cap. */
export const HubToBrowserSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('welcome'), wire: z.number().int() }),
  /** One page call in its envelope (shared/call.ts). */
  z.object({ t: z.literal('call'), call: PageCallSchema }),
  z.object({ t: z.literal('cancel'), id: z.number().int() }),
  /** A call that waited on a permission prompt has its session's turn again (after `call_resumed`): it may go on. */
  z.object({ t: z.literal('turn'), id: z.number().int() }),
  /**
   * The person answered prompt `prompt` in the app of client `client` (hub id), which call `call` of that client
   * waits on; `via` is the client's label, for the audit log. The answer settles only that client's calls.
   */
  z.object({ t: z.literal('answer'), prompt: z.string().max(40), call: z.number().int(), client: z.string().max(40), via: z.string().max(200), answer: AppAnswerSchema }),
  /** An MCP client left: its permission prompts are withdrawn. */
  z.object({ t: z.literal('client_gone'), client: z.string().max(40) }),
  z.object({ t: z.literal('ping'), n: z.number().int() }),
  /** A frame the relay or hub refused, reported back so the extension can log it. */
  z.object({ t: z.literal('rejected'), reason: z.string().max(500) }),
]);
export type HubToBrowser = z.infer<typeof HubToBrowserSchema>;

/** First frame on every hub-socket connection. A client connection then carries newline-delimited JSON-RPC. */
export const SocketHelloSchema = z.discriminatedUnion('role', [
  z.object({ t: z.literal('hello'), role: z.literal('browser'), relay_pid: z.number().int().optional() }),
  // `tools`: the tool names this client's connection serves (`oriel mcp --tools`); every tool when absent.
  z.object({ t: z.literal('hello'), role: z.literal('client'), name: z.string().max(200).optional(), tools: z.array(z.string().max(64)).max(64).optional() }),
  z.object({ t: z.literal('hello'), role: z.literal('control') }),
]);
export type SocketHello = z.infer<typeof SocketHelloSchema>;

/** A content script's answer to a call (the request is shared/call.ts ContentCallSchema). */
export const ContentResponseSchema = z.union([
  /** `then_read`: the `snapshot.lines` answer to the call's `then_read` (shared/call.ts), when it was asked and read. */
  z.object({ ok: z.literal(true), value: z.unknown(), document: z.string().max(32), then_read: z.unknown().optional() }),
  /** `leads_to`: the op was not carried out, as its element leads to this origin (shared/call.ts `leads_from`). */
  z.object({ ok: z.literal(false), error: ErrorDataSchema, document: z.string().max(32), leads_to: z.string().max(ORIGIN_MAX).optional() }),
]);
export type ContentResponse = z.infer<typeof ContentResponseSchema>;

/** Control requests on a `control` hub connection (used by `oriel status` and `oriel doctor`), one frame each way. */
export const ControlRequestSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('status') }),
  /**
   * `oriel serve --http`: serve MCP over HTTP on a loopback address for as long as this connection stays open. The
   * token is the bearer token clients must send (the socket is private to the user); the hub never logs it.
   */
  z.object({ t: z.literal('serve_http'), host: z.string().max(100), port: z.number().int().min(0).max(65_535), token: z.string().min(32).max(200) }),
]);
export type ControlRequest = z.infer<typeof ControlRequestSchema>;
/** The hub's answer to `serve_http`: where it serves, or why it cannot. */
export const ControlServingSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('serving'), url: z.string() }),
  z.object({ t: z.literal('refused'), reason: z.string().max(500) }),
]);
export type ControlServing = z.infer<typeof ControlServingSchema>;
export const ControlStatusSchema = z.object({
  t: z.literal('status'),
  pid: z.number().int(),
  started_at: z.string(),
  /**
   * The Oriel version the hub runs, and the absolute path of the CLI file it was started from (symlinks resolved). A hub
   * outlives upgrades until it is restarted; hubs older than these fields leave them out.
   */
  version: z.string().max(100).optional(),
  program: z.string().max(4096).optional(),
  /** `since`: when the browser's current connection opened (ISO 8601); a restarted background opens a new one. */
  browsers: z.array(BrowserInfoSchema.extend({ connected: z.boolean(), since: z.string().optional() })),
  sessions: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      url: z.string(),
      browser: z.string(),
      /** False while the browser holding the tab is away (its sessions wait for it to come back). */
      connected: z.boolean().optional(),
      /** What the hub holds of this session's bridge messages (bounded: docs/bridge.md). */
      bridge: z.object({ messages: z.number().int(), bytes: z.number().int(), last_seq: z.number().int() }).optional(),
      /** Calls queued or running on the session. */
      queued: z.number().int().optional(),
      /** True when the browser withheld the title and address (no read grant on the tab's origin): `url` is the origin. */
      withheld: z.boolean().optional(),
      /** The client holding the session under a lease (its `clientInfo.name`), and until when (ISO 8601). */
      lease: z.object({ client: z.string(), expires_at: z.string(), max_until: z.string() }).optional(),
    }),
  ),
  clients: z.number().int(),
  /** Permission prompts waiting for the person, in every connected browser. */
  prompts: z.array(PromptInfoSchema.extend({ browser: z.string() })).default([]),
  /** Where the hub serves MCP over Streamable HTTP for `oriel serve --http`, absent while it does not. */
  http: z.object({ url: z.string().max(200) }).optional(),
});
export type ControlStatus = z.infer<typeof ControlStatusSchema>;
