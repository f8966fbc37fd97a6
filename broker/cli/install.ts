// `oriel install`: plans and writes the launcher, the host manifests and (Windows) the registry keys, and records them.
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { selectTargets, type BrowserName, type Target } from './browsers.js';
import { SetupError, type SetupContext } from './context.js';
import { launcherPathIn, renderLauncher } from './launcher.js';
import { buildHostManifest, extensionIds, manifestText, mergeIds, type ExtensionIds } from './manifests.js';
import { mergeRecords, readInstallRecord, recordPath, writeFileAtomic, writeInstallRecord, type InstallRecord } from './record.js';
import { regAddArgs } from './registry.js';

/** Options of `oriel install`. */
export interface InstallOptions {
  browsers?: BrowserName[];
  all?: boolean;
  chromiumProfile?: string;
  /** Extra extension ids to allow (`--extension-id`). */
  extensionIds?: string[];
}

/** One file the install writes. */
export interface PlannedFile {
  path: string;
  role: 'launcher' | 'manifest';
  content: string;
  mode: number;
  /** For a manifest: the targets that read it. */
  targets: string[];
}

/** One Windows registry key the install sets; `args` is the exact `reg.exe` command line. */
export interface PlannedKey {
  key: string;
  value: string;
  target: string;
  args: string[];
}

/** Everything an install would do; {@link applyInstall} does it, `--dry-run` only prints it. */
export interface InstallPlan {
  targets: Target[];
  ids: ExtensionIds;
  launcher: string;
  files: PlannedFile[];
  registry: PlannedKey[];
  /** Folders to create (they do not exist yet), outermost first. */
  dirs: string[];
  recordPath: string;
  /** install.json as it will be after this install (merged with the previous record). */
  record: InstallRecord;
}

/** Folders from `dir` up that do not exist, outermost first. */
function missingDirs(dir: string): string[] {
  const missing: string[] = [];
  let current = path.resolve(dir);
  while (!existsSync(current)) {
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return missing;
}

/**
 * Works out what `oriel install` would write, without touching anything.
 * @throws SetupError when no browser is selected or found, an extension id is malformed, or the CLI is not a bundle.
 */
export function planInstall(options: InstallOptions, ctx: SetupContext): InstallPlan {
  if (!/\.(?:mjs|cjs|js)$/.test(ctx.cliPath)) {
    throw new SetupError(`the launcher must run the built CLI (dist/broker/oriel.mjs), not ${ctx.cliPath}: build it, then run \`node dist/broker/oriel.mjs install\``);
  }
  const previous = readInstallRecord(ctx.dirs.data);
  const ids = previous ? mergeIds(extensionIds(options.extensionIds), previous.extension_ids) : extensionIds(options.extensionIds);
  const targets = selectTargets(options, ctx);
  if (targets.length === 0) {
    throw new SetupError('no supported browser found (Chrome, Chromium, Edge, Brave, Vivaldi, Firefox): choose one with --browser <name>, or use --all');
  }
  const launcher = launcherPathIn(ctx.dirs.data, ctx.os);
  const files: PlannedFile[] = [
    { path: launcher, role: 'launcher', content: renderLauncher({ os: ctx.os, nodePath: ctx.nodePath, cliPath: ctx.cliPath, ids }), mode: 0o755, targets: [] },
  ];
  for (const target of targets) {
    const existing = files.find((f) => f.path === target.manifestPath);
    if (existing) {
      existing.targets.push(target.id);
      continue;
    }
    const content = manifestText(buildHostManifest(target.family, launcher, ids));
    files.push({ path: target.manifestPath, role: 'manifest', content, mode: 0o644, targets: [target.id] });
  }
  const registry: PlannedKey[] = targets
    .filter((t): t is Target & { registryKey: string } => t.registryKey !== undefined)
    .map((t) => ({ key: t.registryKey, value: t.manifestPath, target: t.id, args: regAddArgs(t.registryKey, t.manifestPath) }));
  const dirs = [...new Set(files.flatMap((f) => missingDirs(path.dirname(f.path))))];

  const record = mergeRecords(previous, {
    version: 1,
    installed_at: new Date().toISOString(),
    node: ctx.nodePath,
    cli: ctx.cliPath,
    extension_ids: ids,
    launcher,
    targets: targets.map((t) => ({ id: t.id, family: t.family, manifest: t.manifestPath, ...(t.registryKey ? { registry_key: t.registryKey } : {}) })),
    files: files.map((f) => f.path),
    registry_keys: registry.map((r) => r.key),
    dirs,
  });
  return { targets, ids, launcher, files, registry, dirs, recordPath: recordPath(ctx.dirs.data), record };
}

/**
 * Carries out a plan. install.json is written first, so that whatever happens next `oriel uninstall` can clean up.
 * @throws SetupError when a registry key cannot be set.
 */
export async function applyInstall(plan: InstallPlan, ctx: SetupContext): Promise<void> {
  const data = path.resolve(ctx.dirs.data);
  // The data folder (launcher, logs) is private; browsers' folders get the usual mode.
  for (const dir of plan.dirs) mkdirSync(dir, { recursive: true, mode: dir === data ? 0o700 : 0o755 });
  mkdirSync(data, { recursive: true, mode: 0o700 });
  writeInstallRecord(ctx.dirs.data, plan.record);
  for (const file of plan.files) {
    writeFileAtomic(file.path, file.content, file.mode);
    if (ctx.os !== 'win32') chmodSync(file.path, file.mode);
  }
  for (const key of plan.registry) {
    const result = await ctx.registry(key.args);
    if (result.code !== 0) throw new SetupError(`could not set registry key ${key.key}: ${result.stderr.trim() || `reg.exe exited with ${result.code}`}`);
  }
}
