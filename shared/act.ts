// What acting operations share (shared/ops.ts, shared/input-ops.ts): how they name their element, how they say to
// answer a JavaScript dialog, and the dialogs they report. Page side: extension/content/actions, extension/content/dialogs.ts.
import { z } from 'zod';

/**
 * An element handle as issued by a snapshot: `<document namespace>.<counter>`, or a row's handle, a colon and the
 * number of one of its cells from 1 (`q7k2mzr4.v:2`) (docs/architecture.md, "Handles").
 */
export const HandleSchema = z
  .string()
  .max(64)
  .regex(/^[a-z0-9]{4,16}\.[0-9a-z]{1,10}(?::[1-9][0-9]{0,2})?$/, 'not an Oriel handle (handles look like "q7k2mzr4.3", a row\'s cell "q7k2mzr4.3:2"; take them from a snapshot)');

/**
 * A target element: exactly one of a handle or a CSS selector that must match one element. Tools list these without
 * a description: the server explains them once (broker/mcp/listing.ts, SHARED_ARGUMENTS).
 */
export const TargetArgs = z.object({
  handle: HandleSchema.optional(),
  selector: z.string().max(1000).optional(),
});

/** JavaScript dialogs a page can open (https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html). */
export const DIALOG_TYPES = ['alert', 'confirm', 'prompt', 'beforeunload'] as const;
export type DialogType = (typeof DIALOG_TYPES)[number];

/** How a dialog is answered: accept (OK, Leave) or dismiss (Cancel, Stay). */
export const DIALOG_ANSWERS = ['accept', 'dismiss'] as const;
export type DialogAnswer = (typeof DIALOG_ANSWERS)[number];

/**
 * A tab's standing answer to the dialogs no call answers (docs/tools.md, "Dialogs"): `accept` or `dismiss` them and
 * report them, or `default` — dismiss them and fail the call that met them, and leave the ones that open between
 * calls to the person.
 */
export const DIALOG_POLICIES = ['accept', 'dismiss', 'default'] as const;
export type DialogPolicy = (typeof DIALOG_POLICIES)[number];

/**
 * How an action answers the JavaScript dialogs it opens: arguments every acting operation takes (explained once, like
 * TargetArgs). `dialog` answers this call's dialogs; `dialog_policy` sets the tab's standing answer from this call on
 * (the background keeps it and hands it to every later acting call of the tab). Without either, such a dialog is
 * dismissed and the call fails with its text.
 */
export const DialogArgs = {
  dialog: z.enum(DIALOG_ANSWERS).optional(),
  dialog_text: z.string().max(10_000).optional(),
  dialog_policy: z.enum(DIALOG_POLICIES).optional(),
};

/** One dialog an action opened, with its text and how it was answered. */
export const DialogSeenSchema = z.object({
  type: z.enum(DIALOG_TYPES),
  /** The page's text (page content: untrusted), bounded; empty for beforeunload, whose text the browser writes. */
  message: z.string().max(2000),
  answer: z.enum(DIALOG_ANSWERS),
  /** True when it opened while no call ran, and was answered by the tab's policy (reported by the next call). */
  between_calls: z.boolean().optional(),
});
export type DialogSeen = z.infer<typeof DialogSeenSchema>;

/** Result fields of acting operations that can open dialogs. */
export const DialogResult = {
  dialogs: z.array(DialogSeenSchema).max(40).optional(),
};
