// Reading the files an agent uploads (the `upload` tool): only regular files inside the folder the person chose in
// Oriel's options, resolved through every symbolic link, bounded in number and size. Used by context.ts.
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime';
import { orielError } from '../../shared/errors.js';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_FILES } from '../../shared/input-ops.js';

/** One file read for upload: its name (no folders), MIME type and bytes in base64. */
export interface UploadFileData {
  name: string;
  type: string;
  data: string;
}

/** Whether `inner` is `root` or inside it (both already real paths). */
function within(root: string, inner: string): boolean {
  const rel = path.relative(root, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Reads `paths` (relative to `folder`, or absolute inside it). Every path is resolved through its symbolic links and
 * must stay inside the folder's own real path, so `..`, absolute paths elsewhere and links pointing out are refused;
 * the file is then opened without following a link and checked to be the one resolved. Error messages name only the
 * file's base name, never a path.
 * @throws OrielError `operation_disabled` (no folder chosen, or it is not usable), `permission_denied` (outside the
 *   folder), `invalid_argument` (missing, not a regular file, too many), `too_large` (over {@link UPLOAD_MAX_BYTES}).
 */
export async function readUploadFiles(folder: string | undefined, paths: readonly string[]): Promise<UploadFileData[]> {
  if (!folder) {
    throw orielError('operation_disabled', 'Upload is off: the user has not chosen a folder agents may upload files from. They can choose one in Oriel\'s options ("Upload folder").', {
      next: 'ask the user to choose an upload folder in Oriel\'s options and put the files there',
    });
  }
  if (!path.isAbsolute(folder)) throw orielError('operation_disabled', 'The upload folder set in Oriel\'s options is not an absolute path; ask the user to correct it.');
  let root: string;
  try {
    root = await realpath(folder);
    if (!(await stat(root)).isDirectory()) throw new Error('not a folder');
  } catch {
    throw orielError('operation_disabled', 'The upload folder set in Oriel\'s options does not exist or is not a folder; ask the user to correct it.');
  }
  if (paths.length > UPLOAD_MAX_FILES) throw orielError('invalid_argument', `At most ${UPLOAD_MAX_FILES} files per upload.`);
  const out: UploadFileData[] = [];
  let total = 0;
  for (const p of paths) {
    const name = path.basename(p);
    const candidate = path.resolve(root, p);
    let real: string;
    try {
      real = await realpath(candidate);
    } catch {
      throw orielError('invalid_argument', `There is no file "${name}" in the upload folder. Name files relative to that folder.`);
    }
    if (!within(root, real)) {
      throw orielError('permission_denied', `"${name}" is outside the folder the user allows uploads from (links and ".." cannot leave it).`, { next: 'upload only files inside the upload folder' });
    }
    const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
    if (!handle) throw orielError('invalid_argument', `"${name}" cannot be opened.`);
    try {
      const info = await handle.stat();
      const again = await stat(real);
      // The file opened must be the file resolved (nothing swapped in between).
      if (!info.isFile() || info.ino !== again.ino || info.dev !== again.dev) throw orielError('invalid_argument', `"${name}" is not a regular file.`);
      total += info.size;
      if (total > UPLOAD_MAX_BYTES) {
        throw orielError('too_large', `The files come to more than ${Math.floor(UPLOAD_MAX_BYTES / 1024)} KiB, the most one upload carries.`, { next: 'upload fewer or smaller files' });
      }
      const bytes = await handle.readFile();
      out.push({ name, type: mime.getType(real) ?? 'application/octet-stream', data: bytes.toString('base64') });
    } finally {
      await handle.close();
    }
  }
  return out;
}
