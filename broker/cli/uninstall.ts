// `oriel uninstall`: removes exactly what install.json lists (launcher, manifests, registry keys, empty folders it made).
import { existsSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { NATIVE_HOST_NAME } from '../../shared/protocol.js';
import { MANIFEST_FILE } from './browsers.js';
import type { SetupContext } from './context.js';
import { launcherPathIn } from './launcher.js';
import { INSTALL_RECORD_FILE, readInstallRecord, recordPath } from './record.js';
import { regDeleteArgs, regQueryArgs } from './registry.js';

/** What happened (or, in a dry run, would happen) to one listed item. */
export interface UninstallStep {
  kind: 'file' | 'registry' | 'dir';
  path: string;
  outcome: 'removed' | 'would_remove' | 'absent' | 'kept_not_empty' | 'refused' | 'failed';
  detail?: string;
}

/** Result of {@link uninstall}: whether an install record was found, and one step per listed item. */
export interface UninstallResult {
  recordFound: boolean;
  steps: UninstallStep[];
}

/** File names Oriel writes; a record naming anything else (a hand-edited install.json) is not followed. */
function isOurFile(file: string): boolean {
  const base = path.basename(file);
  return (
    base === MANIFEST_FILE ||
    base === INSTALL_RECORD_FILE ||
    base === 'native-host' ||
    base === 'native-host.cmd' ||
    /^dev\.oriel\.broker\.(?:chromium|firefox)\.json$/.test(base)
  );
}

function isOurKey(key: string): boolean {
  return key.startsWith('HKCU\\Software\\') && key.endsWith(`\\NativeMessagingHosts\\${NATIVE_HOST_NAME}`);
}

function removeFile(file: string, dryRun: boolean): UninstallStep {
  if (!isOurFile(file)) return { kind: 'file', path: file, outcome: 'refused', detail: 'not a file Oriel writes' };
  if (!existsSync(file)) return { kind: 'file', path: file, outcome: 'absent' };
  if (dryRun) return { kind: 'file', path: file, outcome: 'would_remove' };
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'file', path: file, outcome: 'absent' };
    throw err;
  }
  return { kind: 'file', path: file, outcome: 'removed' };
}

function removeDirIfEmpty(dir: string, dryRun: boolean): UninstallStep {
  if (!existsSync(dir)) return { kind: 'dir', path: dir, outcome: 'absent' };
  if (dryRun) return { kind: 'dir', path: dir, outcome: 'would_remove', detail: 'if empty' };
  try {
    rmdirSync(dir);
    return { kind: 'dir', path: dir, outcome: 'removed' };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'dir', path: dir, outcome: 'absent' };
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') return { kind: 'dir', path: dir, outcome: 'kept_not_empty' };
    throw err;
  }
}

async function removeKey(key: string, dryRun: boolean, ctx: SetupContext): Promise<UninstallStep> {
  if (!isOurKey(key)) return { kind: 'registry', path: key, outcome: 'refused', detail: 'not a key Oriel writes' };
  const query = await ctx.registry(regQueryArgs(key));
  if (query.code !== 0) return { kind: 'registry', path: key, outcome: 'absent' };
  if (dryRun) return { kind: 'registry', path: key, outcome: 'would_remove' };
  const result = await ctx.registry(regDeleteArgs(key));
  if (result.code !== 0) return { kind: 'registry', path: key, outcome: 'failed', detail: result.stderr.trim() || `reg.exe exited with ${result.code}` };
  return { kind: 'registry', path: key, outcome: 'removed' };
}

/**
 * Removes what install.json lists, then the launcher and install.json itself, then the folders the install
 * created if they are now empty. Running it again (or with nothing installed) changes nothing.
 */
export async function uninstall(options: { dryRun?: boolean }, ctx: SetupContext): Promise<UninstallResult> {
  const dryRun = options.dryRun ?? false;
  const record = readInstallRecord(ctx.dirs.data);
  const steps: UninstallStep[] = [];
  for (const key of record?.registry_keys ?? []) steps.push(await removeKey(key, dryRun, ctx));
  const files = new Set([...(record?.files ?? []), record?.launcher ?? launcherPathIn(ctx.dirs.data, ctx.os)]);
  for (const file of files) steps.push(removeFile(file, dryRun));
  steps.push(removeFile(recordPath(ctx.dirs.data), dryRun));
  const dirs = [...(record?.dirs ?? [])].sort((a, b) => b.length - a.length);
  for (const dir of dirs) steps.push(removeDirIfEmpty(dir, dryRun));
  return { recordFound: record !== undefined, steps };
}
