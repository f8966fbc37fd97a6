// The page-world half of JavaScript dialogs (part of extension/main/index.iife.ts, before page scripts, every frame): lets the action under
// way answer the JavaScript dialogs it opens (https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html).
// Each alert/confirm/prompt asks Oriel's content script (extension/content/dialogs.ts) through a synchronous DOM event
// first; when no Oriel action is running the browser's own dialog opens, for the person. Page scripts can see these
// events and wrappers: they can only answer or fail their own dialogs, which they could do anyway.

/** Wraps alert/confirm/prompt and listens for beforeunload first; call once, before any page script runs. */
export function installDialogs(): void {
  const QUESTION = 'oriel-dialog';
  const ANSWER = 'oriel-dialog-answer';
  const w = window;
  const native = { alert: w.alert, confirm: w.confirm, prompt: w.prompt };
  const listen = EventTarget.prototype.addEventListener;
  const unlisten = EventTarget.prototype.removeEventListener;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const stop = Event.prototype.stopImmediatePropagation;

  /** Asks the content script how to answer; undefined when no Oriel action is running (the browser asks the person). */
  function ask(type: string, message: unknown, value?: unknown): { accept: boolean; text: string } | undefined {
    let reply: unknown;
    const onAnswer = (e: Event) => {
      reply = (e as CustomEvent).detail;
    };
    listen.call(w, ANSWER, onAnswer, true);
    try {
      const detail = JSON.stringify({ type, message: String(message ?? '').slice(0, 2000), value: value === undefined ? '' : String(value).slice(0, 2000) });
      dispatch.call(w, new CustomEvent(QUESTION, { detail }));
    } finally {
      unlisten.call(w, ANSWER, onAnswer, true);
    }
    if (typeof reply !== 'string') return undefined;
    try {
      const parsed = JSON.parse(reply) as { accept?: unknown; text?: unknown };
      return { accept: parsed.accept === true, text: typeof parsed.text === 'string' ? parsed.text : '' };
    } catch {
      return undefined;
    }
  }

  // Rest parameters keep the natives' `length` (0) and pass on exactly what the page passed.
  w.alert = function alert(...args: [string?]): void {
    if (ask('alert', args[0])) return;
    return native.alert.apply(w, args);
  };
  w.confirm = function confirm(...args: [string?]): boolean {
    const a = ask('confirm', args[0]);
    if (a) return a.accept;
    return native.confirm.apply(w, args);
  };
  w.prompt = function prompt(...args: [string?, string?]): string | null {
    const a = ask('prompt', args[0], args[1]);
    if (a) return a.accept ? a.text : null;
    return native.prompt.apply(w, args);
  };
  // Registered before any page script, so it runs first: an action that says to accept leaving keeps the page's
  // "leave site?" handlers from running (https://html.spec.whatwg.org/multipage/nav-history-apis.html#beforeunloadevent).
  listen.call(
    w,
    'beforeunload',
    (e: Event) => {
      if (ask('beforeunload', '')?.accept) stop.call(e);
    },
    true,
  );
}
