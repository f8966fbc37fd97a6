// The page-world half of JavaScript dialogs (part of extension/main/index.iife.ts, in shared tabs only): lets the action under
// way answer the JavaScript dialogs it opens (https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html).
// Each alert/confirm/prompt asks Oriel's content script (extension/content/dialogs.ts) through a synchronous DOM event
// first; when neither an Oriel action nor the tab's dialog policy answers, the browser's own dialog opens, for the
// person, and the content script is told it opened and when it closed, so agents' calls meanwhile end at once with
// `dialog_opened` instead of waiting on a stopped page (docs/tools.md, "Dialogs"). Page scripts can see these
// events and wrappers: they can only answer or fail their own dialogs, which they could do anyway.

/**
 * Wraps alert/confirm/prompt and listens for beforeunload; call once, ideally before any page script runs (a page script
 * that kept the natives before it calls them unanswered, and its beforeunload listeners run before this one).
 */
export function installDialogs(): void {
  const QUESTION = 'oriel-dialog';
  const ANSWER = 'oriel-dialog-answer';
  const SHOWN = 'oriel-dialog-shown';
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

  // Proxies keep each native's name, length, descriptor and lack of `prototype`; only Function.prototype.toString
  // tells them apart (docs/architecture.md, "What a page can see").
  const apply = Reflect.apply;
  const answerWith = <F extends (...args: never[]) => unknown>(type: 'alert' | 'confirm' | 'prompt', fallback: F): F =>
    new Proxy(fallback, {
      apply(target, _self, args: unknown[]) {
        // Converted to text once, here, and passed on as text: the page's objects see one conversion, as natively.
        const texts = args.slice(0, type === 'prompt' ? 2 : 1).map((v) => String(v));
        const a = ask(type, texts[0], type === 'prompt' ? texts[1] : undefined);
        if (!a) {
          // The browser's own dialog, for the person: the content script hears it open (its listener runs now,
          // synchronously) and close (the native call returned), so calls meanwhile fail fast.
          dispatch.call(w, new CustomEvent(SHOWN, { detail: JSON.stringify({ open: true, type, message: String(texts[0] ?? '').slice(0, 2000) }) }));
          try {
            return apply(target, w, texts);
          } finally {
            dispatch.call(w, new CustomEvent(SHOWN, { detail: JSON.stringify({ open: false }) }));
          }
        }
        if (type === 'alert') return undefined;
        if (type === 'confirm') return a.accept;
        return a.accept ? a.text : null;
      },
    });
  w.alert = answerWith('alert', native.alert);
  w.confirm = answerWith('confirm', native.confirm);
  w.prompt = answerWith('prompt', native.prompt);
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
