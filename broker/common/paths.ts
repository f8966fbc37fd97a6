// Where the broker keeps its files: the hub socket's private folder, per-user data (launcher, logs) and config.
import envPaths from 'env-paths';
import { mkdirSync, chmodSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const app = envPaths('oriel', { suffix: '' });

/**
 * Folders Oriel uses. Each can be overridden by an environment variable (tests use these to stay out of $HOME):
 * - `runtime` (`ORIEL_RUNTIME_DIR`): holds the hub socket and lock; created 0700. Default `$XDG_RUNTIME_DIR/oriel`,
 *   else `<tmpdir>/oriel-<uid>`.
 * - `data` (`ORIEL_DATA_DIR`): the native-host launcher and logs. Default: env-paths data folder.
 * - `config` (`ORIEL_CONFIG_DIR`): `config.json`. Default: env-paths config folder.
 */
export interface OrielDirs {
  runtime: string;
  data: string;
  config: string;
}

export function orielDirs(env: NodeJS.ProcessEnv = process.env): OrielDirs {
  const uid = typeof process.getuid === 'function' ? process.getuid() : os.userInfo().username;
  const runtime =
    env.ORIEL_RUNTIME_DIR ?? (env.XDG_RUNTIME_DIR ? path.join(env.XDG_RUNTIME_DIR, 'oriel') : path.join(os.tmpdir(), `oriel-${uid}`));
  return { runtime, data: env.ORIEL_DATA_DIR ?? app.data, config: env.ORIEL_CONFIG_DIR ?? app.config };
}

/** Path of the hub's socket: a Unix socket in the runtime folder, or a per-user named pipe on Windows. */
export function hubSocketPath(dirs: OrielDirs = orielDirs()): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\oriel-hub-${os.userInfo().username}`;
  return path.join(dirs.runtime, 'hub.sock');
}

/**
 * Creates the runtime folder with mode 0700 and checks that it is ours and private.
 * @throws Error when the folder exists with group/other access or another owner.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const st = statSync(dir);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Error('the Oriel runtime folder belongs to another user');
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
