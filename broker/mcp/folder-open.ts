// Opening a file inside a folder so that no component of its path can be swapped for a link between check and use,
// and without ever blocking on what is opened (docs/architecture.md, "Input", Files). Used by files.ts for `upload`.
import { constants } from 'node:fs';
import { lstat, open, realpath, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { orielError } from '../../shared/errors.js';

/**
 * How a folder's files are opened, the soundest the system offers, chosen once per folder:
 * - `fd-walk` (Linux): one no-follow open per component, each relative to the folder already opened — through
 *   `/proc/self/fd/N/<name>`, which resolves `<name>` in the directory descriptor N like `openat(2)` does — so a
 *   component swapped for a link is refused and a folder renamed meanwhile is still the folder opened.
 * - `no-follow-any` (macOS 11+): one open of the folder's real path plus the components with `O_NOFOLLOW_ANY`, which
 *   makes the kernel refuse a link in any component.
 * - `top-level` (elsewhere, e.g. Windows): only files directly in the folder; the file is opened, then its identity
 *   (device and inode from `fstat`) must equal that of the folder's entry of that name (`lstat`, which does not
 *   follow it): with no component between the folder and the file there is nothing else to swap.
 */
export type FolderOpenMethod = 'fd-walk' | 'no-follow-any' | 'top-level';

/** macOS's `O_NOFOLLOW_ANY` (`<sys/fcntl.h>`), which Node does not name. */
const O_NOFOLLOW_ANY = 0x2000_0000;
// Flags Windows lacks are 0 there, so they can be or-ed in everywhere.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_NOCTTY = constants.O_NOCTTY ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
/** Opening the file itself: never follow, never wait (a FIFO with no writer would block a thread for good). */
const FILE_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

/** A folder opened for reading the files inside it; `close` when done. */
export interface OpenedFolder {
  readonly method: FolderOpenMethod;
  /** The folder's real path (links resolved), as opened. */
  readonly realRoot: string;
  /**
   * Opens the regular file at `components` (names, no `.`/`..`, none empty) below the folder, following no link.
   * @throws OrielError `permission_denied` (a component is a link), `invalid_argument` (missing, not a folder on the
   *   way, not a regular file, cannot be opened, or a subfolder where the method is `top-level`).
   */
  openFile(components: readonly string[]): Promise<FileHandle>;
  close(): Promise<void>;
}

let noFollowAny: Promise<boolean> | undefined;
/** Whether this kernel honours `O_NOFOLLOW_ANY`: macOS's `/tmp` is a link, so opening it with the flag must fail. */
function kernelHasNoFollowAny(): Promise<boolean> {
  noFollowAny ??= process.platform !== 'darwin'
    ? Promise.resolve(false)
    : open('/tmp', constants.O_RDONLY | O_NOFOLLOW_ANY).then(
        async (h) => (await h.close(), false),
        (err: NodeJS.ErrnoException) => err.code === 'ELOOP',
      );
  return noFollowAny;
}

/** Whether `/proc/self/fd/<fd>` names the directory `dir` is open on (Linux with /proc mounted). */
async function procFdWorks(dir: FileHandle): Promise<boolean> {
  try {
    const [a, b] = await Promise.all([dir.stat({ bigint: true }), stat(`/proc/self/fd/${dir.fd}`, { bigint: true })]);
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}

/** The error for a component that could not be opened, after looking at what is there (without following it). */
async function refusal(err: NodeJS.ErrnoException, at: string, name: string, last: boolean): Promise<Error> {
  const what = await lstat(at).catch(() => undefined);
  if (what?.isSymbolicLink()) {
    return orielError('permission_denied', `"${name}" is a link; links in the upload folder are not followed.`, { next: 'upload only files inside the upload folder' });
  }
  if (!what || err.code === 'ENOENT') return orielError('invalid_argument', `There is no file "${name}" in the upload folder. Name files relative to that folder.`);
  if (!last && !what.isDirectory()) return orielError('invalid_argument', `"${name}" is not a folder.`);
  if (last && !what.isFile()) return orielError('invalid_argument', `"${name}" is not a regular file.`);
  return orielError('invalid_argument', `"${name}" cannot be opened.`);
}

/** Checks that `handle` is a regular file (closing it if not) and returns it. */
async function regularFile(handle: FileHandle, name: string): Promise<FileHandle> {
  const info = await handle.stat().catch(() => undefined);
  if (info?.isFile()) return handle;
  await handle.close();
  throw orielError('invalid_argument', `"${name}" is not a regular file.`);
}

/** Choices tests make: the method, and opening as on a system without `O_NOFOLLOW` (Windows). */
export interface FolderOpenOptions {
  method?: FolderOpenMethod;
  withoutNoFollow?: boolean;
}

/**
 * Opens `folder` (an absolute path, links in it followed: the person chose it) with the soundest method the system
 * has.
 * @throws Error when the folder does not exist or is not a folder.
 */
export async function openFolder(folder: string, { method, withoutNoFollow = false }: FolderOpenOptions = {}): Promise<OpenedFolder> {
  const root = await realpath(folder);
  if (!(await stat(root)).isDirectory()) throw new Error('not a folder');
  const dir = O_DIRECTORY ? await open(root, constants.O_RDONLY | O_DIRECTORY | O_NONBLOCK).catch(() => undefined) : undefined;
  const chosen = method ?? (dir && (await procFdWorks(dir)) ? 'fd-walk' : (await kernelHasNoFollowAny()) ? 'no-follow-any' : 'top-level');
  if (chosen === 'fd-walk' && !dir) throw new Error('the folder cannot be opened');
  const close = async () => void (await dir?.close());

  if (chosen === 'fd-walk') {
    return {
      method: chosen,
      realRoot: root,
      close,
      async openFile(components) {
        let at = dir!;
        try {
          for (const [i, name] of components.entries()) {
            const last = i === components.length - 1;
            const where = `/proc/self/fd/${at.fd}/${name}`;
            const next = await open(where, last ? FILE_FLAGS : constants.O_RDONLY | O_NOFOLLOW | O_DIRECTORY | O_NONBLOCK).catch(
              async (err: NodeJS.ErrnoException) => {
                throw await refusal(err, where, name, last);
              },
            );
            if (at !== dir) await at.close();
            at = next;
          }
          return await regularFile(at, components.at(-1)!);
        } catch (err) {
          if (at !== dir) await at.close().catch(() => undefined);
          throw err;
        }
      },
    };
  }

  if (chosen === 'no-follow-any') {
    return {
      method: chosen,
      realRoot: root,
      close,
      async openFile(components) {
        const full = path.join(root, ...components);
        const handle = await open(full, FILE_FLAGS | O_NOFOLLOW_ANY).catch(async (err: NodeJS.ErrnoException) => {
          throw await refusal(err, full, components.at(-1)!, true);
        });
        return regularFile(handle, components.at(-1)!);
      },
    };
  }

  return {
    method: chosen,
    realRoot: root,
    close,
    async openFile(components) {
      const name = components.at(-1)!;
      if (components.length !== 1) {
        throw orielError('invalid_argument', `"${name}" is in a subfolder: on this system Oriel uploads only files directly in the upload folder.`, { next: 'ask the user to move the file into the upload folder itself' });
      }
      const full = path.join(root, name);
      const handle = await open(full, withoutNoFollow ? FILE_FLAGS & ~O_NOFOLLOW : FILE_FLAGS).catch(async (err: NodeJS.ErrnoException) => {
        throw await refusal(err, full, name, true);
      });
      try {
        // The entry of that name, not followed, must be the file opened: a link swapped in is a different inode.
        const [opened, entry] = await Promise.all([handle.stat({ bigint: true }), lstat(full, { bigint: true }).catch(() => undefined)]);
        if (!entry) throw orielError('invalid_argument', `"${name}" changed while it was opened; try again.`);
        if (entry.isSymbolicLink()) throw orielError('permission_denied', `"${name}" is a link; links in the upload folder are not followed.`, { next: 'upload only files inside the upload folder' });
        if (opened.dev !== entry.dev || opened.ino !== entry.ino) throw orielError('invalid_argument', `"${name}" changed while it was opened; try again.`);
      } catch (err) {
        await handle.close();
        throw err;
      }
      return regularFile(handle, name);
    },
  };
}
