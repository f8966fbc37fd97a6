// Messages between the extension's own pages (popup, options: extension/ui) and the background (extension/background/index.ts).
import { z } from 'zod';

export const PopupRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('state') }),
  z.object({ kind: z.literal('share'), tab: z.number().int(), shared: z.boolean() }),
]);
export type PopupRequest = z.infer<typeof PopupRequestSchema>;

export interface PopupState {
  /** Whether the native port to the broker is open. */
  connected: boolean;
  /** Every web tab, with whether it is shared. */
  tabs: Array<{ tab: number; title: string; url: string; shared: boolean; active: boolean; windowId: number }>;
}
