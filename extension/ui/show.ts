// Showing strings that come from outside the extension (page titles, agents' names and code) in its own pages: always
// as text (textContent, never HTML), bounded, with invisible and direction-changing characters made visible so a
// string cannot disguise itself (https://www.unicode.org/reports/tr9/#Explicit_Directional_Formatting_Characters).

/** Control, bidirectional-formatting and zero-width characters, shown as \u{…} escapes. `keepLines` spares \n and \t. */
export function visible(text: string, max: number, keepLines = false): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  const pattern = keepLines ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g : /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
  return cut.replace(pattern, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** Creates an element with text content (never HTML) and optional class. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}
