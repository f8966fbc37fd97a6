// Where activating an element would send its browsing context — the hyperlink it is in, or the form a submit button or
// a field's implicit submission sends — read right before an agent's click, type or key acts, in the same exchange, so
// the background can ask for consent on a destination of another origin first (docs/architecture.md, "Consent").
// Reads only.
import type { ContentContext } from '../handlers.js';
import { resolveNow, type TargetSpec } from './target.js';

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

/**
 * The origin a call of `op` leads to, read right before it acts, when that is an http(s) origin other than `from` (the
 * frame's own, as the background judged it); undefined when it leads nowhere, to `from`, to no http(s) page, or when
 * its element cannot be found now (the op then fails or waits as it would; the navigation guard still stops a
 * navigation to an origin without a grant). `how` is the op map's activation (shared/ops.ts `activationOf`).
 */
export function leadsElsewhere(how: 'click' | 'enter', target: TargetSpec, from: string, ctx: ContentContext): string | undefined {
  let url: string | undefined;
  try {
    const el = resolveNow(target, ctx, ctx.redactor());
    url = el && destinationOfElement(el, how === 'enter');
  } catch {
    return undefined;
  }
  if (url === undefined || !/^https?:/i.test(url)) return undefined;
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return undefined;
  }
  return origin === from ? undefined : origin;
}
