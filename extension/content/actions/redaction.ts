// Which elements hold secrets that actions must not read back (SPEC §3 redaction): password fields and the
// autocomplete tokens for credentials, one-time codes and payment cards. The snapshot applies the same rule.

/** https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#autofill-field */
const SECRET_TOKENS = new Set(['current-password', 'new-password', 'one-time-code']);

/** Whether `el` (or the form control it is) is redacted. */
export function isRedacted(el: Element): boolean {
  if (el instanceof HTMLInputElement && el.type === 'password') return true;
  const auto = el.getAttribute('autocomplete');
  if (!auto) return false;
  return auto
    .toLowerCase()
    .split(/\s+/)
    .some((t) => SECRET_TOKENS.has(t) || t.startsWith('cc-'));
}

/** Whether `el` is redacted or sits inside a redacted element (e.g. text inside a secret contenteditable). */
export function isInsideRedacted(el: Element): boolean {
  for (let n: Element | null = el; n; n = n.parentElement) if (isRedacted(n)) return true;
  return false;
}
