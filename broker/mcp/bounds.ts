// Size bounds for what tools return to the model.

/** Largest text content of one tool result, in characters. */
export const MAX_RESULT_CHARS = 250_000;

/** Cuts `text` to {@link MAX_RESULT_CHARS} at a line boundary, saying that it did. */
export function boundText(text: string, max = MAX_RESULT_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max - 80);
  return `${text.slice(0, cut > 0 ? cut : max - 80)}\n[truncated: ${text.length - (cut > 0 ? cut : max - 80)} more characters]`;
}
