// The user's settings (options page), typed and validated, kept in storage.local under `settings`.
// Agents never write these; only the extension's own pages do.
import { z } from 'zod';
import { orielError } from '../shared/errors.js';
import { OPS, isOpName } from '../shared/ops.js';
import { MAX_APP_CLIENT_CHARS, MAX_APP_CLIENTS } from '../shared/ask-in-app.js';

/** Most redaction selectors, and longest one (characters), the options page accepts. */
export const MAX_REDACT_SELECTORS = 200;
export const MAX_SELECTOR_CHARS = 1000;

/** Longest permission-prompt budget the options page accepts, seconds. */
export const MAX_PROMPT_SECONDS = 600;
/** The default prompt budget, seconds: below the MCP SDKs' default 60 s request timeout. */
export const DEFAULT_PROMPT_SECONDS = 45;

/**
 * Settings with their defaults. An invalid stored field falls back to its default — except the redaction selectors
 * and the disabled tools, which fail closed (see {@link readSettings}): dropping them would show what the user asked to
 * hide, or let agents use what the user switched off.
 */
export const SettingsSchema = z.object({
  /** CSS selectors whose whole subtrees are removed from snapshots (names, text, values, links). */
  redactSelectors: z.array(z.string().max(MAX_SELECTOR_CHARS)).max(MAX_REDACT_SELECTORS).default([]),
  /** Longest value shown in a snapshot, in characters (200 by default: docs/architecture.md, "Redaction"). */
  valueLimit: z.number().int().min(0).max(100_000).catch(200),
  /**
   * Whether agents may run code in shared tabs at all (exec: `evaluate`, `call_tab_operation`). On by default, and even
   * then every use needs the person's exec grant (a prompt); off, exec tools are disabled outright.
   */
  allowExec: z.boolean().catch(true),
  /** Public operations (tools) the person switched off: hidden from agents' tool lists and refused if called. */
  disabledTools: z.array(z.string().max(40)).max(100).default([]),
  /**
   * How long a call waits for the person to answer its permission prompt, seconds (separate from its deadline). The
   * default stays under the MCP SDKs' default request timeout (60 s), so an agent on default settings gets Oriel's
   * `permission_timeout` rather than its client's bare "Request timed out" (docs/architecture.md, "Consent").
   */
  promptSeconds: z.number().int().min(1).max(MAX_PROMPT_SECONDS).catch(DEFAULT_PROMPT_SECONDS),
  /**
   * The folder agents may upload files from (an absolute path on this computer), read by the broker; '' turns upload
   * off, which is the default: an agent must never be able to send a file the person did not put there.
   */
  uploadFolder: z.string().max(4096).catch(''),
  /**
   * The folder, inside the browser's downloads folder, where downloads agents' actions start are saved (one folder
   * name: shared/downloads.ts); '' (the default) turns them off: such downloads are cancelled and reported.
   */
  downloadFolder: z.string().max(64).catch(''),
  /** Whether tabs and popups that a shared tab opens are shared too (for the opener's origin only). */
  shareOpenedTabs: z.boolean().catch(true),
  /**
   * Chromium only: pointer and key input through the DevTools protocol (`chrome.debugger`), so pages see trusted
   * events. Off by default; the Chromium build declares the `debugger` permission, the Firefox build has neither.
   */
  trustedInput: z.boolean().catch(false),
  /**
   * The MCP client names (their `clientInfo.name`) whose app may ask the person permission questions too (MCP
   * elicitation), besides the popup. Empty by default: the app shows the question and relays the answer, so only apps
   * the person trusts to show it to them belong here (docs/architecture.md, "Asking in the agent's app").
   */
  askInApp: z.array(z.string().min(1).max(MAX_APP_CLIENT_CHARS)).max(MAX_APP_CLIENTS).catch([]),
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
      "Oriel's redaction or tool settings cannot be read, so nothing was done in the page. Ask the user to open Oriel's options and save them again.",
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

/**
 * The tools the person's policy switches off: those disabled by name, and every exec operation when exec is off.
 * Sorted, without duplicates or names that are not public operations.
 */
export function disabledTools(settings: Settings): string[] {
  const off = new Set(settings.disabledTools.filter((n) => isOpName(n) && OPS[n].public));
  if (!settings.allowExec) for (const [name, spec] of Object.entries(OPS)) if (spec.public && spec.capability === 'exec') off.add(name);
  return [...off].sort();
}
