// The user's settings (options page), typed and validated, kept in storage.local under `settings`.
// Agents never write these; only the extension's own pages do.
import { z } from 'zod';
import { orielError } from '../shared/errors.js';

/** Most redaction selectors, and longest one (characters), the options page accepts. */
export const MAX_REDACT_SELECTORS = 200;
export const MAX_SELECTOR_CHARS = 1000;

/**
 * Settings with their defaults. An invalid stored field falls back to its default — except the redaction selectors,
 * which fail closed (see {@link readSettings}): dropping them would show what the user asked to hide.
 */
export const SettingsSchema = z.object({
  /** CSS selectors whose whole subtrees are removed from snapshots (names, text, values, links). */
  redactSelectors: z.array(z.string().max(MAX_SELECTOR_CHARS)).max(MAX_REDACT_SELECTORS).default([]),
  /** Longest value shown in a snapshot, in characters (SPEC §3: 200 by default). */
  valueLimit: z.number().int().min(0).max(100_000).catch(200),
  /**
   * Whether agents may run their own JavaScript in shared tabs (the `evaluate` tool). Off until the user turns it on:
   * page JavaScript can read anything the page holds, redacted fields included.
   */
  allowEvaluate: z.boolean().catch(false),
  /**
   * The folder agents may upload files from (an absolute path on this computer), read by the broker; '' turns upload
   * off, which is the default: an agent must never be able to send a file the person did not put there.
   */
  uploadFolder: z.string().max(4096).catch(''),
  /** Whether tabs and popups that a shared tab opens are shared too (for the opener's origin only). */
  shareOpenedTabs: z.boolean().catch(true),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** Defaults, derived from the schema. */
export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});

/**
 * Reads the settings, repairing any invalid field to its default.
 * @throws OrielError `invalid_argument` when the stored redaction selectors are unreadable (fail closed).
 */
export async function readSettings(): Promise<Settings> {
  const stored = (await chrome.storage.local.get('settings')).settings;
  const parsed = SettingsSchema.safeParse(typeof stored === 'object' && stored !== null ? stored : {});
  if (!parsed.success) {
    throw orielError(
      'invalid_argument',
      "Oriel's redaction settings cannot be read, so nothing was read from the page. Ask the user to open Oriel's options and save the redaction list again.",
    );
  }
  return parsed.data;
}

/** Merges `patch` into the stored settings after validating it. */
export async function writeSettings(patch: Partial<Settings>): Promise<Settings> {
  // Merge into what is stored, even if part of it is unreadable: saving a new redaction list is how the user repairs it.
  const stored = (await chrome.storage.local.get('settings')).settings;
  const next = SettingsSchema.parse({ ...(typeof stored === 'object' && stored !== null ? stored : {}), ...patch });
  await chrome.storage.local.set({ settings: next });
  return next;
}
