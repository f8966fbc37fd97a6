// Tells the background the names of secret fields a form is about to submit, so that when a GET form puts their
// values into the next page's URL, Oriel shows that URL without them. Counterpart: extension/background/secret-params.ts.
import { isSecretField } from './redaction.js';
import { sendSide } from '../side-channel.js';

/**
 * Listens (capturing, on the window) for `formdata`, which a form fires whenever its data set is built: on every
 * submission, `form.submit()` included, and for `new FormData(form)`
 * (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#constructing-the-form-data-set).
 * Runs in every page, shared or not: a tab shared after the submission still shows the URL.
 */
export function watchSecretSubmissions(): void {
  addEventListener(
    'formdata',
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      const names = new Set<string>();
      for (const el of Array.from(form.elements)) {
        const name = (el as HTMLInputElement).name;
        if (typeof name === 'string' && name !== '' && name.length <= 200 && isSecretField(el)) names.add(name);
      }
      if (names.size === 0) return;
      try {
        void sendSide('secret_params', { names: [...names].slice(0, 200) }).catch(() => undefined);
      } catch {
        // The extension was reloaded: this old content script can no longer reach it.
      }
    },
    { capture: true },
  );
}
