// The tool sets an MCP client can pick with `oriel mcp --tools <list>` (docs/tools.md, "Tool sets"): named groups of
// tool names, so a client that needs only reading and basic acting pays for a shorter tools/list on every turn.
import { orielError } from '../../../shared/errors.js';

/**
 * Named groups of tools. `core` is reading plus basic acting; the others add the rest by theme; `all` (the default)
 * is every tool. A tool name on its own is a group of one.
 */
export const TOOL_SETS = {
  core: ['list_sessions', 'snapshot', 'click', 'type', 'press_key', 'scroll', 'navigate', 'wait_for', 'extract', 'extract_rows', 'screenshot'],
  input: ['select_options', 'hover', 'drag', 'upload'],
  leases: ['acquire_lease', 'release_lease'],
  bridge: ['send_message', 'await_message'],
  page_tools: ['list_tab_operations', 'call_tab_operation'],
  exec: ['evaluate'],
  files: ['upload', 'downloads'],
} as const satisfies Record<string, readonly string[]>;

/** The set `oriel mcp` serves when no `--tools` is given. */
export const DEFAULT_TOOL_SET = 'all';

/** Longest `--tools` value accepted, characters. */
const MAX_SPEC_CHARS = 1_000;

/**
 * The tool names a `--tools` value selects, in `known` order: a comma-separated list of set names (TOOL_SETS, or
 * `all`) and tool names, e.g. `core,evaluate`. `known` is every tool name, in listing order.
 * @throws OrielError `invalid_argument` for an empty list or a word that is neither a set nor a tool, naming the
 *   valid words.
 */
export function resolveToolSet(spec: string, known: readonly string[]): string[] {
  const words = spec.slice(0, MAX_SPEC_CHARS + 1).split(',').map((w) => w.trim()).filter(Boolean);
  if (spec.length > MAX_SPEC_CHARS || words.length === 0) {
    throw orielError('invalid_argument', `--tools takes a comma-separated list of sets (${setNames().join(', ')}) or tool names.`);
  }
  const chosen = new Set<string>();
  for (const word of words) {
    if (word === 'all') known.forEach((n) => chosen.add(n));
    else if (Object.hasOwn(TOOL_SETS, word)) TOOL_SETS[word as keyof typeof TOOL_SETS].forEach((n) => chosen.add(n));
    else if (known.includes(word)) chosen.add(word);
    else throw orielError('invalid_argument', `--tools: ${JSON.stringify(word.slice(0, 60))} is neither a set (${setNames().join(', ')}) nor a tool name.`);
  }
  return known.filter((n) => chosen.has(n));
}

/** The named sets (TOOL_SETS, not `all`) that hold tool `name`, in TOOL_SETS order. */
export function setsWith(name: string): string[] {
  return Object.entries(TOOL_SETS).filter(([, tools]) => (tools as readonly string[]).includes(name)).map(([set]) => set);
}

/** Every set name `--tools` accepts. */
export function setNames(): string[] {
  return [...Object.keys(TOOL_SETS), 'all'];
}
