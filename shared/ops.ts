// Page operations: the one map of every operation a call can carry (hub → background → content script), with its
// argument and result schemas, the capability it needs and where it runs. The MCP tools in broker/mcp/tools build on
// the public ones; the background and the content script validate each call once on arrival (shared/call.ts).
import { z } from 'zod';
import { LONGEST_CALL_MS, MAX_TIMEOUT_MS } from './time-limits.js';
import { BRIDGE_LIMITS, jsonBytes } from './bridge.js';
import { PAGE_TOOL_LIMITS, PageToolNameSchema, PageToolProviderSchema, PageToolSchema } from './page-tools.js';
import { LinesLostSchema, LinesReplySchema } from './snapshot/reading.js';
import { DIALOG_POLICIES, DialogArgs, DialogResult, HandleSchema, TargetArgs } from './act.js';
import { DragArgs, DragResult, HoverArgs, HoverResult, PressKeyArgs, PressKeyResult, ScrollArgs, ScrollResult, SelectOptionsArgs, SelectOptionsResult, UploadArgs, UploadResult } from './input-ops.js';

export { HandleSchema, TargetArgs };

/**
 * What an operation needs on the origin of the frame it touches (docs/architecture.md, "Consent"): `read` looks,
 * `act` changes the page as a person's input would, `exec` runs code the agent or the page supplies. `none` is for
 * the private operations Oriel itself sends.
 */
