// Reading the files an agent uploads (the `upload` tool): only regular files inside the folder the person chose in
// Oriel's options, opened so no path component can be swapped (folder-open.ts), bounded in number, size and time, and
// one upload's file work at a time so a file that never answers cannot take the hub's file threads. Used by context.ts.
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime';
import { orielError } from '../../shared/errors.js';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_FILES } from '../../shared/input-ops.js';
import { openFolder, type FolderOpenOptions } from './folder-open.js';

/** One file read for upload: its name (no folders), MIME type and bytes in base64. */
export interface UploadFileData {
  name: string;
  type: string;
  data: string;
}

/** Longest one upload's file work may take before the call fails with `timeout`, ms. */
export const UPLOAD_FILE_WORK_MS = 5_000;

/** Options of {@link readUploadFiles}. */
export interface ReadUploadOptions {
  /** The call's cancellation: aborting fails it with `cancelled`. */
  signal?: AbortSignal;
  /** Bound on the file work, ms; default {@link UPLOAD_FILE_WORK_MS}. */
  timeoutMs?: number;
  /** How to open the folder (tests); default the soundest way the system has. */
  open?: FolderOpenOptions;
}

// The end of the queue of uploads' file work: each waits for the one before it to settle.
let slotTail: Promise<void> = Promise.resolve();

/**
 * Runs `work` when the previous upload's file work has settled, failing with `timeout` after `ms` (or `cancelled` on
 * `signal`). Work that overruns keeps its turn until it settles, so at most one of libuv's threadpool threads (4 by
 * default, shared by every file and DNS operation of the hub) can ever be held by uploads; later uploads fail with
 * `timeout` meanwhile, and nothing else in the hub waits.
 */
export async function inUploadSlot<T>(work: () => Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  const before = slotTail;
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  slotTail = before.then(() => mine);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(orielError('timeout', `Reading the files took longer than ${ms / 1000} s (a file that does not answer, e.g. on a network drive that hangs); nothing was uploaded.`, { next: 'ask the user to check the files in the upload folder, then retry' })),
      ms,
    );
    onAbort = () => reject(orielError('cancelled', 'The upload was cancelled before its files were read.'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  stop.catch(() => undefined);
  try {
    try {
      await Promise.race([before, stop]);
    } catch (err) {
      release();
      throw err;
    }
    const running = work();
    running.then(release, release);
    return await Promise.race([running, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The components of `p` below the folder: relative to it, or absolute inside it (its path as configured or its real
 * path). `.` and empty components are dropped.
 * @throws OrielError `permission_denied` (`..` or an absolute path elsewhere), `invalid_argument` (no file named).
 */
function componentsOf(folder: string, realRoot: string, p: string): string[] {
  const name = path.basename(p);
  if (p.includes('\0')) throw orielError('invalid_argument', 'A path contains a NUL character.');
  let rel = p;
  if (path.isAbsolute(p)) {
    const inside = [path.resolve(folder), realRoot].map((base) => path.relative(base, path.resolve(p))).find((r) => !r.startsWith('..') && !path.isAbsolute(r));
    if (inside === undefined) throw outside(name);
    rel = inside;
  }
  const parts = path.normalize(rel).split(path.sep).filter((c) => c !== '' && c !== '.');
  if (parts.includes('..')) throw outside(name);
  if (parts.length === 0) throw orielError('invalid_argument', 'A path names the upload folder itself, not a file in it.');
  return parts;
}

function outside(name: string) {
  return orielError('permission_denied', `"${name}" is outside the folder the user allows uploads from (links and ".." cannot leave it).`, { next: 'upload only files inside the upload folder' });
}

/** Reads `handle` to its end, or returns undefined as soon as it holds more than `limit` bytes (whatever it claimed). */
async function readAtMost(handle: FileHandle, limit: number): Promise<Buffer | undefined> {
  const buffer = Buffer.alloc(limit + 1);
  let filled = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
    if (bytesRead === 0) return buffer.subarray(0, filled);
    filled += bytesRead;
    if (filled > limit) return undefined;
  }
}

function tooLarge() {
  return orielError('too_large', `The files come to more than ${Math.floor(UPLOAD_MAX_BYTES / 1024)} KiB, the most one upload carries.`, { next: 'upload fewer or smaller files' });
}

/**
 * Reads `paths` (relative to `folder`, or absolute inside it). No link is followed on the way below the folder (one
 * that points inside is refused too), a file with more than one hard link is refused, `..` cannot leave it, only regular files are read — a FIFO, socket or device is
 * refused without waiting on it — and everything is read within {@link UPLOAD_FILE_WORK_MS}. Error messages name
 * only what the agent named, never the folder's path.
 * @throws OrielError `operation_disabled` (no folder chosen, or it is not usable), `permission_denied` (outside the
 *   folder, a link, or a file with more than one hard link), `invalid_argument` (missing, not a regular file, too many), `too_large` (over
 *   {@link UPLOAD_MAX_BYTES}), `timeout` (the files did not answer in time), `cancelled`.
 */
export async function readUploadFiles(folder: string | undefined, paths: readonly string[], options: ReadUploadOptions = {}): Promise<UploadFileData[]> {
  if (!folder) {
    throw orielError('operation_disabled', 'Upload is off: the user has not chosen a folder agents may upload files from. They can choose one in Oriel\'s options ("Upload folder").', {
      next: 'ask the user to choose an upload folder in Oriel\'s options and put the files there',
    });
  }
  if (!path.isAbsolute(folder)) throw orielError('operation_disabled', 'The upload folder set in Oriel\'s options is not an absolute path; ask the user to correct it.');
  if (paths.length > UPLOAD_MAX_FILES) throw orielError('invalid_argument', `At most ${UPLOAD_MAX_FILES} files per upload.`);
  return inUploadSlot(async () => {
    const opened = await openFolder(folder, options.open).catch(() => {
      throw orielError('operation_disabled', 'The upload folder set in Oriel\'s options does not exist or is not a folder; ask the user to correct it.');
    });
    try {
      const out: UploadFileData[] = [];
      let left = UPLOAD_MAX_BYTES;
      for (const p of paths) {
        const parts = componentsOf(folder, opened.realRoot, p);
        const handle = await opened.openFile(parts);
        try {
          const stat = await handle.stat();
          // A hard link is the same file under another name, and its other names may be outside the folder (a link
          // to ~/.ssh/id_ed25519 made inside it): only a file with one name is known to be the person's to give.
          if (stat.nlink > 1) {
            throw orielError('permission_denied', `${JSON.stringify(p)} has ${stat.nlink} names (hard links): the same file may be elsewhere on the computer, outside the upload folder, so it is not sent.`, {
              next: 'ask the user to copy the file into the upload folder instead of linking it',
            });
          }
          const bytes = stat.size > left ? undefined : await readAtMost(handle, left);
          if (!bytes) throw tooLarge();
          left -= bytes.length;
          const name = parts.at(-1)!;
          out.push({ name, type: mime.getType(name) ?? 'application/octet-stream', data: bytes.toString('base64') });
        } finally {
          await handle.close();
        }
      }
      return out;
    } finally {
      await opened.close();
    }
  }, options.timeoutMs ?? UPLOAD_FILE_WORK_MS, options.signal);
}
