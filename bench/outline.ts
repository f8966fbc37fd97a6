// Reads Oriel outlines for the benchmark: which accessible names carry a handle, so the run can check that every
// visible interactive element of a generated page is present and actionable, and no hidden one leaked in.

const HANDLE = / @([a-z0-9]{4,16}\.[0-9a-z]+)/;
const NAME = /"((?:[^"\\]|\\.)*)"/;

/** Names (the first quoted string) of outline lines that carry a handle, mapped to their handle. */
export function handledNames(outline: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of outline.split('\n')) {
    const h = HANDLE.exec(line);
    const n = h && NAME.exec(line);
    if (h && n && !out.has(n[1]!)) out.set(n[1]!, h[1]!);
  }
  return out;
}

export interface Coverage {
  expected: number;
  /** Expected names found on a line with a handle. */
  found: number;
  /** Some of the names not found (at most 10). */
  missing: string[];
  /** Outline lines with a handle, of any role. */
  handles: number;
  /** Hidden elements of the generator that appear in the outline (should be 0). */
  hiddenShown: number;
}

export function checkCoverage(outline: string, expected: string[]): Coverage {
  const names = handledNames(outline);
  const missing = expected.filter((n) => !names.has(n));
  const handles = outline.split('\n').filter((l) => HANDLE.test(l)).length;
  const hiddenShown = (outline.match(/Hidden (link|button) \d+/g) ?? []).length;
  return { expected: expected.length, found: expected.length - missing.length, missing: missing.slice(0, 10), handles, hiddenShown };
}
