// The extension's side channels: every message on its runtime message bus besides page calls (shared/call.ts, sent
// with tabs.sendMessage). One map of message name → who sends it, its params schema and its reply schema; one tag
// (`oriel_side`) on every message; one listener per context, which checks the sender and validates the params on
// arrival (extension/side-channel.ts). Documented in docs/architecture.md, "Messages inside the extension".
import { z } from 'zod';
import { AnswerSchema } from './ask-in-app.js';
import { PagePushSchema } from './bridge.js';
import { TrustedInputReplySchema, TrustedInputRequestSchema } from './trusted-input.js';
import { MAX_PARAM_CHARS, MAX_SECRET_PARAMS } from './url-redaction.js';

/** The key every side message carries its name under. */
import { SIDE_TAG } from './side-tag.js';

export { SIDE_TAG };

/**
 * Who may send a message: a content script of a tab (`content`), one of the extension's own pages (`extension_page`:
 * popup, options), or the background. Web pages cannot send any (the manifest declares no externally_connectable).
 */
export type SideSender = 'content' | 'extension_page' | 'background';

/** One entry of {@link SIDE_MESSAGES}. */
export interface SideSpec {
  from: SideSender;
  params: z.ZodType;
  reply: z.ZodType;
}

/** What an extension page asks the background (the popup and the options page). */
export const PageRequestSchema = z.discriminatedUnion('kind', [
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
export type PageRequest = z.infer<typeof PageRequestSchema>;

/** What changed for the extension pages to ask again about (the message carries no data). */
export const ChangedSchema = z.object({ what: z.enum(['prompts', 'rules', 'audit']) });
export type Changed = z.infer<typeof ChangedSchema>;

/** The names of secret fields a form of the sender's tab is submitting (their values are scrubbed from URLs). */
export const SecretParamsSchema = z.object({ names: z.array(z.string().min(1).max(MAX_PARAM_CHARS)).min(1).max(MAX_SECRET_PARAMS) });

/**
 * A JavaScript dialog (alert, confirm, prompt) of the browser's own, open for the person in the sender's frame (`open`),
 * or closed again (`open: null`). `seq` counts the frame's reports, so one that arrives late cannot undo a newer one.
 * Page-facing: a page can forge it for its own tab only (docs/tools.md, "Dialogs").
 */
export const DialogStateSchema = z.object({
  seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** `answered`: Oriel left this one open after answering that many in a row (shared/open-dialog.ts). */
  open: z.object({ type: z.enum(['alert', 'confirm', 'prompt']), message: z.string().max(2000), answered: z.number().int().min(1).max(1000).optional() }).nullable(),
});
export type DialogState = z.infer<typeof DialogStateSchema>;

/** Every side message. */
export const SIDE_MESSAGES = {
  /** A bridge message the page posted, from the content script of a tab's top frame (docs/bridge.md); acknowledged at once. */
  page_push: { from: 'content', params: PagePushSchema, reply: z.null() },
  /** Secret field names a form is submitting, from any frame of any tab (shared/url-redaction.ts). */
  secret_params: { from: 'content', params: SecretParamsSchema, reply: z.null() },
  /** A dialog of the browser's own opened or closed in the sender's frame (extension/background/open-dialogs.ts). */
  dialog_state: { from: 'content', params: DialogStateSchema, reply: z.null() },
  /** Trusted input for a call the background offered it to, from the frame running the call (shared/trusted-input.ts). */
  trusted_input: { from: 'content', params: TrustedInputRequestSchema, reply: TrustedInputReplySchema },
  /** A request of the popup or the options page; the reply's shape depends on the request's kind (extension/popup-messages.ts). */
  page_request: { from: 'extension_page', params: PageRequestSchema, reply: z.unknown() },
  /** The background tells the open extension pages that something they show changed. */
  changed: { from: 'background', params: ChangedSchema, reply: z.null() },
} as const satisfies Record<string, SideSpec>;

export type SideName = keyof typeof SIDE_MESSAGES;
export type SideParams<N extends SideName> = z.infer<(typeof SIDE_MESSAGES)[N]['params']>;
export type SideReply<N extends SideName> = z.infer<(typeof SIDE_MESSAGES)[N]['reply']>;
/** Names of the messages `from` sends. */
export type SideFrom<S extends SideSender> = { [N in SideName]: (typeof SIDE_MESSAGES)[N]['from'] extends S ? N : never }[SideName];

/** A side message as it travels: its name under {@link SIDE_TAG}, and its params. */
export interface SideEnvelope<N extends SideName = SideName> {
  [SIDE_TAG]: N;
  params: SideParams<N>;
}

const NAMES = Object.keys(SIDE_MESSAGES) as [SideName, ...SideName[]];
const EnvelopeSchema = z.object({ [SIDE_TAG]: z.enum(NAMES), params: z.unknown() });

/** The envelope of side message `name`. */
export function sideMessage<N extends SideName>(name: N, params: SideParams<N>): SideEnvelope<N> {
  return { [SIDE_TAG]: name, params };
}

/**
 * Reads a message off the bus: undefined when it is no side message (a page call, another extension's traffic), else
 * its name and either its validated params or why they were refused (first problem, bounded).
 */
export function readSide(raw: unknown): { name: SideName; ok: true; params: unknown } | { name: SideName; ok: false; message: string } | undefined {
  const envelope = EnvelopeSchema.safeParse(raw);
  if (!envelope.success) return undefined;
  const name = envelope.data[SIDE_TAG];
  const params = SIDE_MESSAGES[name].params.safeParse(envelope.data.params);
  if (params.success) return { name, ok: true, params: params.data };
  const issue = params.error.issues[0];
  return { name, ok: false, message: `malformed ${name} message${issue ? ` (${issue.path.join('.')}: ${issue.message})` : ''}`.slice(0, 300) };
}
