// The one escaper of page text (the outline, tool texts, error messages, `oriel status`) and the capping of it: page
// text is data and must never break, reorder or spoof what Oriel writes around it.

/**
 * Characters that would let page text break a line or reorder what a reader sees: line breaks, other C0/C1
 * controls, and the Unicode bidi controls (https://www.unicode.org/reports/tr9/#Directional_Formatting_Characters),
 * plus line/paragraph separators and the invisible characters that make two names look alike (zero-width space, word
 * joiner, invisible operators). They are written as `\u{…}` escapes.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"\\]/g;
/** {@link UNSAFE} without the quote and the backslash: what must not appear raw even outside quotes. */
const UNSAFE_BARE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/** What JSON.stringify leaves raw inside strings but a terminal would act on: C1 controls, bidi controls, separators. */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

function escapeChar(c: string): string {
  if (c === '"') return '\\"';
  if (c === '\\') return '\\\\';
  if (c === '\n') return '\\n';
  if (c === '\t') return '\\t';
  return `\\u{${c.codePointAt(0)!.toString(16)}}`;
}

/** `text` in double quotes, with quotes, backslashes, controls and bidi overrides escaped. */
export function quote(text: string): string {
  return `"${text.replace(UNSAFE, escapeChar)}"`;
}

/**
 * `text` without quotes, for tokens written bare (URLs, Oriel's own messages that embed page text): line breaks,
 * controls and bidi controls become escapes as in {@link quote}; quotes and backslashes stay as they are.
 */
export function escapeBare(text: string): string {
  return text.replace(UNSAFE_BARE, escapeChar);
}

/**
 * JSON text (from JSON.stringify) with the characters JSON leaves raw but a terminal would act on (C1 and bidi
 * controls, line/paragraph separators) written as `\uXXXX` escapes (RFC 8259 §7); it parses to the same value.
 */
export function escapeJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `text` capped to `limit` characters (see {@link cap}) and quoted: the form for page text inside Oriel's sentences. */
export function quoteCapped(text: string, limit: number): string {
  return quote(cap(text, limit));
}

/**
 * Characters that render nothing in running text, which browsers leave out of the text they expose: the soft hyphen
 * (a hyphenation opportunity, https://www.unicode.org/reports/tr14/#SH), the zero-width space and word joiner (line
 * break opportunities), and the byte-order mark used as a zero-width no-break space. The zero-width joiner and
 * non-joiner stay: they change how letters and emoji are drawn.
 */
const INVISIBLE = /[\u00ad\u200b\u2060\ufeff]/g;

/** `text` as a person reads it: without {@link INVISIBLE} characters. */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/**
 * Collapses runs of whitespace (as CSS `white-space: normal` renders them), drops the characters that render nothing
 * ({@link withoutInvisible}), and trims: names and text lines as a person reads them.
 */
export function collapseWhitespace(text: string): string {
  return withoutInvisible(text).replace(/[\s\u00a0]+/g, ' ').trim();
}

/** Marker appended to capped text: how many characters were left out. */
export function capMarker(left: number): string {
  return `…(+${left})`;
}

/** Caps `text` to `limit` characters (never splitting a surrogate pair), appending a marker with the rest's length. */
export function cap(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = limit;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end) + capMarker(text.length - end);
}
