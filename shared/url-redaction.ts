// Removing the values of secret fields from URLs: a GET form puts every field, passwords and card numbers included,
// into the query of the page it loads. The background records the names of the secret fields a tab's forms submitted
// (extension/background/secret-params.ts) and every URL Oriel shows for that tab passes through scrubUrl; the content
// script does the same for URLs it reads out of the page (extension/content/redaction.ts).

/** What a scrubbed value reads as. */
export const REDACTED_VALUE = '[redacted]';

/** Most names kept per tab, and longest name (characters). */
export const MAX_SECRET_PARAMS = 200;
export const MAX_PARAM_CHARS = 200;

/**
 * `url` with the value of every query parameter named in `names` replaced by {@link REDACTED_VALUE}; empty values stay
 * empty (whether a secret field was empty may be shown). Matching is by name only, never by value, so what is
 * scrubbed does not depend on what the fields held. Works on absolute URLs and on paths (`/p?a=1#x`); parameters are
 * split as application/x-www-form-urlencoded does (https://url.spec.whatwg.org/#urlencoded-parsing), and the rest of
 * the URL is left byte for byte.
 */
export function scrubUrl(url: string, names: ReadonlySet<string> | readonly string[]): string {
  const set = names instanceof Set ? names : new Set(names);
  if (set.size === 0) return url;
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const end = hash < 0 ? url.length : hash;
  const parts = url.slice(q + 1, end).split('&');
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const eq = part.indexOf('=');
    if (eq < 0 || eq === part.length - 1) continue;
    if (set.has(decodeName(part.slice(0, eq)))) {
      parts[i] = `${part.slice(0, eq)}=${REDACTED_VALUE}`;
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q + 1)}${parts.join('&')}${url.slice(end)}` : url;
}

/** A form-urlencoded name as the form gave it: `+` is a space, percent escapes decoded (bad escapes kept as they are). */
function decodeName(raw: string): string {
  const plus = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}
