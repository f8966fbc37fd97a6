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

/**
 * How an action answers the JavaScript dialogs it opens: arguments every acting operation takes (explained once, like
 * TargetArgs). Without `dialog`, such a dialog is dismissed and the call fails with its text.
 */
export const DialogArgs = {
  dialog: z.enum(['accept', 'dismiss']).optional(),
  dialog_text: z.string().max(10_000).optional(),
};
export type DialogAnswer = 'accept' | 'dismiss';

/** One dialog an action opened, with its text and how it was answered. */
export const DialogSeenSchema = z.object({
  type: z.enum(DIALOG_TYPES),
  /** The page's text (page content: untrusted), bounded. */
  message: z.string().max(2000),
  answer: z.enum(['accept', 'dismiss']),
});
export type DialogSeen = z.infer<typeof DialogSeenSchema>;

/** Result fields of acting operations that can open dialogs. */
export const DialogResult = {
  dialogs: z.array(DialogSeenSchema).max(20).optional(),
};
