// Native-messaging host manifests: which extension ids to allow, building the JSON, and checking a file on disk.
// Format: https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging#native-messaging-host
// and https://developer.mozilla.org/en-US/docs/Mozilla/Add-ons/WebExtensions/Native_manifests
import { existsSync } from 'node:fs';
import path from 'node:path';
import { KNOWN_EXTENSION_IDS } from '../../shared/extension-ids.js';
import { NATIVE_HOST_NAME } from '../../shared/protocol.js';
import type { BrowserFamily } from './browsers.js';
import { SetupError } from './context.js';

/** The JSON a browser reads to find and trust Oriel's native host. */
export interface HostManifest {
  name: string;
  description: string;
  path: string;
  type: 'stdio';
  allowed_origins?: string[];
  allowed_extensions?: string[];
}

/** Extension ids the host accepts, per family. */
export interface ExtensionIds {
  chromium: string[];
  firefox: string[];
}

/** Chromium ids are 32 letters a–p (a hex sha256 prefix, remapped). */
const CHROMIUM_ID = /^[a-p]{32}$/;
/** Gecko ids are a `{GUID}` or an email-like string. https://extensionworkshop.com/documentation/develop/extensions-and-the-add-on-id/ */
const GECKO_ID_PATTERN = /^(?:\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}|[a-z0-9._-]*@[a-z0-9._-]+)$/i;

/** Which family an extension id belongs to, or `undefined` when it is neither a Chromium nor a Gecko id. */
export function idFamily(id: string): BrowserFamily | undefined {
  if (CHROMIUM_ID.test(id)) return 'chromium';
  if (GECKO_ID_PATTERN.test(id)) return 'firefox';
  return undefined;
}

/** Oriel's own ids per family: the development builds' and the stores' ({@link KNOWN_EXTENSION_IDS}). */
export function knownIds(): ExtensionIds {
  const ids: ExtensionIds = { chromium: [], firefox: [] };
  for (const k of KNOWN_EXTENSION_IDS) ids[k.family].push(k.id);
  return ids;
}

/**
 * The ids to allow: Oriel's own ({@link knownIds}: development and store builds) plus each `--extension-id` (a
 * self-hosted or enterprise build), sorted into its family.
 * @throws SetupError for an id that is neither a Chromium nor a Gecko id.
 */
export function extensionIds(extra: readonly string[] = []): ExtensionIds {
  const ids = knownIds();
  for (const raw of extra) {
    const id = raw.trim();
    const family = idFamily(id);
    if (!family) {
      throw new SetupError(`"${raw}" is not an extension id: a Chromium id is 32 letters a–p (see chrome://extensions), a Firefox id looks like name@example or {GUID}`);
    }
    if (!ids[family].includes(id)) ids[family].push(id);
  }
  return ids;
}

/** Both families' ids merged, for the launcher's `--allowed-ids`. */
export function mergeIds(a: ExtensionIds, b: ExtensionIds): ExtensionIds {
  return {
    chromium: [...new Set([...a.chromium, ...b.chromium])],
    firefox: [...new Set([...a.firefox, ...b.firefox])],
  };
}

/** `chrome-extension://<id>/`, the only origin form Chromium accepts in `allowed_origins` (no wildcards). */
export function chromiumOrigin(id: string): string {
  return `chrome-extension://${id}/`;
}

/** The manifest for one family, pointing at the launcher. */
export function buildHostManifest(family: BrowserFamily, launcherPath: string, ids: ExtensionIds): HostManifest {
  const base = {
    name: NATIVE_HOST_NAME,
    description: 'Oriel broker: lets MCP agents work in the tabs you share',
    path: launcherPath,
    type: 'stdio' as const,
  };
  if (family === 'firefox') return { ...base, allowed_extensions: [...ids.firefox] };
  return { ...base, allowed_origins: ids.chromium.map(chromiumOrigin) };
}

/** The text written to disk: two-space JSON with a trailing newline. */
export function manifestText(manifest: HostManifest): string {
  return JSON.stringify(manifest, null, 2) + '\n';
}

/** What {@link inspectHostManifest} found. `problems` concern the file itself; `missingIds` the extension-id link. */
export interface ManifestInspection {
  problems: string[];
  /** Whether the allow list could be read, so that `missingIds` means something. */
  listReadable: boolean;
  missingIds: string[];
  /** The manifest's `path` when it is absolute and exists: the launcher the browser would start. */
  launcherPath?: string;
}

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

/**
 * Checks a host manifest's text the way the browser would read it: name, `type: "stdio"`, an absolute `path` that
 * exists, and a well-formed allow list for `family`; then lists which of `requiredIds` it does not allow.
 */
export function inspectHostManifest(text: string, family: BrowserFamily, requiredIds: readonly string[]): ManifestInspection {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { problems: [`it is not valid JSON (${err instanceof Error ? err.message : String(err)})`], listReadable: false, missingIds: [] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { problems: ['it is not a JSON object'], listReadable: false, missingIds: [] };
  const m = json as Record<string, unknown>;
  const problems: string[] = [];
  if (m.name !== NATIVE_HOST_NAME) problems.push(`"name" is ${JSON.stringify(m.name)}, expected "${NATIVE_HOST_NAME}"`);
  if (m.type !== 'stdio') problems.push(`"type" is ${JSON.stringify(m.type)}, expected "stdio"`);
  if (typeof m.path !== 'string' || !path.isAbsolute(m.path)) problems.push(`"path" must be an absolute path, found ${JSON.stringify(m.path)}`);
  else if (!existsSync(m.path)) problems.push(`"path" names ${m.path}, which does not exist`);

  const key = family === 'firefox' ? 'allowed_extensions' : 'allowed_origins';
  const list = stringArray(m[key]);
  let missingIds: string[] = [];
  if (!list || list.length === 0) problems.push(`"${key}" must be a non-empty list of strings`);
  else {
    if (family === 'chromium') {
      const bad = list.filter((o) => !/^chrome-extension:\/\/[a-p]{32}\/$/.test(o));
      if (bad.length) problems.push(`"allowed_origins" has entries Chromium rejects: ${bad.join(', ')} (each must be chrome-extension://<32 letters a–p>/)`);
      missingIds = requiredIds.filter((id) => !list.includes(chromiumOrigin(id)));
    } else {
      missingIds = requiredIds.filter((id) => !list.includes(id));
    }
  }
  const result: ManifestInspection = { problems, listReadable: list !== undefined && list.length > 0, missingIds };
  if (typeof m.path === 'string' && path.isAbsolute(m.path) && existsSync(m.path)) result.launcherPath = m.path;
  return result;
}
