// What the setup commands (install, uninstall, doctor, status, config) depend on from the machine, gathered in one place.
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { orielDirs, type OrielDirs, type SystemFolders } from '../common/paths.js';
import { systemRegistry, type RegistryRunner } from './registry.js';

/** Operating systems the setup commands know how to register a native host on. */
export type HostOs = 'linux' | 'darwin' | 'win32';

/**
 * The machine as the setup commands see it. Tests build one pointing at temp folders; the CLI uses
 * {@link currentContext}.
 */
export interface SetupContext {
  os: HostOs;
  /** The user's home folder (`HOME` is honoured on POSIX). */
  home: string;
  env: NodeJS.ProcessEnv;
  dirs: OrielDirs;
  /** The Node binary the launcher and MCP configurations run. */
  nodePath: string;
  /** Absolute path of the bundled CLI script (`dist/broker/oriel.mjs`). */
  cliPath: string;
  registry: RegistryRunner;
  /** Machine-wide folders `oriel doctor` searches for other hubs (default: `/run/user` and `/tmp`; tests replace them). */
  systemFolders?: SystemFolders;
}

/** Maps `process.platform` to a {@link HostOs}; other Unix-likes use the Linux folders. */
export function hostOs(platform: NodeJS.Platform = process.platform): HostOs {
  if (platform === 'win32' || platform === 'darwin') return platform;
  return 'linux';
}

/**
 * Absolute path of the running CLI bundle. Inside the build this module is one of the chunks the bundle loads on
 * demand (`<dist>/broker/chunks/*.mjs`, scripts/build.ts), so the bundle is `../oriel.mjs` from it; otherwise (a
 * source run) it is the script Node was started with. Symlinks (npm's `bin` links) are resolved.
 */
export function resolveCliPath(argv1: string | undefined = process.argv[1]): string {
  const self = fileURLToPath(import.meta.url);
  const built = /\.(?:mjs|cjs|js)$/.test(self);
  const bundle = built && path.basename(path.dirname(self)) === 'chunks' ? path.join(path.dirname(self), '..', 'oriel.mjs') : self;
  const candidate = built ? bundle : argv1 ? path.resolve(argv1) : self;
  try {
    return realpathSync(candidate);
  } catch {
    return candidate;
  }
}

/** The context of this process: real OS, home, environment, Oriel folders, `process.execPath` and the CLI bundle. */
export function currentContext(env: NodeJS.ProcessEnv = process.env): SetupContext {
  return {
    os: hostOs(),
    home: os.homedir(),
    env,
    dirs: orielDirs(env),
    nodePath: process.execPath,
    cliPath: resolveCliPath(),
    registry: systemRegistry,
  };
}

/** An expected failure of a setup command (bad option, nothing to do): printed without a stack, exit code 1. */
export class SetupError extends Error {
  override name = 'SetupError';
}
