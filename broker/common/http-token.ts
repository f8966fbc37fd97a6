// The bearer token of the optional HTTP transport (`oriel serve --http`): random, kept in Oriel's config folder in a
// file only the user can read (0600), never logged. `oriel config <client> --http` prints it for the client to send.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { orielDirs, type OrielDirs } from './paths.js';

/** File name of the token in the config folder. */
export const HTTP_TOKEN_FILE = 'http-token';

/** Where the token lives. */
export function httpTokenPath(dirs: OrielDirs = orielDirs()): string {
  return path.join(dirs.config, HTTP_TOKEN_FILE);
}

/**
 * The HTTP transport's token, created on first use: 32 random bytes, base64url, written with mode 0600 (exclusive
 * create, so two racing callers agree on one). A token file readable by others is made private again.
 * @throws Error when the folder cannot be written or the file holds no token.
 */
export function httpToken(dirs: OrielDirs = orielDirs()): string {
  const file = httpTokenPath(dirs);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, randomBytes(32).toString('base64url') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const token = readFileSync(file, 'utf8').trim();
  if (!/^[\w-]{32,}$/.test(token)) throw new Error('the HTTP token file is damaged; delete it and run the command again');
  return token;
}
