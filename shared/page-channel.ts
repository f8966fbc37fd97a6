// Names and bounds the page-facing scripts share: the MAIN-world script (extension/main/) and the content script
// (extension/content/bridge.ts, page-tools.ts). Kept free of imports so the MAIN-world bundle every page loads stays
// small. The schemas built on them: shared/bridge.ts, shared/page-tools.ts.

/** `type` of the envelope a page posts to agents: `window.postMessage({ type: 'oriel-bridge', data }, location.origin)`. */
export const BRIDGE_MESSAGE_TYPE = 'oriel-bridge';

/** Name of the event an agent's message reaches the page as: a `CustomEvent` on `window` with `detail: { data }`. */
export const BRIDGE_EVENT = 'oriel-bridge-message';

/** Bounds on what a page registers as tools and what they return. Bytes are of JSON text. */
export const PAGE_TOOL_LIMITS = {
  /** Tools listed per document; more are counted as skipped. */
  tools: 64,
  titleChars: 200,
  descriptionChars: 2_000,
  /** Largest input schema; a tool with a larger one is listed without it and cannot be called. */
  schemaBytes: 16 * 1024,
  /** Largest arguments object an agent may pass. */
  argumentsBytes: 64 * 1024,
  /** Longest result returned whole, characters of JSON; a longer one comes back as a cut preview. */
  resultChars: 64 * 1024,
  /** Longest error message of a tool that threw. */
  errorChars: 500,
} as const;

// ---- The private channel between the MAIN world and the content script. ----
// Events on `window` carrying JSON text in `detail` (text crosses between worlds in every browser). The page can see and
// forge them: the content script treats everything it hears as page content, and the MAIN side only runs the page's
// own tools or dispatches the page's own event.

/** Content → MAIN: `detail` = request id; the MAIN side answers synchronously with {@link WEBMCP_TOOLS}. */
export const WEBMCP_LIST = 'oriel-webmcp-list';
/**
 * MAIN → content: `detail` = JSON `{ id, tools: [{ name, title, description, inputSchema?: JSON text, readOnly, source:
 * 'document' | 'navigator' }], navigatorLate?: true }`.
 */
export const WEBMCP_TOOLS = 'oriel-webmcp-tools';
/** Content → MAIN: `detail` = JSON `{ id, name, source: 'document' | 'navigator', input: JSON text }`. */
export const WEBMCP_CALL = 'oriel-webmcp-call';
/**
 * MAIN → content: `detail` = JSON `{ id, ok: true, result?: JSON text, chars }` or `{ id, ok: false, error }`. `result` is
 * cut at `PAGE_TOOL_LIMITS.resultChars` characters when longer; `chars` is the length of the whole text.
 */
export const WEBMCP_RESULT = 'oriel-webmcp-result';
/**
 * Content → MAIN: `detail` = JSON text of an agent's message. The MAIN side dispatches {@link BRIDGE_EVENT} and cancels
 * this event, which tells the content script (dispatchEvent returns false) that the page side is there.
 */
export const BRIDGE_DELIVER = 'oriel-bridge-deliver';

/**
 * Content → MAIN, dispatched on a custom element itself (not bubbling): "what did you set through ElementInternals?".
 * The MAIN side answers synchronously, on the same element, with {@link INTERNALS_REPLY}.
 */
export const INTERNALS_QUERY = 'oriel-internals-query';
/** MAIN → content, on the element: `detail` = JSON `{ role?, ariaLabel?, ariaChecked?, … }` (strings of at most 300 characters). */
export const INTERNALS_REPLY = 'oriel-internals-reply';
/** The ARIA properties of ElementInternals that are read (https://w3c.github.io/aria/#ARIAMixin). */
export const INTERNALS_FIELDS = [
  'role', 'ariaLabel', 'ariaChecked', 'ariaDisabled', 'ariaSelected', 'ariaExpanded', 'ariaPressed', 'ariaLevel',
  'ariaRequired', 'ariaInvalid', 'ariaReadOnly', 'ariaCurrent', 'ariaHidden', 'ariaValueNow', 'ariaValueText',
  'ariaDescription', 'ariaPlaceholder', 'ariaModal', 'ariaMultiSelectable',
] as const;

