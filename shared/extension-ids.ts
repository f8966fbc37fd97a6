// Every extension id Oriel knows, in one place: the pinned development ids and the store ids. The native host
// allows them (broker/cli/manifests.ts writes them into host manifests); docs/install.md says how a release sets them.

/** Which build an id belongs to: the unpacked development build or one of the stores' listings. */
export type ExtensionBuild = 'development' | 'chrome-web-store' | 'addons.mozilla.org';

/**
 * Chromium id of the unpacked build (`dist/chrome`), pinned by the manifest `key`: the first 32 hex digits of the
 * sha256 of that public key (DER), each digit 0–f written as a letter a–p.
 */
export const CHROMIUM_EXTENSION_ID = 'laboapblkabiilmjlpcbikpgdblpioce';

/**
 * Chromium id the Chrome Web Store assigns to Oriel's listing (the store zip carries no `key`, so the store picks it).
 * PLACEHOLDER: the listing has no id yet. A release replaces it with the id shown in the store's developer dashboard.
 */
export const CHROME_WEB_STORE_ID = 'pppppppppppppppppppppppppppppppp';

/** Gecko add-on id, the same for the unpacked build and the addons.mozilla.org listing (the manifest names it). */
export const GECKO_ID = 'oriel@oriel.dev';

/** One id the native host allows by default, with the build it belongs to. */
export interface KnownExtensionId {
  id: string;
  family: 'chromium' | 'firefox';
  builds: readonly ExtensionBuild[];
}

/** The ids `oriel install` always allows, development ids first. */
export const KNOWN_EXTENSION_IDS: readonly KnownExtensionId[] = [
  { id: CHROMIUM_EXTENSION_ID, family: 'chromium', builds: ['development'] },
  { id: CHROME_WEB_STORE_ID, family: 'chromium', builds: ['chrome-web-store'] },
  { id: GECKO_ID, family: 'firefox', builds: ['development', 'addons.mozilla.org'] },
];

/** The known entry for `id`, or `undefined` for an id added with `--extension-id` (or one never allowed). */
export function knownExtensionId(id: string): KnownExtensionId | undefined {
  return KNOWN_EXTENSION_IDS.find((k) => k.id === id);
}

const BUILD_NAMES: Record<ExtensionBuild, string> = {
  development: 'the unpacked development build',
  'chrome-web-store': 'the Chrome Web Store build',
  'addons.mozilla.org': 'the addons.mozilla.org build',
};

/**
 * Says which build an extension id belongs to, for people: e.g. `laboap… (the unpacked development build)`; an id
 * Oriel does not know is "added with --extension-id".
 */
export function describeExtensionId(id: string): string {
  const known = knownExtensionId(id);
  const which = known ? known.builds.map((b) => BUILD_NAMES[b]).join(' or ') : 'a build allowed with --extension-id';
  return `${id} (${which})`;
}
