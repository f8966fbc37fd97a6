// Showing strings that come from outside the extension (page titles, agents' names and code) in its own pages: always
// as text (textContent, never HTML), bounded, with invisible and direction-changing characters made visible so a
// string cannot disguise itself (https://www.unicode.org/reports/tr9/#Explicit_Directional_Formatting_Characters).
import { escapeBare } from '../../shared/snapshot/escape.js';

/**
 * `text` cut to `max` characters, with control, bidirectional-formatting and invisible characters shown as `\u{…}`
 * escapes by the one escaper of page text (shared/snapshot/escape.ts). `keepLines` spares line breaks and tabs (code).
 */
export function visible(text: string, max: number, keepLines = false): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  if (!keepLines) return escapeBare(cut);
  return cut
    .split(/([\n\t])/)
    .map((part) => (part === '\n' || part === '\t' ? part : escapeBare(part)))
    .join('');
}

/** Creates an element with text content (never HTML) and optional class. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}
