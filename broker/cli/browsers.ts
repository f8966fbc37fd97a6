// The browsers Oriel registers its native host with, where each one looks for host manifests, and which are installed.
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { NATIVE_HOST_NAME } from '../../shared/protocol.js';
import type { SetupContext } from './context.js';

/** Browsers `oriel install --browser` accepts. */
export const BROWSER_NAMES = ['chrome', 'chromium', 'edge', 'brave', 'vivaldi', 'firefox'] as const;
export type BrowserName = (typeof BROWSER_NAMES)[number];

/** Chromium-family browsers share one manifest shape (`allowed_origins`); Firefox has its own (`allowed_extensions`). */
export type BrowserFamily = 'chromium' | 'firefox';

interface BrowserSpec {
  label: string;
  family: BrowserFamily;
  /** Linux: the browser's user-data folder under `$XDG_CONFIG_HOME` (Firefox: under `$HOME`). */
  linuxDir: string[];
  linuxExecutables: string[];
  /** macOS: folder under `~/Library/Application Support` holding `NativeMessagingHosts`. */
  macDir: string[];
  /** macOS: the browser's profile folder under `~/Library/Application Support`, and its app bundle name. */
  macProfileDir: string[];
  macApp: string;
  /** Windows: registry path under `HKCU\Software` ending in `NativeMessagingHosts`. */
  winRegistry: string;
  /** Windows: the user-data folder under `%LOCALAPPDATA%` (Firefox: `%APPDATA%`). */
  winDataDir: string[];
}

// Folders: https://developer.chrome.com/docs/extensions/develop/concepts/native-messaging#native-messaging-host-location
// and https://developer.mozilla.org/en-US/docs/Mozilla/Add-ons/WebExtensions/Native_manifests#manifest_location
const SPECS: Record<BrowserName, BrowserSpec> = {
  chrome: {
    label: 'Google Chrome',
    family: 'chromium',
    linuxDir: ['google-chrome'],
    linuxExecutables: ['google-chrome', 'google-chrome-stable'],
    macDir: ['Google', 'Chrome'],
    macProfileDir: ['Google', 'Chrome'],
    macApp: 'Google Chrome.app',
    winRegistry: 'Google\\Chrome\\NativeMessagingHosts',
    winDataDir: ['Google', 'Chrome', 'User Data'],
  },
  chromium: {
    label: 'Chromium',
    family: 'chromium',
    linuxDir: ['chromium'],
    linuxExecutables: ['chromium', 'chromium-browser'],
    macDir: ['Chromium'],
    macProfileDir: ['Chromium'],
    macApp: 'Chromium.app',
    winRegistry: 'Chromium\\NativeMessagingHosts',
    winDataDir: ['Chromium', 'User Data'],
  },
  edge: {
    label: 'Microsoft Edge',
    family: 'chromium',
    linuxDir: ['microsoft-edge'],
    linuxExecutables: ['microsoft-edge', 'microsoft-edge-stable'],
    macDir: ['Microsoft Edge'],
    macProfileDir: ['Microsoft Edge'],
    macApp: 'Microsoft Edge.app',
    winRegistry: 'Microsoft\\Edge\\NativeMessagingHosts',
    winDataDir: ['Microsoft', 'Edge', 'User Data'],
  },
  brave: {
    label: 'Brave',
    family: 'chromium',
    linuxDir: ['BraveSoftware', 'Brave-Browser'],
    linuxExecutables: ['brave-browser', 'brave'],
    macDir: ['BraveSoftware', 'Brave-Browser'],
    macProfileDir: ['BraveSoftware', 'Brave-Browser'],
    macApp: 'Brave Browser.app',
    winRegistry: 'BraveSoftware\\Brave-Browser\\NativeMessagingHosts',
    winDataDir: ['BraveSoftware', 'Brave-Browser', 'User Data'],
  },
  vivaldi: {
    label: 'Vivaldi',
    family: 'chromium',
    linuxDir: ['vivaldi'],
    linuxExecutables: ['vivaldi', 'vivaldi-stable'],
    macDir: ['Vivaldi'],
    macProfileDir: ['Vivaldi'],
    macApp: 'Vivaldi.app',
    winRegistry: 'Vivaldi\\NativeMessagingHosts',
    winDataDir: ['Vivaldi', 'User Data'],
  },
  firefox: {
    label: 'Firefox',
    family: 'firefox',
    linuxDir: ['.mozilla'],
    linuxExecutables: ['firefox', 'firefox-esr'],
    macDir: ['Mozilla'],
    macProfileDir: ['Firefox'],
    macApp: 'Firefox.app',
    winRegistry: 'Mozilla\\NativeMessagingHosts',
    winDataDir: ['Mozilla', 'Firefox'],
  },
};

/** One place a host manifest is registered: a browser, or the explicit Chromium profile of `--chromium-profile`. */
export interface Target {
  /** A {@link BrowserName}, or `chromium-profile`. */
  id: BrowserName | 'chromium-profile';
  label: string;
  family: BrowserFamily;
  /** Absolute path of the host manifest file. */
  manifestPath: string;
  /** Windows only: the HKCU key whose default value names the manifest. */
  registryKey?: string;
  /** The command-line option that selects this target again, for fix messages. */
  selector: string;
}

