// install.json: what `oriel install` wrote (files, registry keys, folders it created), so `oriel uninstall` removes
// exactly that and `oriel doctor` knows which manifests to check.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SetupError } from './context.js';

/** File name of the record, in Oriel's data folder. */
export const INSTALL_RECORD_FILE = 'install.json';

export const InstallRecordSchema = z.object({
  version: z.literal(1),
  installed_at: z.string(),
  node: z.string(),
  cli: z.string(),
  extension_ids: z.object({ chromium: z.array(z.string()), firefox: z.array(z.string()) }),
  launcher: z.string(),
  /** Every registered place: browser (or `chromium-profile`), manifest shape, manifest file, Windows key. */
  targets: z.array(
    z.object({
      id: z.string(),
      family: z.enum(['chromium', 'firefox']),
      manifest: z.string(),
      registry_key: z.string().optional(),
    }),
  ),
  /** Files written (launcher and manifests). */
  files: z.array(z.string()),
  registry_keys: z.array(z.string()),
  /** Folders that did not exist before; uninstall removes them only when empty. */
  dirs: z.array(z.string()),
});
/** See {@link InstallRecordSchema}. */
export type InstallRecord = z.infer<typeof InstallRecordSchema>;

/** Path of install.json in `dataDir`. */
export function recordPath(dataDir: string): string {
  return path.join(dataDir, INSTALL_RECORD_FILE);
}

/**
 * Reads install.json, or `undefined` when there is none.
 * @throws SetupError when the file exists but is not a record this version understands.
 */
export function readInstallRecord(dataDir: string): InstallRecord | undefined {
  const file = recordPath(dataDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SetupError(`${file} is not valid JSON; remove the files it lists by hand, then delete it`);
  }
  const parsed = InstallRecordSchema.safeParse(json);
  if (!parsed.success) throw new SetupError(`${file} is not an install record this version of Oriel understands: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}

/** Writes `content` to `file` through a temporary file and a rename, so a reader never sees half a file. */
export function writeFileAtomic(file: string, content: string, mode: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode });
  renameSync(tmp, file);
}

/** Writes install.json into `dataDir` (which must exist). */
export function writeInstallRecord(dataDir: string, record: InstallRecord): void {
  writeFileAtomic(recordPath(dataDir), JSON.stringify(record, null, 2) + '\n', 0o644);
}

/** Union of two records: a second install adds to the first rather than forgetting what it wrote. */
export function mergeRecords(previous: InstallRecord | undefined, next: InstallRecord): InstallRecord {
  if (!previous) return next;
  const targets = [...previous.targets.filter((t) => !next.targets.some((n) => n.id === t.id && n.manifest === t.manifest)), ...next.targets];
  return {
    ...next,
    extension_ids: {
      chromium: [...new Set([...previous.extension_ids.chromium, ...next.extension_ids.chromium])],
      firefox: [...new Set([...previous.extension_ids.firefox, ...next.extension_ids.firefox])],
    },
    targets,
    files: [...new Set([...previous.files, ...next.files])],
    registry_keys: [...new Set([...previous.registry_keys, ...next.registry_keys])],
    dirs: [...new Set([...previous.dirs, ...next.dirs])],
  };
}
