// Escaping and capping of page text for the outline: page text is data and must never break or spoof the format.

/**
 * Characters that would let page text break a line or reorder what a reader sees: line breaks, other C0/C1
 * controls, and the Unicode bidi controls (https://www.unicode.org/reports/tr9/#Directional_Formatting_Characters),
 * plus line/paragraph separators. They are written as `\u{…}` escapes.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff"\\]/g;

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

/** Collapses runs of whitespace (as CSS `white-space: normal` renders them) and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
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
