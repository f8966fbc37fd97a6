// The user's settings (options page), typed and validated, kept in storage.local under `settings`.
// Agents never write these; only the extension's own pages do.
import { z } from 'zod';

/** Settings with their defaults. Unknown or invalid stored fields fall back to the default. */
export const SettingsSchema = z.object({
  /** CSS selectors whose whole subtrees are removed from snapshots (names, text, values, links). */
  redactSelectors: z.array(z.string().max(1000)).max(200).catch([]),
  /** Longest value shown in a snapshot, in characters (SPEC §3: 200 by default). */
  valueLimit: z.number().int().min(0).max(100_000).catch(200),
  /**
   * Whether agents may run their own JavaScript in shared tabs (the `evaluate` tool). Off until the user turns it on:
   * page JavaScript can read anything the page holds, redacted fields included.
   */
  allowEvaluate: z.boolean().catch(false),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** Defaults, derived from the schema. */
export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});

/** Reads the settings, repairing any invalid field to its default. */
export async function readSettings(): Promise<Settings> {
  const stored = (await chrome.storage.local.get('settings')).settings;
  return SettingsSchema.parse(typeof stored === 'object' && stored !== null ? stored : {});
}

/** Merges `patch` into the stored settings after validating it. */
export async function writeSettings(patch: Partial<Settings>): Promise<Settings> {
  const next = SettingsSchema.parse({ ...(await readSettings()), ...patch });
  await chrome.storage.local.set({ settings: next });
  return next;
}
