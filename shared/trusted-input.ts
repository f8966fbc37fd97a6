// Trusted input (docs/architecture.md, "Input"): the content script asks the background, mid-action, to dispatch
// pointer and key input through the browser's DevTools protocol. Sent by extension/content/actions/trusted.ts, checked
// and carried out by extension/background/trusted-input.ts. Both sides' types come from these schemas.
import { z } from 'zod';

/** Longest text one `text` step inserts (the `type` tool's own text bound). */
export const MAX_TRUSTED_TEXT = 100_000;
/** Most steps in one request (`press_key` of a four-modifier chord 100 times; a `type` of 256 keys needs about 520). */
export const MAX_TRUSTED_STEPS = 1000;

/** A coordinate in top-level viewport CSS pixels. */
const Coordinate = z.number().finite().min(-1e6).max(1e6);

/**
 * One input step:
 * - `mouse`: `move` the pointer to (x, y), or `click` there (move, then `count` presses and releases of `button`,
 *   default one of the left, with click counts 1…count), holding `modifiers` (the bit mask below). Top-level viewport
 *   CSS pixels.
 * - `key`: one key going `down` or `up`, as KeyboardEvent fields (`text` when the key types a character) with the
 *   modifiers held as the DevTools protocol's bit mask (Alt 1, Control 2, Meta 4, Shift 8).
 * - `text`: text inserted as one edit (as a paste or an input method does), for long text.
 */
export const TrustedStepSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('mouse'),
    type: z.enum(['move', 'click']),
    x: Coordinate,
    y: Coordinate,
    button: z.enum(['left', 'middle', 'right']).optional(),
    count: z.number().int().min(1).max(3).optional(),
    modifiers: z.number().int().min(0).max(15).optional(),
  }),
  z.object({
    kind: z.literal('key'),
    type: z.enum(['down', 'up']),
    key: z.string().min(1).max(40),
    code: z.string().max(40),
    keyCode: z.number().int().min(0).max(255),
    text: z.string().max(4).optional(),
    modifiers: z.number().int().min(0).max(15),
  }),
  z.object({ kind: z.literal('text'), text: z.string().max(MAX_TRUSTED_TEXT) }),
]);
export type TrustedStep = z.infer<typeof TrustedStepSchema>;

/** Content → background: dispatch `steps` for call `call` (the call the background sent to this frame). */
export const TrustedInputRequestSchema = z.object({
  call: z.number().int().positive(),
  steps: z.array(TrustedStepSchema).min(1).max(MAX_TRUSTED_STEPS),
});
export type TrustedInputRequest = z.infer<typeof TrustedInputRequestSchema>;

/**
 * Background → content: done, or why not. `dispatched` counts the steps that reached the browser before the failure:
 * 0 means nothing happened and the content script may use its own events instead; more means the input is partial,
 * and falling back would send some of it twice.
 */
export const TrustedInputReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), dispatched: z.number().int().min(0), message: z.string().max(500) }),
]);
export type TrustedInputReply = z.infer<typeof TrustedInputReplySchema>;

/**
 * What the background tells the content script about trusted input for one call (in the call envelope): offered, or
 * not offered with the reason the result's `note` gives (the person cancelled the browser's debugging banner).
 */
export const TrustedOfferSchema = z.object({ trusted: z.boolean(), note: z.string().max(300).optional() });
export type TrustedOffer = z.infer<typeof TrustedOfferSchema>;
