// Checks an agent's arguments against the input schema a page registered with its tool (WebMCP), in the broker, before
// the page sees them (docs/bridge.md, "Page tools"). The schema is page content, compiled on the hub's one thread: it
// is bounded in size, depth and number of subschemas before it is compiled (ajv's compile time grows with the schema),
// its regular expressions run on RE2 (linear time: https://github.com/google/re2/wiki/WhyRE2), no remote references
// are fetched, and compiled validators are cached per schema text, a bounded number of them.
import { Ajv, type AnySchemaObject, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';
import { orielError } from '../../shared/errors.js';
import { PAGE_TOOL_LIMITS } from '../../shared/page-tools.js';

/** Compiled validators kept, most recently used last. */
const CACHE_SIZE = 64;
/** Deepest nesting of a schema, in objects and arrays. */
export const MAX_SCHEMA_DEPTH = 32;
/** Most objects and arrays in one schema: ajv's compile time grows with them (about 0.3–1 ms each here). */
export const MAX_SCHEMA_NODES = 128;

/** Depth and node count of a JSON value's objects and arrays; stops counting past the bounds. */
function shape(value: unknown, depth = 1, seen = { nodes: 0, depth: 0 }): { nodes: number; depth: number } {
  if (typeof value !== 'object' || value === null) return seen;
  seen.nodes++;
  seen.depth = Math.max(seen.depth, depth);
  if (seen.nodes > MAX_SCHEMA_NODES || seen.depth > MAX_SCHEMA_DEPTH) return seen;
  for (const child of Object.values(value)) shape(child, depth + 1, seen);
  return seen;
}

/**
 * JSON Schema `pattern` and `patternProperties` with RE2 instead of the backtracking RegExp engine: a page's pattern
 * cannot make validation take exponential time. Patterns RE2 does not support (lookaround, backreferences) fail to
 * compile, and the tool cannot be called.
 */
function re2(pattern: string): { test(input: string): boolean; toString(): string } {
  const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  // Ajv caches compiled patterns by this text: it must name the pattern.
  return { test: (input: string) => compiled.test(input), toString: () => `re2:${pattern}` };
}
re2.code = 're2';

const OPTIONS: Options = {
  // Page schemas use whatever keywords they like; unknown ones are ignored rather than refused.
  strict: false,
  // The first failure is enough to refuse, and costs less than collecting all.
  allErrors: false,
  // `format` is advisory in JSON Schema 2020-12 and its checks are regular expressions of their own.
  validateFormats: false,
  // A page's `$id` must not register it in the shared instance (two pages could claim one id).
  addUsedSchema: false,
  // One optimisation pass instead of several: page schemas are compiled often and validate one small object.
  code: { regExp: re2, optimize: 1 },
};

const draft2020 = new Ajv2020(OPTIONS);
const draft07 = new Ajv(OPTIONS);

type Instance = Ajv | Ajv2020;

interface Entry {
  validate?: ValidateFunction;
  problem?: string;
  ajv: Instance;
  schema: AnySchemaObject;
}

const cache = new Map<string, Entry>();

/** Older dialects are checked as draft-07, everything else as 2020-12 (MCP's default dialect for tool schemas). */
function dialectOf(schema: AnySchemaObject): { ajv: Instance; schema: AnySchemaObject } {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  const { $schema: _ignored, ...rest } = schema;
  if (/draft-0[4-7]/.test(declared)) return { ajv: draft07, schema: rest };
  return { ajv: draft2020, schema: rest };
}

function compile(text: string): Entry {
  const raw = JSON.parse(text) as unknown;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { problem: 'it is not a JSON Schema object', ajv: draft2020, schema: {} };
  const { nodes, depth } = shape(raw);
  if (depth > MAX_SCHEMA_DEPTH) return { problem: `it nests deeper than ${MAX_SCHEMA_DEPTH} levels`, ajv: draft2020, schema: {} };
  if (nodes > MAX_SCHEMA_NODES) return { problem: `it has more than ${MAX_SCHEMA_NODES} subschemas and lists`, ajv: draft2020, schema: {} };
  const { ajv, schema } = dialectOf(raw as AnySchemaObject);
  try {
    return { validate: ajv.compile(schema), ajv, schema };
  } catch (err) {
    // A schema that failed to compile may still sit in the instance's cache: drop it.
    ajv.removeSchema(schema);
    return { problem: (err instanceof Error ? err.message : String(err)).slice(0, 300), ajv, schema };
  }
}

/** The cached entry for `text`, compiling it on first use; the least recently used entry leaves when the cache is full. */
function entryFor(text: string): Entry {
  let entry = cache.get(text);
  if (entry) cache.delete(text);
  else entry = compile(text);
  cache.set(text, entry);
  while (cache.size > CACHE_SIZE) {
    const [oldest, old] = cache.entries().next().value as [string, Entry];
    cache.delete(oldest);
    old.ajv.removeSchema(old.schema);
  }
  return entry;
}

/** How many compiled schemas the checker holds now (at most {@link CACHE_SIZE}). */
export function cachedSchemas(): number {
  return cache.size;
}

/** One validation failure as a model should read it: where, and what the schema wanted. */
function describe(error: ErrorObject): string {
  const where = error.instancePath || '(arguments)';
  const extra = error.keyword === 'additionalProperties' ? ` (${JSON.stringify((error.params as { additionalProperty?: string }).additionalProperty)})` : '';
  return `${where} ${error.message ?? 'is invalid'}${extra}`;
}

/**
 * Checks `args` against the page tool's input schema, given as the JSON text the listing showed.
 * @throws OrielError `invalid_argument` when the arguments do not match (the message says where and why) or are over
 *   {@link PAGE_TOOL_LIMITS}.argumentsBytes; `unsupported` when the page's schema is over its bounds or cannot be
 *   compiled (it uses a pattern RE2 cannot run, a remote reference, or is not a schema).
 */
export function checkPageArguments(tool: string, schemaText: string, args: Record<string, unknown>): void {
  const argsBytes = Buffer.byteLength(JSON.stringify(args), 'utf8');
  if (argsBytes > PAGE_TOOL_LIMITS.argumentsBytes) {
    throw orielError('too_large', `The arguments are ${argsBytes} bytes as JSON; page operations take at most ${PAGE_TOOL_LIMITS.argumentsBytes}.`);
  }
  if (Buffer.byteLength(schemaText, 'utf8') > PAGE_TOOL_LIMITS.schemaBytes) {
    throw orielError('unsupported', `The page's input schema for ${JSON.stringify(tool)} is over ${PAGE_TOOL_LIMITS.schemaBytes} bytes, so Oriel cannot check arguments against it; the operation cannot be called.`);
  }
  const entry = entryFor(schemaText);
  if (!entry.validate) {
    throw orielError('unsupported', `The page's input schema for ${JSON.stringify(tool)} cannot be used to check arguments (${entry.problem}); the operation cannot be called.`, {
      next: 'use snapshot, click and type instead',
    });
  }
  if (entry.validate(args)) return;
  const problems = (entry.validate.errors ?? []).slice(0, 5).map(describe);
  throw orielError('invalid_argument', `The arguments do not match the input schema the page gave for ${JSON.stringify(tool)}: ${problems.join('; ')}. The page was not called.`, {
    next: 'list_tab_operations to read the schema, then call again',
  });
}
