// Snapshot tree types: what the content script's walker builds and shared/snapshot/render.ts turns into lines.
// Counterparts: extension/content/snapshot/walk.ts (producer), extension/content/snapshot/emit.ts (lines),
// extension/background/snapshot.ts (stitches frames, filters, pages).

/**
 * One node of the outline. `role: "text"` is a run of visible text (its text in `name`); `role: "iframe"` with
 * `frame` is a placeholder for a child frame, whose lines the background puts under the iframe's line.
 */
export interface SnapNode {
  role: string;
  /** Accessible name (or the text of a text node), whitespace-collapsed, already capped. */
  name?: string;
  /** Current value of a form control, already capped and redacted. */
  value?: string;
  /** Accessible description (https://www.w3.org/TR/accname-1.2/#mapping_additional_nd_description), capped. */
  description?: string;
  /** Link target: same-origin links as path, others absolute. */
  url?: string;
  /** States and properties shown in brackets: `checked`, `disabled`, `level=2`, `covered`, `partial=20/1000` … */
  states?: string[];
  /** Element handle for an element an agent can act on or read. */
  handle?: string;
  children?: SnapNode[];
  /** iframe placeholder: which frame to stitch here (a frameId, or a token mapped by the background). */
  frame?: number | string;
  /** Set on elements an agent can act on (for `interactive_only` and the per-element measurements). */
  act?: 1;
}

/** A whole walk of one frame at once (benchmarks and tests; snapshots read frames line by line). */
export interface FrameTree {
  document: string;
  url: string;
  title: string;
  nodes: SnapNode[];
  /** DOM nodes (elements and text nodes) the walker looked at. */
  visited: number;
  /** Nodes dropped because the frame hit the per-frame node limit. */
  dropped: number;
  /** Milliseconds the walk took inside the page (for benchmarks). */
  ms?: number;
}

/** Internal flags the walker reads; built from public args and the user's settings in one place (background). */
export interface WalkFlags {
  /** CSS selectors whose subtrees are redacted entirely (user setting). */
  redactSelectors: string[];
  /** Maximum characters of a form value shown (user setting). */
  valueLimit: number;
  /** Maximum characters of a name or text run. */
  nameLimit: number;
  textLimit: number;
  /** Node limit per frame. */
  maxNodes: number;
  /** Depth limit: deeper nodes are lifted to this depth, never dropped. */
  maxDepth: number;
  /** Handle of the subtree root to walk, if any. */
  root?: string;
  /** Query parameters whose values are scrubbed from link URLs (secret fields this tab's GET forms submitted). */
  urlParams?: string[];
  /** This whole frame sits outside an open modal of an ancestor frame: every control in it is inert. */
  inert?: boolean;
  /** Usability states of the iframe that shows this frame (`clipped`, `offscreen` …), given to every control in it. */
  inherit?: string[];
  /** What each line carries for the background's filters: its role, and the text a `query` is matched against. */
  lineRoles?: boolean;
  lineSearch?: boolean;
  /**
   * Read every element afresh, reusing nothing from earlier snapshots (no kept readings, no kept hit tests). Private:
   * set only by the extension's own diagnostics (docs/architecture.md, "Warm snapshots"), never by an agent.
   */
  fresh?: boolean;
}

/** Roles whose accessible name comes from their content (https://www.w3.org/TR/wai-aria-1.2/#namefromcontent). */
export const NAME_FROM_CONTENT = new Set([
  'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem', 'clickable',
  'summary', 'caption', 'legend', 'term',
]);

/** Roles an agent acts on. `clickable` is Oriel's role for elements that act on click without an ARIA role. */
export const INTERACTIVE_ROLES = new Set([
  'button', 'checkbox', 'combobox', 'link', 'listbox', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option',
  'radio', 'scrollbar', 'searchbox', 'slider', 'spinbutton', 'switch', 'tab', 'textbox', 'treeitem', 'gridcell',
  'clickable', 'summary',
]);
