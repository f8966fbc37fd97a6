// The content script's side of JavaScript dialogs (its main-world counterpart is ../main/dialogs.ts): while an
// acting call runs, each alert/confirm/prompt it opens is answered as the call said — or dismissed and reported when
// it said nothing, so a dialog never blocks the page unseen. `beforeunload` is answered only when the call accepts.
import type { DialogAnswer, DialogSeen, DialogType } from '../../shared/act.js';
import { DIALOG_TYPES } from '../../shared/act.js';
import { orielError } from '../../shared/errors.js';

/** An armed call: how it answers, and what it met. */
export interface ArmedDialogs {
  answer?: DialogAnswer;
  text?: string;
  seen: DialogSeen[];
}

let armed: ArmedDialogs | undefined;

/** Arms dialog answering for the call about to run (the last armed call wins; calls on one tab run one at a time). */
export function armDialogs(args: { dialog?: unknown; dialog_text?: unknown }): ArmedDialogs {
  armed = {
    seen: [],
    ...(args.dialog === 'accept' || args.dialog === 'dismiss' ? { answer: args.dialog } : {}),
    ...(typeof args.dialog_text === 'string' ? { text: args.dialog_text } : {}),
  };
  return armed;
}

/** Disarms `a` if it is still the armed call. */
export function disarmDialogs(a: ArmedDialogs): void {
  if (armed === a) armed = undefined;
}

/**
 * The error for dialogs a call met without saying how to answer: the action was carried out, the dialog dismissed.
 * Undefined when the call said how to answer, or met none.
 */
export function unansweredDialogError(a: ArmedDialogs) {
  if (a.answer !== undefined || a.seen.length === 0) return undefined;
  const d = a.seen[0]!;
  return orielError(
    'dialog_opened',
    `The action opened a ${d.type} dialog saying ${JSON.stringify(d.message.slice(0, 300))}; the call did not say how to answer it, so Oriel dismissed it${d.type === 'confirm' ? ' (Cancel)' : ''}. The action itself was carried out. To answer it, call again with dialog: "accept" or "dismiss"${d.type === 'prompt' ? ' (and dialog_text)' : ''}.`,
    { details: { dialogs: a.seen } },
  );
}

window.addEventListener(
  'oriel-dialog',
  (e) => {
    const a = armed;
    if (!a) return;
    let q: { type?: unknown; message?: unknown; value?: unknown };
    try {
      q = JSON.parse(String((e as CustomEvent).detail)) as typeof q;
    } catch {
      return;
    }
    const type = DIALOG_TYPES.find((t) => t === q.type) as DialogType | undefined;
    if (!type) return;
    const message = typeof q.message === 'string' ? q.message.slice(0, 2000) : '';
    if (type === 'beforeunload') {
      // Whether the page would ask is not known here: leaving is let through when the call accepts, and not reported.
      if (a.answer === 'accept') reply(true, '');
      return;
    }
    const answer = a.answer ?? 'dismiss';
    if (a.seen.length < 20) a.seen.push({ type, message, answer });
    reply(answer === 'accept', a.text ?? (typeof q.value === 'string' ? q.value : ''));
  },
  true,
);

function reply(accept: boolean, text: string): void {
  window.dispatchEvent(new CustomEvent('oriel-dialog-answer', { detail: JSON.stringify({ accept, text }) }));
}
