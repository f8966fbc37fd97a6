// Asks a permission prompt in the calling agent's app with MCP elicitation (form mode, 2025-06-18 and 2025-11-25
// revisions: https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation), and relays the person's
// answer to the hub, which binds it to the asking call (broker/hub/app-asks.ts; docs/architecture.md, "Asking in the
// agent's app"). Knows the SDK only through the two shapes below.
import type { AppAnswer, PromptQuestion } from '../../shared/ask-in-app.js';
import { APP_ANSWERS, appAnswerLabel } from '../../shared/ask-in-app.js';
import type { AppAsk } from '../hub/app-asks.js';
import { escapeBare } from '../../shared/snapshot/escape.js';
import { logger } from '../common/log.js';

const log = logger('mcp');

/** Shortest time an app is given to ask, ms (a prompt about to time out is left to the popup). */
const MIN_ASK_MS = 1_000;
/** Longest code or operation text the question shows, characters (the rest is counted). */
const MAX_SHOWN_CODE = 2_000;

/** The part of a 2025-era request context that can ask the client (the SDK's `ctx.mcpReq`). */
export interface ElicitingRequest {
  elicitInput(
    params: { mode?: 'form'; message: string; requestedSchema: { type: 'object'; properties: Record<string, { type: 'string'; title?: string; enum: string[]; enumNames?: string[] }>; required?: string[] } },
    options?: { signal?: AbortSignal; timeout?: number },
  ): Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }>;
}

/**
 * Whether `capabilities` (the client's, from initialize) declare form-mode elicitation: `elicitation.form`, or a bare
 * `elicitation: {}` (the 2025-06-18 form, which meant form mode).
 */
export function canAskForms(capabilities: { elicitation?: unknown } | undefined): boolean {
  const e = capabilities?.elicitation;
  if (typeof e !== 'object' || e === null) return false;
  const modes = e as { form?: unknown; url?: unknown };
  return modes.form !== undefined || modes.url === undefined;
}

/** One line of agent or page text as the question writes it: controls, bidi and separators escaped, bounded. */
function shown(text: string, max: number): string {
  const cut = text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
  return escapeBare(cut);
}

/** The question as the app shows it: who, what, which site and tab, the code or operation; page text labelled. */
export function questionText(q: PromptQuestion, client: string): string {
  const what = q.capability === 'read' ? 'read' : q.capability === 'act' ? 'click, type and navigate on' : 'run code on';
  const lines = [
    `Oriel (your browser): may the agent "${shown(client, 80)}" ${what} ${shown(q.origin, 300)}?`,
    ...(q.inside !== undefined ? [`It is a frame inside ${shown(q.inside, 300)}.`] : []),
    `Tab, titled by the page: "${shown(q.title, 120)}"`,
    `Tool: ${shown(q.tool, 40)}`,
  ];
  if (q.code !== undefined) {
    const chars = q.code_chars ?? q.code.length;
    const code = q.code.slice(0, MAX_SHOWN_CODE);
    lines.push(`Code (${chars} characters${chars > code.length ? `, the first ${code.length} shown` : ''}):`, ...code.split('\n').map((l) => escapeBare(l)));
  }
  if (q.operation !== undefined) lines.push(`Page operation and arguments: ${shown(q.operation, MAX_SHOWN_CODE)}`);
  lines.push("Wider answers are in Oriel's popup in the browser, which asks too: the first answer counts.");
  return lines.join('\n');
}

/** The form: one required choice among the answers the prompt offers an app (enum with enumNames: every revision). */
export function answerSchema(q: PromptQuestion) {
  return {
    type: 'object' as const,
    properties: { answer: { type: 'string' as const, title: 'Your answer', enum: [...q.answers], enumNames: q.answers.map((a) => appAnswerLabel(a, q)) } },
    required: ['answer'],
  };
}

/**
 * The hub's `onAsk` for one tool call: puts each question to the client with `elicitation/create` and relays the
 * answer. Accept with an offered answer relays it; decline relays `deny_once` (the person said no); cancel, an error,
 * or the question's withdrawal (the popup answered first, the call ended) relays nothing — the popup still asks.
 */
export function askThroughClient(req: ElicitingRequest): (ask: AppAsk) => void {
  return (ask) => {
    const timeout = ask.until - Date.now();
    if (timeout < MIN_ASK_MS || ask.withdrawn.aborted) return;
    void req
      .elicitInput({ mode: 'form', message: questionText(ask.question, ask.client), requestedSchema: answerSchema(ask.question) }, { signal: ask.withdrawn, timeout })
      .then((result) => {
        if (ask.withdrawn.aborted) return;
        const chosen = result.content?.answer;
        let answer: AppAnswer | undefined;
        if (result.action === 'accept' && typeof chosen === 'string' && (APP_ANSWERS as readonly string[]).includes(chosen)) answer = chosen as AppAnswer;
        else if (result.action === 'decline') answer = 'deny_once';
        if (answer === undefined) return;
        ask.answer(answer);
      })
      .catch((err: unknown) => {
        if (!ask.withdrawn.aborted) log.debug('asking in the app failed', { message: err instanceof Error ? err.message : String(err) });
      });
  };
}
