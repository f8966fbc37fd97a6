// Permission prompts asked in the calling agent's own app too (MCP elicitation): which suspended call has its
// question out with which client, withdrawing it the moment the prompt is settled elsewhere, and the check that binds
// an app's answer to the asking call (docs/architecture.md, "Asking in the agent's app").
import { errorData, OrielError } from '../../shared/errors.js';
import type { Caller } from '../../shared/call.js';
import type { AppAnswer, PromptQuestion } from '../../shared/ask-in-app.js';
import type { HubToBrowser } from '../../shared/protocol.js';

/** A question handed to the MCP side for one suspended call. */
export interface AppAsk {
  question: PromptQuestion;
  /** The asking client's label (numbered when two clients share a name), as the popup shows it. */
  client: string;
  /** When the prompt's budget ends, ms since the Unix epoch. */
  until: number;
  /** Aborted when the question is withdrawn: answered in the popup or elsewhere, cancelled, or the call ended. */
  withdrawn: AbortSignal;
  /**
   * Relays the person's answer given in the app.
   * @throws OrielError `invalid_argument` when the question was withdrawn meanwhile or the answer is not offered.
   */
  answer(answer: AppAnswer): void;
}

interface Open {
  call: number;
  client: string;
  instance: string;
  question: PromptQuestion;
  controller: AbortController;
}

/** The questions out with agents' apps now, one per suspended call at most. */
export class AppAsks {
  private readonly open = new Map<number, Open>();

  constructor(private readonly send: (instance: string, frame: HubToBrowser) => void) {}

  /**
   * Puts `question` to the app of `caller`, whose call `call` (in browser `instance`) waits on it until `until`;
   * `ask` is the MCP side's way to ask. A question still out for the call is withdrawn first.
   */
  start(call: number, caller: Caller, instance: string, question: PromptQuestion, until: number, ask: (a: AppAsk) => void): void {
    this.withdraw(call);
    const controller = new AbortController();
    this.open.set(call, { call, client: caller.id, instance, question, controller });
    ask({ question, client: caller.name, until, withdrawn: controller.signal, answer: (answer) => this.answer(caller, question.id, call, answer) });
  }

  /** Withdraws the question out for `call`, if any (the prompt was settled, or the call ended). */
  withdraw(call: number): void {
    const o = this.open.get(call);
    if (!o) return;
    this.open.delete(call);
    o.controller.abort();
  }

  /** Browser `instance` reported its open prompts: questions about prompts no longer open are withdrawn. */
  prune(instance: string, openPrompts: ReadonlySet<string>): void {
    for (const o of [...this.open.values()]) if (o.instance === instance && !openPrompts.has(o.question.id)) this.withdraw(o.call);
  }

  /**
   * An answer from `caller`'s app to prompt `prompt` for its call `call`: refused unless that call of that very client
   * has that question out now and the answer is one it offered; otherwise sent to the browser, which checks again.
   * @throws OrielError `invalid_argument` (`details.reason`: `unknown_prompt`, `not_yours`, `not_offered`).
   */
  answer(caller: Caller, prompt: string, call: number, answer: AppAnswer): void {
    const o = this.open.get(call);
    if (!o || o.question.id !== prompt) {
      const elsewhere = [...this.open.values()].some((x) => x.question.id === prompt);
      throw new OrielError(
        errorData('invalid_argument', elsewhere ? 'That permission prompt was raised by another client\'s call: a client answers only its own.' : 'No such permission prompt is waiting for this call (answered already, withdrawn, or never raised).', {
          details: { reason: elsewhere ? 'not_yours' : 'unknown_prompt' },
        }),
      );
    }
    if (o.client !== caller.id) {
      throw new OrielError(errorData('invalid_argument', "That permission prompt was raised by another client's call: a client answers only its own.", { details: { reason: 'not_yours' } }));
    }
    if (!o.question.answers.includes(answer)) {
      throw new OrielError(errorData('invalid_argument', `"${answer}" is not an answer this prompt offers in an app (offered: ${o.question.answers.join(', ')}).`, { details: { reason: 'not_offered' } }));
    }
    this.withdraw(call);
    this.send(o.instance, { t: 'answer', prompt, call, client: caller.id, via: caller.name.slice(0, 200), answer });
  }
}
