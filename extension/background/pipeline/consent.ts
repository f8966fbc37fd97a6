// Pipeline stage 3, and the one place that decides consent (docs/architecture.md, "Consent"): is the op switched off by
// the person's policy; does the caller hold the op's capability on the origins it touches — read on the tab's top
// origin (reading every frame of the tab is covered by it), act or exec on the target frame's origin? What is not
// granted suspends the call on a prompt with its own budget; the person's answer lets it through, refuses it, or
// leaves a rule for later calls. Others call {@link isGranted} to ask without prompting.
import { awaitTurn } from './turns.js';
import { orielError } from '../../../shared/errors.js';
import { execShownOf, OPS, specOf, type ExecShown } from '../../../shared/ops.js';
import { answersFor, appAnswersFor, effectOf, type Answer, type Grantable, type Need } from '../../consent/rules.js';
import { MAX_QUESTION_CODE_CHARS, type AppAnswer, type PromptQuestion } from '../../../shared/ask-in-app.js';
import type { Caller } from '../../../shared/call.js';
import { codeFields } from '../../consent/audit.js';
import { disabledTools } from '../../settings.js';
import { addGrant, addRule, judge } from '../grants.js';
import { audit, sha256 } from '../audit.js';
import * as prompts from '../prompts.js';
import type { CallState, Stage } from './types.js';

/** Longest code or operation arguments a prompt shows, characters (the rest is counted, not shown). */
const MAX_SHOWN_CODE = 4000;

/**
 * What a call needs, in the order it is asked: the page the person sees first, then the frame acted in. Navigation is
 * an act on the destination (docs/architecture.md, "Consent"): navigate needs act on the origin it takes the tab to
 * and nothing on the page it leaves, so a tab that drifted to an origin nobody allowed can always be taken back to one
 * that is.
 */
function needsOf(state: CallState, code?: string): Need[] {
  const capability = OPS[state.op].capability;
  const t = state.target!;
  if (specOf(state.op).navigates) return [{ capability: 'act', origin: t.destination ?? 'null', tab: state.tab, top: true }];
  const top: Need = { capability: capability === 'read' || t.frame !== 0 ? 'read' : capability, origin: t.topOrigin, tab: state.tab, top: true };
  if (capability === 'read') return [top];
  const frame: Need = { capability, origin: t.origin, tab: state.tab, top: t.frame === 0, ...(code !== undefined && { code }) };
  if (t.frame === 0) return [{ ...top, ...frame }];
  return [top, frame];
}

/**
 * The code an exec op runs (evaluate's expression), or the page operation it calls with its arguments, as the person is
 * shown it (the op map's `exec`); `text` is what an "exact code" grant is bound to.
 */
function execDetail(state: CallState, shown: ExecShown): { text: string; detail: NonNullable<prompts.Prompt['view']['detail']>; code?: string; operation?: string } {
  if ('code' in shown) {
    const code = shown.code;
    return { text: code, code, detail: { kind: 'code', code: code.slice(0, MAX_SHOWN_CODE), chars: code.length } };
  }
  const name = shown.operation;
  const args = JSON.stringify(shown.arguments ?? {});
  return {
    text: `${state.op} ${JSON.stringify(name)} ${args}`,
    operation: `${name} ${args}`.slice(0, 2000),
    detail: { kind: 'operation', name: name.slice(0, 200), args: args.slice(0, MAX_SHOWN_CODE) },
  };
}

export const consent: Stage = async (state) => {
  if (disabledTools(state.settings).includes(state.op)) {
    const exec = OPS[state.op].capability === 'exec' && !state.settings.allowExec;
    throw orielError(
      'operation_disabled',
      exec
        ? `The user switched off agents' code (exec) in Oriel's options, so "${state.op}" is refused. To read the page use snapshot, extract or extract_rows instead.`
        : `The user switched off "${state.op}" in Oriel's options, so agents cannot use it.`,
    );
  }
  let detail: ReturnType<typeof execDetail> | undefined;
  let codeHash: string | undefined;
  const shown = OPS[state.op].capability === 'exec' ? execShownOf(state.op, state.args) : undefined;
  if (shown) {
    detail = execDetail(state, shown);
    codeHash = await sha256(detail.text);
    state.exec = { origin: state.target!.origin, codeHash, ...(detail.code !== undefined ? { code: detail.code } : { operation: detail.operation }) };
  }
  for (const need of needsOf(state, codeHash)) await obtain(state, need, detail?.detail);
  // Where a click, a type or a key leads is read by the content script right before it acts (./dispatch.ts).
};