/** File name of the host manifest (browsers look it up by the host name). */
export const MANIFEST_FILE = `${NATIVE_HOST_NAME}.json`;

function configHome(ctx: SetupContext): string {
  const xdg = ctx.env.XDG_CONFIG_HOME;
  return xdg && path.isAbsolute(xdg) ? xdg : path.join(ctx.home, '.config');
}

function macSupport(ctx: SetupContext): string {
  return path.join(ctx.home, 'Library', 'Application Support');
}

function winLocal(ctx: SetupContext, family: BrowserFamily): string {
  if (family === 'firefox') return ctx.env.APPDATA ?? path.join(ctx.home, 'AppData', 'Roaming');
  return ctx.env.LOCALAPPDATA ?? path.join(ctx.home, 'AppData', 'Local');
}

/** The HKCU key Windows browsers read for Oriel's host. */
export function registryKeyFor(name: BrowserName): string {
  return `HKCU\\Software\\${SPECS[name].winRegistry}\\${NATIVE_HOST_NAME}`;
}

/**
 * The host manifest path for `name`. On Windows the browsers find manifests through the registry, so the file
 * lives in Oriel's data folder, one per family.
 */
export function manifestPathFor(name: BrowserName, ctx: SetupContext): string {
  const spec = SPECS[name];
  switch (ctx.os) {
    case 'linux':
      if (spec.family === 'firefox') return path.join(ctx.home, '.mozilla', 'native-messaging-hosts', MANIFEST_FILE);
      return path.join(configHome(ctx), ...spec.linuxDir, 'NativeMessagingHosts', MANIFEST_FILE);
    case 'darwin':
      return path.join(macSupport(ctx), ...spec.macDir, 'NativeMessagingHosts', MANIFEST_FILE);
    case 'win32':
      return path.join(ctx.dirs.data, `${NATIVE_HOST_NAME}.${spec.family}.json`);
  }
}

/** The {@link Target} for a named browser. */
export function browserTarget(name: BrowserName, ctx: SetupContext): Target {
  const target: Target = {
    id: name,
    label: SPECS[name].label,
    family: SPECS[name].family,
    manifestPath: manifestPathFor(name, ctx),
    selector: `--browser ${name}`,
  };
  if (ctx.os === 'win32') target.registryKey = registryKeyFor(name);
  return target;
}

/** The {@link Target} for `--chromium-profile <dir>`: `<dir>/NativeMessagingHosts/dev.oriel.broker.json`. */
export function profileTarget(profileDir: string): Target {
  const dir = path.resolve(profileDir);
  return {
    id: 'chromium-profile',
    label: `Chromium profile ${dir}`,
    family: 'chromium',
    manifestPath: path.join(dir, 'NativeMessagingHosts', MANIFEST_FILE),
    selector: `--chromium-profile ${JSON.stringify(dir)}`,
  };
}

function onPath(names: string[], ctx: SetupContext): boolean {
  const dirs = (ctx.env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d));
  for (const dir of dirs) {
    for (const name of names) {
      try {
        accessSync(path.join(dir, name), constants.X_OK);
        return true;
      } catch {
        // not here
      }
    }
  }
  return false;
}

/** Whether `name` looks installed: its profile folder exists, or (Linux) its executable is on PATH, (macOS) its app. */
export function isInstalled(name: BrowserName, ctx: SetupContext): boolean {
  const spec = SPECS[name];
  switch (ctx.os) {
    case 'linux': {
      const dir = spec.family === 'firefox' ? path.join(ctx.home, ...spec.linuxDir) : path.join(configHome(ctx), ...spec.linuxDir);
      return existsSync(dir) || onPath(spec.linuxExecutables, ctx);
    }
    case 'darwin':
      return (
        existsSync(path.join(macSupport(ctx), ...spec.macProfileDir)) ||
        existsSync(path.join('/Applications', spec.macApp)) ||
        existsSync(path.join(ctx.home, 'Applications', spec.macApp))
      );
    case 'win32':
      return existsSync(path.join(winLocal(ctx, spec.family), ...spec.winDataDir));
  }
}

/** The supported browsers found on this machine, in {@link BROWSER_NAMES} order. */
export function detectBrowsers(ctx: SetupContext): BrowserName[] {
  return BROWSER_NAMES.filter((name) => isInstalled(name, ctx));
}

/** What the user chose on the command line. */
export interface TargetSelection {
  browsers?: BrowserName[];
  all?: boolean;
  chromiumProfile?: string;
}

/**
 * The targets to act on: the `--chromium-profile` one if given, plus `--all` browsers, or the `--browser` ones, or —
 * when neither a browser nor a profile was chosen — every detected browser.
 */
export function selectTargets(selection: TargetSelection, ctx: SetupContext): Target[] {
  const targets: Target[] = [];
  if (selection.chromiumProfile) targets.push(profileTarget(selection.chromiumProfile));
  let names: readonly BrowserName[];
  if (selection.all) names = BROWSER_NAMES;
  else if (selection.browsers?.length) names = BROWSER_NAMES.filter((n) => selection.browsers!.includes(n));
  else if (selection.chromiumProfile) names = [];
  else names = detectBrowsers(ctx);
  for (const name of names) targets.push(browserTarget(name, ctx));
  return targets;
}
