// The tool wrapper: turns a tool's specification into the definition the server registers, owning what every tool
// used to repeat — which arguments must be given together or apart, and the answer's shared parts (./response.ts).
// Budgets are per operation (./budget.ts); the common session/document/lease arguments are split off by commonArgs().
import type { z } from 'zod';
import { orielError } from '../../../shared/errors.js';
import { finishAnswer } from './response.js';
import type { ToolContext, ToolDefinition, ToolOutput } from './types.js';

/**
 * Another tool, named in this one's text or errors: a function returning its definition, read only when the text is
 * needed, so definitions can name each other whatever order their modules load in, and a rename is a type error.
 */
export type ToolRef = () => { readonly name: string };

/** A text that may name other tools: a function is called each time the text is read. */
export type ToolText = string | (() => string);

/** How many of a group of arguments a call must give. */
export type ChoiceCount = 'exactly_one' | 'at_most_one' | 'at_least_one';

/**
 * A precondition on a group of the tool's own arguments, checked before its handler runs; a call that breaks it fails
 * with `invalid_argument` and nothing is sent to the page.
 */
export interface Choice<K extends string = string> {
  keys: readonly K[];
  count: ChoiceCount;
  /** What the group is for, ending the message ("for the source"). */
  about?: string;
  /** The message instead of the one made from the keys. */
  message?: string;
  /** The tool the error names as the next step. */
  next?: ToolRef;
}

/** A {@link Choice} of exactly one of `keys`: "Give exactly one of handle or selector." */
export function exactlyOne<const K extends string>(keys: readonly K[], options: Omit<Choice<K>, 'keys' | 'count'> = {}): Choice<K> {
  return { keys, count: 'exactly_one', ...options };
}

/** A {@link Choice} of at most one of `keys`: "Give at most one of handle or selector." */
export function atMostOne<const K extends string>(keys: readonly K[], options: Omit<Choice<K>, 'keys' | 'count'> = {}): Choice<K> {
  return { keys, count: 'at_most_one', ...options };
}

/** The element an action names (shared/act.ts TargetArgs): a handle or a CSS selector. */
const ELEMENT_KEYS = ['handle', 'selector'] as const;

/**
 * Exactly one of handle or selector: the element the tool acts on or reads. `next` is the tool handles come from
 * (given by the tool file, which can import it without a module cycle here).
 */
export function oneElement(next: ToolRef): Choice<(typeof ELEMENT_KEYS)[number]> {
  return exactlyOne(ELEMENT_KEYS, { next });
}

/** At most one of handle or selector: the element, or (neither) the page or whatever has focus. */
export const AT_MOST_ONE_ELEMENT = atMostOne(ELEMENT_KEYS);

const COUNT_WORDS: Record<ChoiceCount, string> = { exactly_one: 'exactly one', at_most_one: 'at most one', at_least_one: 'at least one' };

/** "a or b", "a, b or c". */
function alternatives(keys: readonly string[]): string {
  return keys.length < 2 ? (keys[0] ?? '') : `${keys.slice(0, -1).join(', ')} or ${keys[keys.length - 1]}`;
}

/**
 * Checks one {@link Choice} against a call's arguments (an argument counts as given unless it is undefined).
 * @throws OrielError `invalid_argument` naming the group, with the choice's `next` tool.
 */
export function checkChoice(choice: Choice, args: Readonly<Record<string, unknown>>): void {
  const given = choice.keys.filter((k) => args[k] !== undefined).length;
  const ok = choice.count === 'exactly_one' ? given === 1 : choice.count === 'at_most_one' ? given <= 1 : given >= 1;
  if (ok) return;
  const message = choice.message ?? `Give ${COUNT_WORDS[choice.count]} of ${alternatives(choice.keys)}${choice.about ? ` ${choice.about}` : ''}.`;
  throw orielError('invalid_argument', message, choice.next ? { next: choice.next().name } : {});
}

/** What a tool file writes: its definition with texts that may name other tools, its preconditions and its handler. */
export interface ToolSpec<S extends z.ZodObject> extends Omit<ToolDefinition<S>, 'description' | 'usage' | 'notes' | 'handler'> {
  description: ToolText;
  usage?: ToolText;
  notes?: ToolText;
  /** Argument groups checked before the handler runs ({@link Choice}). */
  choose?: ReadonlyArray<Choice<keyof z.infer<S> & string>>;
  /**
   * Builds the tool's own answer from its arguments (parsed, bounded, without the common ones) and context; the
   * shared parts are added after it (./response.ts).
   */
  handler(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutput>;
}

const textOf = (t: ToolText | undefined): string | undefined => (typeof t === 'function' ? t() : t);

/**
 * Makes a tool definition from its specification: texts are read when listed (so they may name tools defined later),
 * the choices are checked before the handler, and the answer gets its shared parts (acting tools' notes, downloads).
 * The argument type is erased so definitions can sit in one list.
 */
export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): ToolDefinition {
  const { description, usage, notes, choose = [], handler, ...rest } = spec;
  const def = {
    ...rest,
    async handler(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutput> {
      for (const choice of choose) checkChoice(choice, args as Record<string, unknown>);
      return finishAnswer(await handler(args, ctx), ctx, spec.acting === true);
    },
  };
  const texts = { description, usage, notes };
  for (const [key, text] of Object.entries(texts)) {
    if (text !== undefined) Object.defineProperty(def, key, { get: () => textOf(text), enumerable: true });
  }
  return def as unknown as ToolDefinition;
}

/** The arguments every tool accepts (broker/mcp/listing.ts, COMMON_ARGS): which tab, the document guard, the lease. */
export interface CommonArgs {
  session?: string;
  document?: string;
  lease?: string;
}

/** Splits a call's parsed arguments into the common ones ({@link CommonArgs}) and the tool's own. */
export function commonArgs(parsed: Record<string, unknown>): { common: CommonArgs; own: Record<string, unknown> } {
  const { session, document, lease, ...own } = parsed as Record<string, unknown> & CommonArgs;
  return { common: { session, document, lease }, own };
}