/**
 * A click on a link or a submit, or Enter in a form, that leads to `origin` (another one than its frame's) is an act
 * on that origin too: obtained as the call's other needs are (asking the person if need be), it becomes the call's
 * destination, which its navigation guard lets through (./guarded.ts).
 * @throws OrielError `permission_denied`, `permission_timeout`, `cancelled`, as {@link obtain}.
 */
export async function obtainDestination(state: CallState, origin: string): Promise<void> {
  await obtain(state, { capability: 'act', origin, tab: state.tab, top: true }, undefined);
  state.target!.destination = origin;
}

/**
 * Lets the call through when `need` is granted; refuses it when denied; otherwise suspends it on a prompt (the
 * call's deadline stops meanwhile) until the person answers or the prompt budget ends.
 * @throws OrielError `permission_denied`, `permission_timeout`, `cancelled`.
 */
async function obtain(state: CallState, need: Need, detail: prompts.Prompt['view']['detail']): Promise<void> {
  const verdict = await judge(need);
  if (verdict.kind === 'allow') return;
  const what = `${need.capability} on ${need.origin}`;
  if (verdict.kind === 'deny') {
    throw orielError('permission_denied', `The user always denies ${what} (a rule in Oriel's options). Nothing was done.`, {
      next: "do without it, or ask the user to remove the rule in Oriel's options",
    });
  }
  const until = Date.now() + state.settings.promptSeconds * 1000;
  const title = (await chrome.tabs.get(state.tab).catch(() => undefined))?.title ?? '';
  const view: prompts.Prompt['view'] = {
    answers: answersFor(need.capability, need.origin),
    ...(detail && need.capability === 'exec' && { detail }),
    ...(!need.top && { frame: { inside: state.target!.topOrigin } }),
  };
  const waiting = prompts.wait(need, view, { call: state.call.id, client: state.call.client, session: state.call.session, op: state.op, title, until }, state.signal);
  // The hub learns the question with the suspension, so the calling client's app can ask it too where the person allows.
  const open = prompts.promptOf(need, state.call.id);
  state.clock.suspend(until, open && appQuestion(open, title, state.op));
  const outcome = await waiting;
  switch (outcome) {
    case 'allow': {
      // Other calls on the tab ran while the person decided: go on when the hub gives this call its turn back.
      const turn = awaitTurn(state.call.id, state.signal);
      state.clock.resume();
      await turn;
      return;
    }
    case 'deny':
      throw orielError('permission_denied', `The user denied ${what}. Nothing was done.`, { next: 'do without it, or ask the user why' });
    case 'timeout':
      throw orielError('permission_timeout', `The user did not answer the permission prompt for ${what} within ${state.settings.promptSeconds} s. Nothing was done.`, {
        next: 'ask the user to open the Oriel toolbar popup and answer the prompt, then retry',
      });
    case 'busy':
      throw orielError('permission_timeout', `Too many permission requests are waiting for the user already; ${what} was not asked. Nothing was done.`, {
        next: 'wait for the user to answer the requests in the Oriel popup, then retry',
      });
    case 'cancelled':
      throw orielError('cancelled', state.signal.aborted ? "The call was cancelled while it waited for the user's permission." : "The call was withdrawn while it waited for the user's permission (its client left).");
  }
}

/** Who gave an answer: the person in the popup, or the person in the app of the client whose call `call` waits. */
export type AnswerSource = { kind: 'popup' } | { kind: 'app'; client: Caller; call: number };

/**
 * The person answers prompt `id`: the waiting calls go on or fail, a remembered rule or session grant is kept, exec
 * grants (and every answer given in an app) go to the audit log with where they were given, and other open prompts
 * that the new rule settles are settled too. An answer given in a client's app must be one the app was offered
 * ({@link appAnswersFor}) for a prompt a call of that very client waits on, and settles only that client's calls
 * (docs/architecture.md, "Asking in the agent's app").
 * @returns false when the prompt is gone (answered meanwhile, or every call stopped waiting), the answer is not
 *   offered, or (from an app) the client's call does not wait on this prompt.
 */
