// Argument and result schemas of the input operations beyond click and type — hover, press_key, scroll,
// select_options, drag, upload — registered in the op map (shared/ops.ts). Page side: extension/content/actions;
// MCP side: broker/mcp/tools/pointer.ts, keyboard.ts, input.ts, upload.ts.
import { z } from 'zod';
import { DialogArgs, DialogResult, HandleSchema, TargetArgs } from './act.js';
import { MAX_TIMEOUT_MS } from './time-limits.js';

/** How long an action waits for its target (to be visible, enabled, still, uncovered), ms. */
const timeout = () => z.number().int().min(0).max(MAX_TIMEOUT_MS).optional().meta({ default: 5_000 });

/** `hover`: move the pointer onto an element and leave it there. */
export const HoverArgs = TargetArgs.extend({ timeout_ms: timeout(), ...DialogArgs });
export type HoverArgs = z.infer<typeof HoverArgs>;

/**
 * How hover styles were made to apply: `native` (trusted input: the browser's own `:hover`), `mirrored` (the page's
 * same-origin `:hover` rules copied to an attribute Oriel sets on the hovered element and its ancestors), `none`
 * (no `:hover` rule applies to the hovered chain).
 */
export const HOVER_STYLES = ['native', 'mirrored', 'none'] as const;

export const HoverResult = z.object({
  handle: z.string(),
  trusted: z.boolean(),
  /** Why the input was not trusted although the person turned trusted input on (docs/architecture.md, "Input"). */
  note: z.string().optional(),
  hover_styles: z.enum(HOVER_STYLES),
  /** `:hover` rules mirrored (mirrored only). */
  rules: z.number().int().optional(),
  /** Stylesheets whose rules could not be read (cross-origin), so their `:hover` rules do not apply. */
  unreadable_sheets: z.number().int().optional(),
  dom_changed: z.boolean(),
  ...DialogResult,
});
export type HoverResult = z.infer<typeof HoverResult>;

/** `press_key`: one key or chord, on an element or on whatever has focus. */
export const PressKeyArgs = TargetArgs.extend({
  key: z
    .string()
    .min(1)
    .max(60),
  repeat: z.number().int().min(1).max(100).optional().meta({ default: 1 }),
  timeout_ms: timeout(),
  ...DialogArgs,
});
export type PressKeyArgs = z.infer<typeof PressKeyArgs>;

export const PressKeyResult = z.object({
  /** The element the key went to (the focused one when no target was given; absent when that was the page). */
  handle: z.string().optional(),
  key: z.string(),
  trusted: z.boolean(),
  /** Why the input was not trusted although the person turned trusted input on (docs/architecture.md, "Input"). */
  note: z.string().optional(),
  /** The page cancelled the keydown (it handled the key itself). */
  prevented: z.boolean(),
  /** What Oriel did that the browser would have done for a person (synthetic keys have no default actions). */
  default_action: z.string().optional(),
  /** The element that has focus afterwards, when it is not the body. */
  focused: z.string().optional(),
  navigation_started: z.boolean(),
  dom_changed: z.boolean(),
  ...DialogResult,
});
export type PressKeyResult = z.infer<typeof PressKeyResult>;

/** `scroll`: the page or a scroll container, by an amount, to an edge, or until some text shows. */
export const ScrollArgs = TargetArgs.extend({
  direction: z.enum(['down', 'up', 'right', 'left']).optional().meta({ default: 'down' }),
  amount: z.number().int().min(1).max(1_000_000).optional(),
  to: z.enum(['top', 'bottom', 'left', 'right']).optional(),
  until_text: z.string().min(1).max(500).optional(),
  timeout_ms: z.number().int().min(0).max(MAX_TIMEOUT_MS).optional().meta({ default: 10_000 }),
});
export type ScrollArgs = z.infer<typeof ScrollArgs>;

export const ScrollResult = z.object({
  /** The scroll container (absent: the page). */
  handle: z.string().optional(),
  x: z.number(),
  y: z.number(),
  max_x: z.number(),
  max_y: z.number(),
  /** Whether more content lies beyond each edge (a list that loads more as it is scrolled may add to it). */
  more_up: z.boolean(),
  more_down: z.boolean(),
  more_left: z.boolean(),
  more_right: z.boolean(),
  /** The element showing until_text, when found. */
  found: z.string().optional(),
  steps: z.number().int(),
});
export type ScrollResult = z.infer<typeof ScrollResult>;

/** `select_options`: choose several options of a multi-select (or clear them). */
export const SelectOptionsArgs = TargetArgs.extend({
  options: z.array(z.string().max(1000)).max(200),
  add: z.boolean().optional(),
  timeout_ms: timeout(),
  ...DialogArgs,
});
export type SelectOptionsArgs = z.infer<typeof SelectOptionsArgs>;

export const SelectOptionsResult = z.object({
  handle: z.string(),
  /** Labels of the selected options afterwards. */
  selected: z.array(z.string()),
  trusted: z.boolean(),
  dom_changed: z.boolean(),
  ...DialogResult,
});
export type SelectOptionsResult = z.infer<typeof SelectOptionsResult>;

/** `drag`: from one element to another, as HTML drag and drop or pointer-driven sorting. */
export const DragArgs = TargetArgs.extend({
  to_handle: HandleSchema.optional(),
  to_selector: z.string().max(1000).optional(),
  timeout_ms: timeout(),
  ...DialogArgs,
});
export type DragArgs = z.infer<typeof DragArgs>;

export const DragResult = z.object({
  handle: z.string(),
  to_handle: z.string(),
  /** `html`: the source is draggable, so HTML drag-and-drop events ran; `pointer`: pointer and mouse events only. */
  kind: z.enum(['html', 'pointer']),
  /** html: the drop target accepted the drop (cancelled dragover and drop). */
  dropped: z.boolean().optional(),
  trusted: z.boolean(),
  dom_changed: z.boolean(),
  ...DialogResult,
});
export type DragResult = z.infer<typeof DragResult>;

/** Most files one upload call carries, and their largest total size in bytes (the browser's 1 MB message cap). */
export const UPLOAD_MAX_FILES = 20;
export const UPLOAD_MAX_BYTES = 700 * 1024;

/** One file as the broker read it: name, MIME type, base64 bytes. */
export const UploadFile = z.object({
  name: z.string().min(1).max(255),
  type: z.string().max(200),
  data: z.string().max(Math.ceil(UPLOAD_MAX_BYTES / 3) * 4 + 4),
});

/** `upload`, as the page operation: the files travel in the call (the MCP tool reads them; broker/mcp/tools/upload.ts). */
export const UploadArgs = TargetArgs.extend({
  files: z.array(UploadFile).max(UPLOAD_MAX_FILES),
  timeout_ms: timeout(),
});
export type UploadArgs = z.infer<typeof UploadArgs>;

export const UploadResult = z.object({
  handle: z.string(),
  files: z.array(z.object({ name: z.string(), size: z.number().int(), type: z.string() })),
  trusted: z.boolean(),
  dom_changed: z.boolean(),
});
export type UploadResult = z.infer<typeof UploadResult>;