/**
 * MAIN → content, dispatched on `document` when the page-world script arrives in a document (cancelable): `detail` =
 * JSON `{ late: boolean }`, true when page scripts may have run before it. The content script cancels it when the
 * document already has the script, and the second copy then installs nothing.
 */
export const PAGE_HOOKS_HELLO = 'oriel-page-hooks';

/**
 * content → MAIN, dispatched on `document` when the content script starts listening for {@link PAGE_HOOKS_HELLO}: a
 * page-world script that arrived first (the browser runs the two registered scripts in no promised order) announces
 * itself again, with the `late` it saw when it arrived.
 */
export const PAGE_HOOKS_ASK = 'oriel-page-hooks-ask';

/**
 * Session-storage key the background sets to "1" in the frames of a tab when it shares it (and removes at unsharing):
 * the page script registered by host installs itself only where it finds it. Session storage is per tab and origin and
 * survives reloads and navigations within the origin, so it marks the tab for the documents that follow.
 */
export const SHARED_MARK = 'oriel-shared-tab';

/**
 * evaluate's runner (extension/background/ops/evaluate.ts, put into the page's world for each call) → MAIN, on
 * `window`: "which built-ins may I use?". `detail` is a fresh object of the runner's; the page script sets its `kit` to
 * its {@link EvaluateKit} at once. Both ends run in the page's world, so `detail` is that very object (no text, no
 * copy). A page sees the event, and may take the kit: its own built-ins, frozen.
 */
export const EVALUATE_KIT = 'oriel-evaluate-kit';

/** The shape of {@link EvaluateKit} this build's runner knows; it ignores a kit of another (a page script left by an older Oriel). */
export const EVALUATE_KIT_VERSION = 1;

/**
 * The page's built-ins that evaluate's runner needs to await the expression and write its value as JSON, as Oriel's
 * page script took them when it arrived — before any page script, where the browser let it (docs/architecture.md,
 * "What a page can see") — so a page that replaced them since does not change what evaluate returns. The runner
 * writes JSON itself, with none of the page's `JSON`, and takes the same built-ins as they are now where no page
 * script answers. Frozen, and so is `unbox`.
 */
export interface EvaluateKit {
  readonly version: number;
  /** `Array.isArray`. */
  readonly isArray: (value: unknown) => boolean;
  /** `Object.keys`: own enumerable string keys, in property order. */
  readonly keys: (o: object) => string[];
  /** `Object.getPrototypeOf`. */
  readonly getPrototypeOf: (o: object) => object | null;
  /** `Reflect.apply`. */
  readonly apply: (f: (...args: never[]) => unknown, self: unknown, args: readonly unknown[]) => unknown;
  /** `String.prototype.slice`, for {@link apply}. */
  readonly slice: (this: string, start?: number, end?: number) => string;
  /** `String.prototype.charCodeAt`, for {@link apply}. */
  readonly charCodeAt: (this: string, index: number) => number;
  /** `Object.prototype` and `Array.prototype`: a `toJSON` found there is the page's addition for every object or array, and is not called. */
  readonly objectPrototype: object;
  readonly arrayPrototype: object;
  /** Number, String and Boolean objects: each prototype with its own `valueOf`, what JSON writes such an object as. */
  readonly unbox: ReadonlyArray<readonly [object, (this: unknown) => unknown]>;
  /** `Promise`, `setTimeout` and `clearTimeout` (of `window`), for the expression's time limit. */
  readonly Promise: PromiseConstructor;
  readonly setTimeout: (run: () => void, ms: number) => unknown;
  readonly clearTimeout: (id: unknown) => void;
  /** `String`, to describe what the expression threw. */
  readonly String: (value: unknown) => string;
}
