// Where the built extension lies beside the CLI bundle (in the npm package, or a clone's dist/), and how a person loads
// it into each browser: the second half of what `oriel setup` prints (docs/install.md, "Install").
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BrowserName, Target } from './browsers.js';

/** The unpacked extensions and the Firefox upload that ship with the CLI, as absolute paths. */
export interface ExtensionBuilds {
  /** The unpacked Chromium build (its manifest `key` pins the id the native host allows). */
  chromium: string;
  /** The unpacked Firefox build; a temporary add-on is loaded from its `manifest.json`. */
  firefox: string;
  /** The Firefox build zipped, for browsers that install unsigned add-ons from a file. */
  firefoxZip: string;
  /** False when the folders are missing (a source checkout that was never built). */
  found: boolean;
}

/**
 * The builds next to the CLI bundle `cliPath`: the bundle is `<dist>/broker/oriel.mjs`, the extensions
 * `<dist>/chrome`, `<dist>/firefox` and `<dist>/oriel-firefox.zip` (scripts/build.ts writes them so; package.json
 * `files` ships them).
 */
export function extensionBuilds(cliPath: string): ExtensionBuilds {
  const dist = path.dirname(path.dirname(path.resolve(cliPath)));
  const chromium = path.join(dist, 'chrome');
  const firefox = path.join(dist, 'firefox');
  return {
    chromium,
    firefox,
    firefoxZip: path.join(dist, 'oriel-firefox.zip'),
    found: existsSync(path.join(chromium, 'manifest.json')) && existsSync(path.join(firefox, 'manifest.json')),
  };
}

/** How to load the extension into one browser: the page to open and the steps there. */
export interface LoadStep {
  /** The {@link Target} id it is for. */
  target: Target['id'];
  label: string;
  /** The browser's own page to open (type it in the address bar: pages cannot link to it). */
  page: string;
  /** What to do on that page, each naming the path to choose. */
  steps: string[];
}

/** The extensions page of each Chromium-family browser (each serves the same page under its own scheme). */
const EXTENSIONS_PAGE: Record<Exclude<BrowserName, 'firefox'>, string> = {
  chrome: 'chrome://extensions',
  chromium: 'chrome://extensions',
  edge: 'edge://extensions',
  brave: 'brave://extensions',
  vivaldi: 'vivaldi://extensions',
};

/** The steps to load the builds into each target `oriel setup` registered, one entry per target. */
export function loadSteps(targets: Target[], builds: ExtensionBuilds): LoadStep[] {
  return targets.map((t): LoadStep => {
    if (t.family === 'firefox') {
      return {
        target: t.id,
        label: t.label,
        page: 'about:debugging#/runtime/this-firefox',
        steps: [
          `Load Temporary Add-on… → ${path.join(builds.firefox, 'manifest.json')} (until Firefox quits)`,
          `to keep it: the addons.mozilla.org listing, or in Firefox ESR, Developer Edition or Nightly with xpinstall.signatures.required = false in about:config, about:addons → ⚙ → Install Add-on From File… → ${builds.firefoxZip}`,
        ],
      };
    }
    return {
      target: t.id,
      label: t.label,
      page: t.id === 'chromium-profile' ? EXTENSIONS_PAGE.chromium : EXTENSIONS_PAGE[t.id as Exclude<BrowserName, 'firefox'>],
      steps: ['turn on Developer mode', `Load unpacked → ${builds.chromium}`],
    };
  });
}
