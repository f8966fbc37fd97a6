// Tells the background the names of secret fields a form is about to submit, so that when a GET form puts their
// values into the next page's URL, Oriel shows that URL without them. Used by the content script and by the early
// watcher (./early.iife.ts), so it imports no more than a few constants (no zod). Counterpart:
// extension/background/secret-params.ts.
import { MAX_PARAM_CHARS, MAX_SECRET_PARAMS } from '../../shared/url-redaction.js';
import { SIDE_TAG } from '../../shared/side-tag.js';
import type { SideEnvelope } from '../../shared/side-messages.js';

/**
 * Listens (capturing, on the window) for `formdata`, which a form fires whenever its data set is built: on every
 * submission, `form.submit()` included, and for `new FormData(form)`
 * (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#constructing-the-form-data-set), and
 * sends `{ orielSecretParams: names }` for the form's controls `isSecret` calls secret. Returns a function that stops
 * listening.
 */
export function watchSecretSubmissions(isSecret: (el: Element) => boolean): () => void {
  const listener = (event: Event): void => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    const names = new Set<string>();
    for (const el of Array.from(form.elements)) {
      const name = (el as HTMLInputElement).name;
      if (typeof name === 'string' && name !== '' && name.length <= MAX_PARAM_CHARS && isSecret(el)) names.add(name);
    }
    if (names.size === 0) return;
    try {
      const message: SideEnvelope<'secret_params'> = { [SIDE_TAG]: 'secret_params', params: { names: [...names].slice(0, MAX_SECRET_PARAMS) } };
      void chrome.runtime.sendMessage(message).catch(() => undefined);
    } catch {
      // The extension was reloaded: this old script can no longer reach it.
    }
  };
  addEventListener('formdata', listener, { capture: true });
  return () => removeEventListener('formdata', listener, { capture: true });
}