export const CAPABILITIES = ['none', 'read', 'act', 'exec'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export const CapabilitySchema = z.enum(CAPABILITIES);

/**
 * Snapshot arguments (docs/snapshot-format.md). Limits in characters. Descriptions here are what tools/list shows on
 * every request: a few words each, defaults as JSON Schema `default` annotations (docs/tools.md has the details).
 */
export const SnapshotArgs = z.object({
  root: HandleSchema.optional(),
  query: z.string().max(200).optional(),
  roles: z.array(z.string().max(40)).max(40).optional(),
  interactive_only: z.boolean().optional(),
  max_chars: z.number().int().min(500).max(200_000).optional().meta({ default: 24_000 }),
  cursor: z.string().max(100).optional(),
  since: z
    .string()
    .regex(/^s[a-z0-9]{4,12}$/, 'not a snapshot id (snapshot ids look like "s4k9x2ab"; take them from a snapshot\'s header line)')
    .optional(),
});
export type SnapshotArgs = z.infer<typeof SnapshotArgs>;

/** What a snapshot reports about how much of the page it covered. Counts are of DOM nodes / outline lines. */
export const CoverageSchema = z.object({
  visited: z.number().int(),
  shown: z.number().int(),
  omitted: z.number().int(),
  truncated: z.boolean(),
  /** Whether the whole page (every frame) has been read; when not, `omitted` counts only what is known to follow. */
  read_all: z.boolean(),
});
export type Coverage = z.infer<typeof CoverageSchema>;

/** How a `since` snapshot answered: a diff, or the whole outline (and why). */
export const SnapshotChangesSchema = z.object({
  since: z.string(),
  shown_as: z.enum(['diff', 'outline']),
  changed: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  reason: z.string().optional(),
});

export const SnapshotResult = z.object({
  /** This snapshot's id, for a later `since`. */
  snapshot: z.string(),
  document: z.string(),
  url: z.string(),
  title: z.string(),
  /** Present while the top document is still loading (its `document.readyState`): the outline may be incomplete. */
  loading: z.enum(['loading', 'interactive']).optional(),
  text: z.string(),
  coverage: CoverageSchema,
  cursor: z.string().optional(),
  changes: SnapshotChangesSchema.optional(),
  /** Where this call's time went, in ms: in the frames' content scripts, and in the browser altogether (benchmarks). */
  timing: z.object({ content_ms: z.number(), browser_ms: z.number() }).optional(),
});
export type SnapshotResult = z.infer<typeof SnapshotResult>;

/**
 * The user's redaction policy from the options page. The background attaches it to every content action as
 * `redaction` after validating the agent's arguments, so an agent can neither send nor weaken it (docs/redaction.md).
 */
export const RedactionPolicy = z.object({
  selectors: z.array(z.string().max(1000)).max(200),
  value_limit: z.number().int().min(0).max(100_000),
  /** Names of secret fields this tab's GET forms submitted: their values are scrubbed from URLs (shared/url-redaction.ts). */
  url_params: z.array(z.string().max(200)).max(200).optional(),
});
export type RedactionPolicy = z.infer<typeof RedactionPolicy>;

/** Mouse buttons a click can press (https://w3c.github.io/uievents/#dom-mouseevent-button: left 0, middle 1, right 2). */
export const MOUSE_BUTTONS = ['left', 'middle', 'right'] as const;
/** Keys a pointer action can hold, by their `KeyboardEvent.key` names (https://w3c.github.io/uievents-key/#keys-modifier). */
export const POINTER_MODIFIERS = ['Alt', 'Control', 'Meta', 'Shift'] as const;
/** An offset inside the target's border box, in CSS pixels from its top-left corner. */
const Offset = z.number().finite().min(0).max(100_000);

export const ClickArgs = TargetArgs.extend({
  timeout_ms: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional().meta({ default: 5_000 }),
  button: z.enum(MOUSE_BUTTONS).optional().meta({ default: 'left' }),
  count: z.number().int().min(1).max(3).optional().meta({ default: 1 }),
  modifiers: z.array(z.enum(POINTER_MODIFIERS)).max(4).optional(),
  x: Offset.optional(),
  y: Offset.optional(),
  ...DialogArgs,
});
export type ClickArgs = z.infer<typeof ClickArgs>;

export const ClickResult = z.object({
  handle: z.string().optional(),
  dispatched: z.boolean(),
  trusted: z.boolean(),
  /** Why the input was not trusted although the person turned trusted input on (docs/architecture.md, "Input"). */
  note: z.string().optional(),
  navigation_started: z.boolean(),
  dom_changed: z.boolean(),
  /**
   * A link a person's click of this kind opens in a new tab or window (middle, Control or Meta, Shift), which
   * Oriel's own events do not open: the page did not cancel the click, and the current tab stayed.
   */
  new_tab_url: z.string().optional(),
  /** The session of the tab Oriel opened for that link, when the person lets opened tabs be shared. */
  new_tab_session: z.string().optional(),
  /**
   * Tabs and windows the page opened while the click ran (`window.open`, a link with a target, or the browser's own
   * new tab for trusted input), in the order they opened: the address asked for (its origin alone, `withheld`, where
   * agents may not read), `window` when it is a window of its own, and its `session` when it is shared.
   */
  opened_tabs: z.array(z.object({ url: z.string(), withheld: z.literal(true).optional(), window: z.literal(true).optional(), session: z.string().optional() })).max(20).optional(),
  ...DialogResult,
});
export type ClickResult = z.infer<typeof ClickResult>;

/**
 * Control characters (C0, DEL) or a lone UTF-16 surrogate: text a URL parser silently strips or replaces with U+FFFD
 * (https://url.spec.whatwg.org/#concept-basic-url-parser), so `navigate` would load another address than the one given.
 */
const MANGLED_URL = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why `url` is not an address navigate takes as written, or undefined when it is: an absolute URL (a scheme, then
 * `:`, https://url.spec.whatwg.org/#absolute-url-with-fragment-string), or a relative reference that plainly stays on the
 * current site — a path from the root (`/cart`, also scheme-relative `//host/…`), a query (`?q=x`), a fragment (`#top`)
 * or a dot path (`./a`, `../a`). Anything else (`example.com`, `example.com/a`, `localhost:8080`, `not a url`) would
 * resolve as a path below the current page (https://url.spec.whatwg.org/#path-relative-url-string), which an agent
 * writing a host means far more often than a file next to the page, so it is refused with the absolute form to give
 * instead (a file next to the page is `./file.html`).
 */
export function navigateUrlProblem(url: string): string | undefined {
  const u = url.trim();
  if (/^[/?#]/.test(u) || /^\.\.?(\/|$)/.test(u)) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):(.*)$/is.exec(u);
  // `example.com:8080…` and `localhost:3000` parse with the host as their scheme: a host all the same
  // (`javascript:1` stays a scheme).
  const hostAndPort = scheme && (scheme[1]!.includes('.') || scheme[1]!.toLowerCase() === 'localhost') && /^\d+(?:[/?#]|$)/.test(scheme[2]!);
  if (scheme && !hostAndPort) return undefined;
  const host = /^[^\s/?#]+/.exec(u)?.[0] ?? '';
  const example = /^[^\s]+$/.test(u) && /[.:]/.test(host) ? `https://${u}` : 'https://example.com/';
  return `"${u.slice(0, 100)}" is neither an absolute URL nor a path on this site (it would load as a path below the current page); give an absolute http(s) URL such as ${example.slice(0, 120)}, or a path on this site starting with "/" or "./"`;
}

export const NavigateArgs = z.object({
  url: z
    .string()
    .max(8192)
    .refine((u) => !MANGLED_URL.test(u), 'the URL holds control characters or a lone surrogate; give the address as text a browser shows')
    .superRefine((u, ctx) => {
      const problem = navigateUrlProblem(u);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  action: z.enum(['back', 'forward', 'reload', 'close']).optional(),
  wait_until: z.enum(['load', 'domcontentloaded', 'none']).optional().meta({ default: 'load' }),
  timeout_ms: z.number().int().min(100).max(MAX_TIMEOUT_MS).optional().meta({ default: 30_000 }),
  ...DialogArgs,
});
export type NavigateArgs = z.infer<typeof NavigateArgs>;

export const NavigateResult = z.object({
  document: z.string().optional(),
  url: z.string(),
  title: z.string(),
  /** True when nothing grants read on the origin the tab landed on: `title` is empty and `url` is that origin alone. */
  withheld: z.boolean().optional(),
  /** True when the page asked before leaving and the answer was to stay: the tab still shows `url`, unchanged. */
  stayed: z.boolean().optional(),
  /** True for `action: "close"` that closed the tab (its session ends); `url` and `title` are the page it showed. */
  closed: z.boolean().optional(),
  ...DialogResult,
});
export type NavigateResult = z.infer<typeof NavigateResult>;

/** `type`: fill an input, textarea, contenteditable or select. */
export const TypeArgs = TargetArgs.extend({
  text: z.string().max(100_000),
  clear: z.boolean().optional().meta({ default: true }),
  submit: z.boolean().optional(),
  timeout_ms: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional().meta({ default: 5_000 }),
  ...DialogArgs,
});
export type TypeArgs = z.infer<typeof TypeArgs>;

export const TypeResult = z.object({
  handle: z.string(),
  /** What the field holds afterwards (omitted for redacted fields). */
  value: z.string().optional(),
  redacted: z.boolean().optional(),
  submitted: z.boolean(),
  /** The element with focus afterwards, when typing moved it elsewhere (fields that advance as they fill). */
  focused: z.string().optional(),
  /** How many typed characters went to other elements than the field because focus moved on while typing (omitted when none). */
  elsewhere: z.number().int().min(1).optional(),
  trusted: z.boolean(),
  /** Why the input was not trusted although the person turned trusted input on (docs/architecture.md, "Input"). */
  note: z.string().optional(),
  navigation_started: z.boolean(),
  dom_changed: z.boolean(),
  ...DialogResult,
});
export type TypeResult = z.infer<typeof TypeResult>;

/** `wait_for`: a handle, selector or text reaching a state. */
export const WaitForArgs = TargetArgs.extend({
  text: z.string().min(1).max(500).optional(),
  state: z.enum(['visible', 'hidden', 'attached', 'detached']).optional().meta({ default: 'visible' }),
  timeout_ms: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional().meta({ default: 10_000 }),
});
export type WaitForArgs = z.infer<typeof WaitForArgs>;

export const WaitForResult = z.object({
  state: z.enum(['visible', 'hidden', 'attached', 'detached']),
  /** Handle of what was found (absent when it is gone). */
  handle: z.string().optional(),
  elapsed_ms: z.number(),
});
export type WaitForResult = z.infer<typeof WaitForResult>;

/** `extract`: one value from one element. */
export const ExtractArgs = TargetArgs.extend({
  what: z.enum(['text', 'value', 'attribute', 'property']).optional().meta({ default: 'text' }),
  name: z.string().min(1).max(200).optional(),
  max_chars: z.number().int().min(1).max(100_000).optional().meta({ default: 10_000 }),
});
export type ExtractArgs = z.infer<typeof ExtractArgs>;

export const ExtractResult = z.object({
  handle: z.string(),
  value: z.unknown(),
  truncated: z.boolean(),
});
export type ExtractResult = z.infer<typeof ExtractResult>;

/** `extract_rows`: a list or table as records. */
export const ExtractRowsArgs = z.object({
  handle: HandleSchema.optional(),
  selector: z.string().max(1000).optional(),
  columns: z.record(z.string().max(100), z.string().max(500)).optional(),
  max_rows: z.number().int().min(1).max(5000).optional().meta({ default: 100 }),
  cursor: z.string().max(100).optional(),
  link_urls: z.boolean().optional(),
});
export type ExtractRowsArgs = z.infer<typeof ExtractRowsArgs>;

export const ExtractRowsResult = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), z.string().nullable())),
  /** Rows present in the page (all pages of this call's cursor together). */
  total: z.number().int(),
  next_cursor: z.string().optional(),
  truncated: z.boolean(),
  /** False when the rows present are only a window of a longer list or grid (`set_size`, `window`): scroll for more. */
  complete: z.boolean(),
  /** The size of the whole list or grid the page says the rows belong to (-1: unknown, but larger). */
  set_size: z.number().int().optional(),
  /** Positions (1-based) of the first and last rows present within the whole list. */
  window: z.object({ first: z.number().int(), last: z.number().int() }).optional(),
  /** Rows (indexes into `rows`) whose cells in `columns` were filled by a cell spanning from another row or column. */
  spanned: z.array(z.object({ row: z.number().int(), columns: z.array(z.string()) })).optional(),
});
export type ExtractRowsResult = z.infer<typeof ExtractRowsResult>;

/** `evaluate`: one expression in the page's main world. */
export const EvaluateArgs = z.object({
  expression: z.string().min(1).max(100_000),
  max_chars: z.number().int().min(100).max(200_000).optional().meta({ default: 20_000 }),
  timeout_ms: z.number().int().min(100).max(MAX_TIMEOUT_MS).optional().meta({ default: 10_000 }),
});
export type EvaluateArgs = z.infer<typeof EvaluateArgs>;

export const EvaluateResult = z.object({
  value: z.unknown(),
  type: z.string(),
  truncated: z.boolean(),
  /** When `truncated`: the length of the whole value's JSON text, characters (`value` holds its first `max_chars`). */
  chars: z.number().int().optional(),
  via: z.enum(['userScripts', 'scripting']),
});
export type EvaluateResult = z.infer<typeof EvaluateResult>;

/** `screenshot`: the visible tab, or one element. */
export const ScreenshotArgs = TargetArgs.extend({
  format: z.enum(['jpeg', 'png']).optional().meta({ default: 'jpeg' }),
  quality: z.number().int().min(10).max(100).optional().meta({ default: 70 }),
  max_width: z.number().int().min(100).max(2000).optional().meta({ default: 1280 }),
});
export type ScreenshotArgs = z.infer<typeof ScreenshotArgs>;

export const ScreenshotResult = z.object({
  data: z.string(),
  mime_type: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
  handle: z.string().optional(),
});
export type ScreenshotResult = z.infer<typeof ScreenshotResult>;

/** `send_message` (docs/bridge.md): one message from an agent to the page, as the page's `oriel-bridge-message` event. */
export const SendMessageArgs = z.object({
  data: z
    .unknown()
    .refine((v) => v !== undefined, 'give the message as data')
    .refine((v) => jsonBytes(JSON.stringify(v) ?? 'null') <= BRIDGE_LIMITS.messageBytes, `the message is over ${BRIDGE_LIMITS.messageBytes} bytes as JSON`)
    .describe(`The message: any JSON value, at most ${BRIDGE_LIMITS.messageBytes / 1024} KiB as JSON. The page receives it as event.detail.data of its "oriel-bridge-message" event.`),
});
export type SendMessageArgs = z.infer<typeof SendMessageArgs>;

export const SendMessageResult = z.object({
  /** The document that received it. */
  document: z.string(),
  delivered: z.boolean(),
});
export type SendMessageResult = z.infer<typeof SendMessageResult>;

/** `list_tab_operations`: the tools the top document registered (WebMCP), with their input schemas. */
export const ListTabOperationsArgs = z.object({});

export const ListTabOperationsResult = z.object({
  document: z.string(),
  url: z.string(),
  /** Whose page API the tools were registered with: the browser's own WebMCP, or the one Oriel provides. */
  provider: PageToolProviderSchema,
  operations: z.array(PageToolSchema),
  /** Tools left out: over the count bound, or with a name an agent could not pass back. */
  skipped: z.number().int(),
  /**
   * Set when Oriel's page API reached the document after the page's own scripts, or not at all: tools the page tried to
   * register before then are missing (docs/architecture.md, "What a page can see").
   */
  note: z.string().optional(),
});
export type ListTabOperationsResult = z.infer<typeof ListTabOperationsResult>;

/**
 * `call_tab_operation` as the page receives it: the broker has validated `arguments` against the schema the listing
 * showed (`schema`, its JSON text) for the document it listed (`document`); the page refuses when either changed since.
 */
export const CallTabOperationArgs = z.object({
  name: PageToolNameSchema,
  arguments: z.record(z.string(), z.unknown()),
  document: z.string().max(32),
  schema: z.string().max(PAGE_TOOL_LIMITS.schemaBytes),
  timeout_ms: z.number().int().min(100).max(MAX_TIMEOUT_MS).optional(),
});
export type CallTabOperationArgs = z.infer<typeof CallTabOperationArgs>;

export const CallTabOperationResult = z.object({
  name: z.string(),
  document: z.string(),
  /** What the page's tool returned (JSON), when it fits the bound; page content, untrusted. */
  result: z.unknown().optional(),
  /** The start of a result over the bound, as JSON text. */
  preview: z.string().optional(),
  truncated: z.boolean(),
  /** Length of the whole result as JSON text, characters. */
  chars: z.number().int(),
});
export type CallTabOperationResult = z.infer<typeof CallTabOperationResult>;

// ---- Private operations: sent by the background to content scripts, never by an agent. ----

/**
 * `document`: which document a frame shows now, and its origin as the document itself has it (`"null"` for opaque
 * origins: sandboxed frames, data: URLs, and file: pages in some browsers), which its URL alone cannot tell.
 */
export const DocumentArgs = z.object({}).strict();
/**
 * `dialogs` (private, top frame): `policy` tells the document the tab's standing answer to dialogs (shared/act.ts);
 * `leaving` asks whether the page would ask before being left (`probe`), and with `accept` also lets it go without
 * asking for the next `accept_ms` milliseconds (extension/content/dialogs.ts).
 */
export const DialogsArgs = z
  .object({
    policy: z.enum(DIALOG_POLICIES).optional(),
    leaving: z.enum(['probe', 'accept']).optional(),
    accept_ms: z.number().int().min(0).max(130_000).optional(),
  })
  .strict();
/** Whether the page asked to stay (its beforeunload handlers cancelled the event or set a return value). */
export const DialogsResult = z.object({ asks: z.boolean() });
/** `document.readyState` (HTML, "current document readiness"): "loading" while the parser runs, "interactive" until the load event. */
export const ReadyState = z.enum(['loading', 'interactive', 'complete']);
export type ReadyState = z.infer<typeof ReadyState>;
export const DocumentResult = z.object({ document: z.string(), url: z.string(), title: z.string(), origin: z.string(), ready_state: ReadyState });
export type DocumentResult = z.infer<typeof DocumentResult>;

/** `cancel`: abort the content side of call `call` (best effort). */
export const CancelArgs = z.object({ call: z.number().int() }).strict();

/**
 * `lifeline`: the top frame of a shared tab holds (or drops) a port to the background, so that a background the browser
 * stopped (service worker) or suspended (event page) is started again by the port's reconnection.
 */
export const LifelineArgs = z.object({ hold: z.boolean() }).strict();

/** Name of the lifeline port (runtime.connect from a content script to the background). */
export const LIFELINE_PORT = 'oriel-lifeline';

/** `element_rect`: scroll one element into view and report its box in viewport CSS pixels (screenshot crops by it). */
export const ElementRectArgs = TargetArgs;
export const ElementRectResult = z.object({
  handle: z.string(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  viewport: z.object({ width: z.number(), height: z.number() }),
});


/** A box in viewport CSS pixels. */
const BoxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
/** `redaction_boxes`: where this frame paints redacted content, and where its iframes are (screenshot masks by it). */
export const RedactionBoxesArgs = z.object({ expect: z.array(z.string().max(64)).max(1000).optional(), settle: z.boolean().optional() });
export const RedactionBoxesResult = z.object({
  viewport: z.object({ width: z.number(), height: z.number() }),
  boxes: z.array(BoxSchema),
  frames: z.array(BoxSchema.extend({ ref: z.union([z.number(), z.string(), z.null()]) })),
});
export type RedactionBoxesResult = z.infer<typeof RedactionBoxesResult>;

/**
 * `snapshot.lines`: the next outline lines of this frame, `want` characters or more (extension/background/snapshot.ts
 * stitches frames): a new reading under `flags`, or more of the reading the frame named before.
 */
export const SnapshotLinesArgs = z.object({
  flags: z.record(z.string(), z.unknown()).optional(),
  reading: z.string().max(32).optional(),
  want: z.number().int().min(1).max(100_000_000),
  expect: z.array(z.string().max(64)).max(1000).optional(),
});
/** `snapshot.hello`: post a token to the parent window so the parent can tell which iframe shows this frame. */
export const SnapshotHelloArgs = z.object({ token: z.string().max(64) });
/** `snapshot.resolve`: what a handle names in this document now (diagnostics and tests). */
export const SnapshotResolveArgs = z.object({ handle: z.string().max(64) });

/** Where an operation runs: in the background (extension APIs) or in the content script of a frame. */
export type OpSite = 'background' | 'content';

/**
 * How the background finds the frames a call touches (extension/background/pipeline/target.ts):
 * - `top`: the tab's top frame;
 * - `handle`: the frame whose document issued the handle the call names, else the top frame;
 * - `every_frame`: every frame of the tab, starting from the handle's frame when it names one;
 * - `handle_or_every_frame`: the handle's frame when the call names a handle, else every frame.
 */
export type OpTarget = 'top' | 'handle' | 'every_frame' | 'handle_or_every_frame';

/**
 * An operation's time budget. The call's whole budget is `(timeout_ms ?? default_ms) × waits + slack_ms`, at most
 * `max_ms`: the broker turns it into the absolute deadline once; the work (the content script's waiting, the
 * snapshot's reading) ends `slack_ms` before that deadline, so its answer still travels back in time.
 */
export interface OpBudget {
  /** How long the operation works when its arguments give no `timeout_ms` (or it has none), ms. */
  readonly default_ms: number;
  /** Longest whole budget (work and slack), ms. */
  readonly max_ms: number;
  /** Time kept after the work for the answer to reach the client, ms. */
  readonly slack_ms: number;
  /** How many times the operation may wait up to its `timeout_ms` (drag: for the drop target, then the source). */
  readonly waits?: number;
}

/**
 * What exec consent shows the person and binds an "exact code" grant to: the code an operation runs, or the page
 * operation it calls with its arguments (docs/architecture.md, "Consent").
 */
export type ExecShown = { code: string } | { operation: string; arguments: unknown };

/**
 * One entry of {@link OPS}: everything generic code needs to know about an operation. Functions receive the
 * operation's own arguments, already validated against `args`.
 */
export interface OpSpec {
  args: z.ZodType;
  result: z.ZodType;
  capability: Capability;
  site: OpSite;
  /** Public operations are what tools call; private ones only the background sends. */
  public: boolean;
  /** How its target frames are found (public operations). */
  target?: OpTarget;
  /** The argument that names its element (and so its document and frame); `handle` when not said. */
  handle_arg?: 'handle' | 'root';
  /** Its budget (public operations). */
  budget?: OpBudget;
  /**
   * It takes the top frame to another page on purpose (navigate): consent judges the destination alone, and a
   * redirect the guard stops is the operation's failure rather than a side effect.
   */
  navigates?: true;
  /** With these arguments it answers before its navigation commits, so the tab stays guarded after it returns. */
  answers_before_commit?: (args: never) => boolean;
  /**
   * With these arguments it activates its element as a click or an Enter does, which may follow a link or submit a
   * form: consent judges that destination before the call acts, read by the content script right before it acts
   * (shared/call.ts `leads_from`; docs/architecture.md, "Consent").
   */
  activates?: (args: never) => 'click' | 'enter' | undefined;
  /** What exec consent shows for it (exec operations). */
  exec?: (args: never) => ExecShown;
  /** A call of it still in flight when the browser disconnects completes with the tab's next document. */
  survives_disconnect?: true;
  /** It answers the JavaScript dialogs (alert, confirm, prompt) its action opens (extension/content/dialogs.ts). */
  arms_dialogs?: true;
  /**
   * Its result carries what it changed in the page since the caller's last view of the tab (`changes`:
   * extension/background/action-changes.ts; docs/tools.md, "Results").
   */
  reports_changes?: true;
  /** Its result is the caller's new view of the tab, the base the next action's `changes` are compared with. */
  sets_view?: true;
  /**
   * Its result may name a link it could not open in a new tab (`new_tab_url`): the background opens it. The background
   * also names in it the tabs and windows the page opened while it ran (`opened_tabs`, extension/background/opened.ts).
   */
  opens_new_tab?: true;
  /** Its pointer and key input may go through the browser's trusted input, when the person turned it on (shared/trusted-input.ts). */
  trusted_input?: true;
  /** On a tab showing a PDF in the browser's viewer it reads the PDF instead (extension/background/pdf-tab.ts). */
  reads_pdf?: true;
  /** Its result describes the frame's document with its origin, which the background records. */
  describes_document?: true;
  /**
   * Read in every frame, it succeeds with these arguments only when every frame does (waiting for something to go:
   * a frame that never had it succeeds at once); otherwise the first frame to succeed answers.
   */
  frames_agree?: (args: never) => boolean;
}

/** The budget of a content action with `timeout_ms`: what it waits by default, up to `max_ms` in all, 5 s to answer. */
const ACTION_BUDGET = { default_ms: 5_000, max_ms: LONGEST_CALL_MS, slack_ms: 5_000 } as const satisfies OpBudget;

/**
 * Every page operation: name → argument and result schema, capability, site, target, budget and what generic code
 * does differently for it. The content script's handler table and the background's must cover exactly the operations
 * listed for their site (checked by unit tests). Adding an operation: docs/architecture.md, "Adding a tool".
 */
export const OPS = {
  snapshot: {
    sets_view: true,
    args: SnapshotArgs,
    result: SnapshotResult,
    capability: 'read',
    site: 'background',
    public: true,
    target: 'every_frame',
    handle_arg: 'root',
    budget: { default_ms: 28_500, max_ms: LONGEST_CALL_MS, slack_ms: 1_500 },
    reads_pdf: true,
  },
  click: {
    reports_changes: true,
    args: ClickArgs,
    result: ClickResult,
    capability: 'act',
    site: 'content',
    public: true,
    target: 'handle',
    budget: ACTION_BUDGET,
    activates: () => 'click',
    trusted_input: true,
    arms_dialogs: true,
    opens_new_tab: true,
  },
  navigate: {
    args: NavigateArgs,
    result: NavigateResult,
    capability: 'act',
    site: 'background',
    public: true,
    target: 'top',
    budget: { default_ms: 30_000, max_ms: LONGEST_CALL_MS, slack_ms: 2_000 },
    navigates: true,
    answers_before_commit: (args: NavigateArgs) => args.wait_until === 'none',
    survives_disconnect: true,
  },
  type: {
    reports_changes: true,
    args: TypeArgs,
    result: TypeResult,
    capability: 'act',
    site: 'content',
    public: true,
    target: 'handle',
    budget: ACTION_BUDGET,
    activates: (args: TypeArgs) => (args.submit === true ? 'enter' : undefined),
    trusted_input: true,
    arms_dialogs: true,
  },
  select_options: {
    reports_changes: true,
    args: SelectOptionsArgs,
    result: SelectOptionsResult,
    capability: 'act',
    site: 'content',
    public: true,
    target: 'handle',
    budget: ACTION_BUDGET,
    arms_dialogs: true,
  },
  press_key: {
    reports_changes: true,
    args: PressKeyArgs,
    result: PressKeyResult,
    capability: 'act',
    site: 'content',
    public: true,
    target: 'handle',
    budget: ACTION_BUDGET,
    // Enter in a field may submit its form; Enter sent to the page as a whole activates nothing known in advance.
    activates: (args: PressKeyArgs) => (args.key === 'Enter' && (args.handle !== undefined || args.selector !== undefined) ? 'enter' : undefined),
    trusted_input: true,
    arms_dialogs: true,
  },
  hover: {
    reports_changes: true,
    args: HoverArgs,
    result: HoverResult,
    capability: 'act',
    site: 'content',
    public: true,
    target: 'handle',
    budget: ACTION_BUDGET,
    trusted_input: true,
    arms_dialogs: true,
  },
  scroll: {
    reports_changes: true,
    args: ScrollArgs,
    result: ScrollResult,
    capability: 'act',
    site: 'content',
    public: true,
    target: 'handle',
    budget: { ...ACTION_BUDGET, default_ms: 10_000 },
    arms_dialogs: true,
  },
  drag: {
    reports_changes: true,
    args: DragArgs,
    result: DragResult,
    capability: 'act',
    site: 'content',
    public: true,
    target: 'handle',
    budget: { ...ACTION_BUDGET, waits: 2 },
    arms_dialogs: true,
  },
  upload: {
    reports_changes: true,
    args: UploadArgs,
    result: UploadResult,
    capability: 'act',
    site: 'content',
    public: true,
    target: 'handle',
    budget: ACTION_BUDGET,
    arms_dialogs: true,
  },
  wait_for: {
    reports_changes: true,
    args: WaitForArgs,
    result: WaitForResult,
    capability: 'read',
    site: 'content',
    public: true,
    target: 'handle_or_every_frame',
    budget: { default_ms: 10_000, max_ms: LONGEST_CALL_MS, slack_ms: 5_000 },
    frames_agree: (args: WaitForArgs) => args.state === 'hidden' || args.state === 'detached',
  },
  extract: {
    args: ExtractArgs,
    result: ExtractResult,
    capability: 'read',
    site: 'content',
    public: true,
    target: 'handle',
    budget: { default_ms: 10_000, max_ms: 30_000, slack_ms: 0 },
  },
  extract_rows: {
    args: ExtractRowsArgs,
    result: ExtractRowsResult,
    capability: 'read',
    site: 'content',
    public: true,
    target: 'handle',
    budget: { default_ms: 15_000, max_ms: 30_000, slack_ms: 0 },
  },
  evaluate: {
    args: EvaluateArgs,
    result: EvaluateResult,
    capability: 'exec',
    site: 'background',
    public: true,
    target: 'top',
    budget: { default_ms: 10_000, max_ms: LONGEST_CALL_MS, slack_ms: 5_000 },
    exec: (args: EvaluateArgs) => ({ code: args.expression }),
  },
  screenshot: {
    args: ScreenshotArgs,
    result: ScreenshotResult,
    capability: 'read',
    site: 'background',
    public: true,
    target: 'handle',
    budget: { default_ms: 15_000, max_ms: 30_000, slack_ms: 0 },
  },
  send_message: {
    reports_changes: true,
    args: SendMessageArgs,
    result: SendMessageResult,
    capability: 'act',
    site: 'content',
    public: true,
    target: 'top',
    budget: { default_ms: 10_000, max_ms: 30_000, slack_ms: 0 },
    arms_dialogs: true,
  },
  list_tab_operations: {
    args: ListTabOperationsArgs,
    result: ListTabOperationsResult,
    capability: 'read',
    site: 'content',
    public: true,
    target: 'top',
    budget: { default_ms: 10_000, max_ms: 30_000, slack_ms: 0 },
  },
  call_tab_operation: {
    reports_changes: true,
    args: CallTabOperationArgs,
    result: CallTabOperationResult,
    capability: 'exec',
    site: 'content',
    public: true,
    target: 'top',
    budget: { default_ms: 30_000, max_ms: LONGEST_CALL_MS, slack_ms: 5_000 },
    exec: (args: CallTabOperationArgs) => ({ operation: args.name, arguments: args.arguments }),
  },
  document: { args: DocumentArgs, result: DocumentResult, capability: 'none', site: 'content', public: false, describes_document: true },
  cancel: { args: CancelArgs, result: z.null(), capability: 'none', site: 'content', public: false },
  lifeline: { args: LifelineArgs, result: z.null(), capability: 'none', site: 'content', public: false },
  dialogs: { args: DialogsArgs, result: DialogsResult, capability: 'none', site: 'content', public: false },
  element_rect: { args: ElementRectArgs, result: ElementRectResult, capability: 'read', site: 'content', public: false },
  redaction_boxes: { args: RedactionBoxesArgs, result: RedactionBoxesResult, capability: 'read', site: 'content', public: false },
  'snapshot.lines': { args: SnapshotLinesArgs, result: z.union([LinesReplySchema, LinesLostSchema]), capability: 'read', site: 'content', public: false },
  'snapshot.hello': { args: SnapshotHelloArgs, result: z.object({ sent: z.boolean() }), capability: 'none', site: 'content', public: false },
  'snapshot.resolve': { args: SnapshotResolveArgs, result: z.object({ status: z.string(), tag: z.string().optional() }), capability: 'none', site: 'content', public: false },
} as const satisfies Record<string, OpSpec>;

export type OpName = keyof typeof OPS;
export type OpArgs<N extends OpName> = z.infer<(typeof OPS)[N]['args']>;
export type OpResult<N extends OpName> = z.infer<(typeof OPS)[N]['result']>;

/** Names of the operations an agent's call may carry. */
export type PublicOpName = { [N in OpName]: (typeof OPS)[N]['public'] extends true ? N : never }[OpName];

/** Names of the operations that take the top frame to another page on purpose ({@link OpSpec.navigates}). */
export type NavigatingOpName = { [N in OpName]: (typeof OPS)[N] extends { navigates: true } ? N : never }[OpName];

/** Names of the operations of one site. */
export type SiteOpName<S extends OpSite> = { [N in OpName]: (typeof OPS)[N]['site'] extends S ? N : never }[OpName];

/** Whether `op` takes the top frame to another page on purpose ({@link OpSpec.navigates}). */
export function isNavigatingOp(op: OpName): op is NavigatingOpName {
  return specOf(op).navigates === true;
}

/** Whether `op` runs on `site`. */
export function isSiteOp<S extends OpSite>(op: OpName, site: S): op is SiteOpName<S> {
  return OPS[op].site === site;
}

/** The entry of `op`, seen through the general {@link OpSpec} (optional fields read as absent where not set). */
export function specOf(op: OpName): OpSpec {
  return OPS[op];
}

/**
 * The call's whole budget for `op` with arguments `args` ({@link OpBudget}): `ms`, what the broker turns into the
 * deadline, and `slack_ms`, what the work leaves free before it. Operations without a budget get 30 s and no slack.
 * `args.timeout_ms` is read when it is a number (validation has bounded it already).
 */
export function budgetOf(op: OpName, args: object): { ms: number; slack_ms: number } {
  const b = specOf(op).budget;
  if (!b) return { ms: 30_000, slack_ms: 0 };
  const given = argOf(args, 'timeout_ms');
  const work = typeof given === 'number' ? given : b.default_ms;
  return { ms: Math.min(work * (b.waits ?? 1) + b.slack_ms, b.max_ms), slack_ms: b.slack_ms };
}

/**
 * One argument of a call whose op the caller holds only as a union (generic code: the pipeline, the content entry),
 * read by name; undefined when the op has no such argument or the call left it out.
 */
export function argOf(args: object, name: string): unknown {
  return Object.hasOwn(args, name) ? (Reflect.get(args, name) as unknown) : undefined;
}

/** The handle a call of `op` names its element by (`handle`, or `root` for snapshot), if any. */
export function handleOf(op: OpName, args: object): string | undefined {
  const value = argOf(args, specOf(op).handle_arg ?? 'handle');
  return typeof value === 'string' ? value : undefined;
}

/** The element a call names by handle or by selector (the op map's target arguments), if any. */
export function elementOf(op: OpName, args: object): { handle: string } | { selector: string } | undefined {
  const handle = handleOf(op, args);
  if (handle !== undefined) return { handle };
  const selector = argOf(args, 'selector');
  return typeof selector === 'string' ? { selector } : undefined;
}

/** Whether every frame a call of `op` with `args` reads must succeed for it to succeed ({@link OpSpec.frames_agree}). */
export function framesAgree<N extends OpName>(op: N, args: OpArgs<N>): boolean {
  return specOf(op).frames_agree?.(args as never) === true;
}

/** Whether `op` is an operation an agent's call may carry. */
export function isPublicOp(op: string): op is PublicOpName {
  return isOpName(op) && OPS[op].public;
}

/** How a call of `op` with `args` activates its element ({@link OpSpec.activates}), or undefined. */
export function activationOf<N extends OpName>(op: N, args: OpArgs<N>): 'click' | 'enter' | undefined {
  return specOf(op).activates?.(args as never);
}

/** What exec consent shows for a call of `op` with `args`, or undefined for operations that run no code. */
export function execShownOf<N extends OpName>(op: N, args: OpArgs<N>): ExecShown | undefined {
  return specOf(op).exec?.(args as never);
}

/** Whether a call of `op` with `args` answers before its navigation commits ({@link OpSpec.answers_before_commit}). */
export function answersBeforeCommit<N extends OpName>(op: N, args: OpArgs<N>): boolean {
  return specOf(op).answers_before_commit?.(args as never) === true;
}

/** Whether a call of `op` (any name the hub holds) survives a browser disconnect ({@link OpSpec.survives_disconnect}). */
export function survivesDisconnect(op: string): boolean {
  return isOpName(op) && specOf(op).survives_disconnect === true;
}

/** Whether `op` is a known operation name. */
export function isOpName(op: string): op is OpName {
  return Object.hasOwn(OPS, op);
}

/**
 * Parses an operation's arguments with its schema.
 * @returns the parsed arguments, or a message naming the first problem (path and reason), bounded to 500 characters.
 */
export function parseOpArgs<N extends OpName>(op: N, raw: unknown): { ok: true; args: OpArgs<N> } | { ok: false; message: string } {
  const parsed = OPS[op].args.safeParse(raw);
  // The schema of `op` parsed them: they are `op`'s arguments (the one place the map's schema meets its type).
  if (parsed.success) return { ok: true, args: parsed.data as OpArgs<N> };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
  return { ok: false, message: `Invalid arguments for ${op}${where}: ${issue?.message ?? 'wrong shape'}.`.slice(0, 500) };
}
