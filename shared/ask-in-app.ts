// Asking the person in the agent's own app (MCP elicitation): the question a prompt puts, as it travels from the
// background to the hub with `call_suspended`, and the narrow answers an app may relay back (docs/architecture.md,
// "Consent", "Asking in the agent's app").
import { z } from 'zod';

/**
 * The answers a prompt offers. `allow_code_session` and `allow_session` (this exact code / any code, in this session
 * and on this origin) exist only for exec; for exec, `allow_origin` means any code in every session on this origin.
 */
export const ANSWERS = ['allow_once', 'allow_code_session', 'allow_session', 'allow_origin', 'allow_host', 'allow_any', 'deny_once', 'deny_origin'] as const;
export type Answer = (typeof ANSWERS)[number];
export const AnswerSchema = z.enum(ANSWERS);

/**
 * The answers an agent's app may relay: allow once, allow on this site (not for code), this exact code in this tab
 * (code only), deny once. The broad ones (a host on any port, every site, any code, always deny) stay in the popup.
 */
export const APP_ANSWERS = ['allow_once', 'allow_origin', 'allow_code_session', 'deny_once'] as const;
export const AppAnswerSchema = z.enum(APP_ANSWERS);
export type AppAnswer = z.infer<typeof AppAnswerSchema>;

/** Most client names the person may let ask in their app, and the longest name, characters. */
export const MAX_APP_CLIENTS = 50;
export const MAX_APP_CLIENT_CHARS = 200;

/** Longest code or operation text a question carries, characters (the full length travels in `code_chars`). */
export const MAX_QUESTION_CODE_CHARS = 2000;

/**
 * One permission prompt as an agent's app is asked it: the same facts the popup shows. Strings from pages (`title`)
 * and agents (`code`, `operation`) are data, escaped where they are written out.
 */
export const PromptQuestionSchema = z.object({
  /** The prompt's id in the browser (the answer names it). */
  id: z.string().max(40),
  capability: z.enum(['read', 'act', 'exec']),
  /** The origin asked about (scheme://host:port, or "null"). */
  origin: z.string().max(300),
  /** Set when the origin is a frame's inside a page of another origin: that page's origin. */
  inside: z.string().max(300).optional(),
  /** The shared tab's title (set by the page). */
  title: z.string().max(300),
  /** The tool the call runs. */
  tool: z.string().max(40),
  /** For evaluate: the code (bounded) and its full length. */
  code: z.string().max(MAX_QUESTION_CODE_CHARS).optional(),
  code_chars: z.number().int().nonnegative().optional(),
  /** For a page operation: its name and arguments (bounded). */
  operation: z.string().max(MAX_QUESTION_CODE_CHARS).optional(),
  /** The answers this prompt offers an app (a subset of {@link APP_ANSWERS}). */
  answers: z.array(AppAnswerSchema).max(APP_ANSWERS.length),
});
export type PromptQuestion = z.infer<typeof PromptQuestionSchema>;

/** How each answer reads to the person, for the question `q` (code answers name code or the page's operation). */
export function appAnswerLabel(answer: AppAnswer, q: Pick<PromptQuestion, 'operation'>): string {
  switch (answer) {
    case 'allow_once':
      return 'Allow once';
    case 'allow_origin':
      return 'Allow on this site';
    case 'allow_code_session':
      return q.operation !== undefined ? 'Allow this exact call in this tab' : 'Allow this exact code in this tab';
    case 'deny_once':
      return 'Deny';
  }
}