export async function answerPrompt(id: string, answer: Answer, source: AnswerSource = { kind: 'popup' }): Promise<boolean> {
  const prompt = prompts.openPrompts().find((p) => p.id === id);
  if (!prompt || !prompt.view.answers.includes(answer)) return false;
  if (source.kind === 'app') {
    const bound = prompt.waiters.some((w) => w.call === source.call && w.client.id === source.client.id);
    if (!bound || !appAnswersFor(prompt.need.capability, prompt.view.answers).includes(answer as AppAnswer)) return false;
  }
  // The calls answered are those waiting now (storing a rule below may settle the prompt before this function does).
  const waiters = prompt.waiters.filter((w) => source.kind === 'popup' || w.client.id === source.client.id);
  const preview = prompt.view.detail?.kind === 'code' ? prompt.view.detail.code : undefined;
  const effect = effectOf(answer, prompt.need, crypto.randomUUID(), Date.now(), preview);
  if (effect.allow && prompt.need.capability === 'exec') await auditAnswer('grant', prompt, waiters, answer, source);
  else if (source.kind === 'app') await auditAnswer('answer', prompt, waiters, answer, source);
  if (effect.rule) await addRule(effect.rule);
  // The grant keeps the title the person saw in the prompt: the tab may show another site's page later.
  if (effect.grant) await addGrant({ ...effect.grant, ...(waiters[0] && { title: waiters[0].title.slice(0, 200) }) });
  if (source.kind === 'app') prompts.settleClient(id, source.client.id, effect.allow ? 'allow' : 'deny');
  else prompts.settle(id, effect.allow ? 'allow' : 'deny');
  if (effect.rule || effect.grant) await recheck();
  return true;
}

/**
 * The prompt as an agent's app is asked it: what the popup shows, bounded, with the narrow answers only. `title` is
 * the shared tab's (page content), `op` the asking call's tool.
 */
function appQuestion(prompt: prompts.Prompt, title: string, op: string): PromptQuestion {
  const detail = prompt.view.detail;
  return {
    id: prompt.id,
    capability: prompt.need.capability,
    origin: prompt.need.origin.slice(0, 300),
    ...(prompt.view.frame && { inside: prompt.view.frame.inside.slice(0, 300) }),
    title: title.slice(0, 300),
    tool: op,
    ...(detail?.kind === 'code' && { code: detail.code.slice(0, MAX_QUESTION_CODE_CHARS), code_chars: detail.chars }),
    ...(detail?.kind === 'operation' && { operation: `${detail.name} ${detail.args}`.slice(0, MAX_QUESTION_CODE_CHARS) }),
    answers: appAnswersFor(prompt.need.capability, prompt.view.answers),
  };
}

/** Settles the open prompts that what is stored now decides (after a new rule, or a revocation elsewhere). */
export async function recheck(): Promise<void> {
  for (const p of prompts.openPrompts()) {
    const verdict = await judge(p.need);
    if (verdict.kind === 'allow') prompts.settle(p.id, 'allow');
    else if (verdict.kind === 'deny') prompts.settle(p.id, 'deny');
  }
}

async function auditAnswer(kind: 'grant' | 'answer', prompt: prompts.Prompt, waiters: readonly prompts.Waiter[], answer: Answer, source: AnswerSource): Promise<void> {
  const detail = prompt.view.detail;
  for (const w of waiters) {
    await audit({
      time: Date.now(),
      kind,
      session: w.session,
      origin: prompt.need.origin,
      client: w.client.name,
      client_id: w.client.id,
      tool: w.op,
      ...(detail?.kind === 'code' && codeFields(detail.code, prompt.need.code ?? '')),
      ...(detail?.kind === 'operation' && { operation: `${detail.name} ${detail.args}`.slice(0, 2000) }),
      outcome: answer,
      source: source.kind,
      ...(source.kind === 'app' && { source_client: source.client.name.slice(0, 200) }),
      ...(kind === 'answer' && { capability: prompt.need.capability }),
    });
  }
}

/**
 * Whether `capability` on `origin` is granted in `tab` now, without asking the person (for other parts of the
 * extension that need to know, e.g. whether a redacted value may be shown to a caller holding exec there).
 */
export async function isGranted(tab: number, capability: Grantable, origin: string, top = true): Promise<boolean> {
  return (await judge({ capability, origin, tab, top })).kind === 'allow';
}
