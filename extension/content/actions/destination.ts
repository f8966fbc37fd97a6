// The `destination` internal operation: where activating an element would send its browsing context — the hyperlink it
// is in, or the form a submit button or a field's implicit submission sends — read before an agent's click or type, so
// the background can ask for consent on the destination first (docs/architecture.md, "Consent"). Reads only.
import type { ContentHandler } from '../handlers.js';
import { checkTarget, resolveNow } from './target.js';

type Submitter = HTMLButtonElement | HTMLInputElement;

/** https://html.spec.whatwg.org/multipage/forms.html#concept-submit-button */
function isSubmitButton(el: Element): boolean {
  if (el instanceof HTMLButtonElement) return el.type === 'submit';
  return el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'image');
}

/** Where `submitter` (or, without one, `form` itself) sends the form; none for `method="dialog"`. */
function formTarget(form: HTMLFormElement, submitter: Submitter | undefined): string | undefined {
  // https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#form-submission-algorithm: the submitter's
  // formaction and formmethod win over the form's; the IDL attributes resolve the URL against the document.
  const method = (submitter?.hasAttribute('formmethod') ? submitter.formMethod : form.method).toLowerCase();
  if (method === 'dialog') return undefined;
  return submitter?.hasAttribute('formaction') ? submitter.formAction : form.action;
}

/**
 * The URL activating `el` would load: its hyperlink
 * (https://html.spec.whatwg.org/multipage/links.html#following-hyperlinks-2), the form its submit button sends, or —
 * `enter`, as Enter pressed in a text field — the form the field implicitly submits through the form's default button
 * (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#implicit-submission).
 */
export function destinationOfElement(el: Element, enter: boolean): string | undefined {
  if (enter && el instanceof HTMLInputElement && !isSubmitButton(el) && el.form) {
    return formTarget(el.form, [...el.form.elements].find(isSubmitButton) as Submitter | undefined);
  }
  const link = el.closest('a[href], area[href]');
  if (link instanceof HTMLAnchorElement || link instanceof HTMLAreaElement) return link.href;
  const control = el.closest('button, input');
  if (control && isSubmitButton(control)) {
    const submitter = control as Submitter;
    if (submitter.form) return formTarget(submitter.form, submitter);
  }
  return undefined;
}

export const destination: ContentHandler<'destination'> = (args, ctx) => {
  checkTarget(args, 'the element');
  const el = resolveNow(args, ctx, ctx.redactor());
  const url = el && destinationOfElement(el, args.enter === true);
  return url !== undefined ? { url } : {};
};
