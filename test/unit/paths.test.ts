// The hub's runtime folder (broker/common/paths.ts) with real files: the fallback in a shared temporary folder is
// checked with lstat, and a symlink, another user's folder or a folder open to others there is never used.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir, orielDirs, runtimeDirIssue, runtimeDirMessage, RuntimeDirError } from '../../broker/common/paths.js';

const uid = process.getuid!();
/** Another user's id for planting folders; only root can hand a folder to someone else. */
const OTHER_UID = 65534;
const asRoot = uid === 0;

let tmp: string;
let env: NodeJS.ProcessEnv;
let shared: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'oriel-paths-'));
  mkdirSync(path.join(tmp, 'shared-tmp'), { mode: 0o1777 });
  // As in a session without XDG_RUNTIME_DIR: the runtime folder falls back to TMPDIR.
  env = { TMPDIR: path.join(tmp, 'shared-tmp'), ORIEL_DATA_DIR: path.join(tmp, 'data'), ORIEL_CONFIG_DIR: path.join(tmp, 'config') };
  shared = path.join(tmp, 'shared-tmp', `oriel-${uid}`);
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

function mode(p: string): number {
  return lstatSync(p).mode & 0o777;
}

describe('the runtime folder in a shared temporary folder', () => {
  it('is <tmpdir>/oriel-<uid> while nothing is there, and is created private', () => {
    const dirs = orielDirs(env);
    expect(dirs.runtime).toBe(shared);
    expect(dirs.fallback).toBeUndefined();
    ensurePrivateDir(dirs.runtime);
    expect(lstatSync(shared).isDirectory()).toBe(true);
    expect(mode(shared)).toBe(0o700);
    // Once it is ours and private, every later process picks the same folder.
    expect(orielDirs(env).runtime).toBe(shared);
  });

  it('refuses a symlink planted there and uses the private fallback; the link target is left alone', () => {
    const target = path.join(tmp, 'attacker');
    mkdirSync(target, { mode: 0o777 });
    chmodSync(target, 0o777);
    symlinkSync(target, shared);
    const dirs = orielDirs(env);
    expect(dirs.runtime).toBe(path.join(tmp, 'data', 'run'));
    expect(dirs.fallback).toEqual({ refused: shared, problem: 'is a symbolic link' });
    ensurePrivateDir(dirs.runtime);
    expect(mode(dirs.runtime)).toBe(0o700);
    expect(runtimeDirIssue(dirs)).toBeUndefined();
    expect(readdirSync(target)).toEqual([]);
    expect(mode(target)).toBe(0o777);
  });

  it.skipIf(!asRoot)('refuses a folder another user owns there and uses the private fallback', () => {
    mkdirSync(shared, { mode: 0o700 });
    chownSync(shared, OTHER_UID, OTHER_UID);
    const dirs = orielDirs(env);
    expect(dirs.runtime).toBe(path.join(tmp, 'data', 'run'));
    expect(dirs.fallback).toEqual({ refused: shared, problem: `belongs to another user (uid ${OTHER_UID})` });
    ensurePrivateDir(dirs.runtime);
    expect(lstatSync(shared).uid).toBe(OTHER_UID);
  });

  it('refuses its own folder when others may write in it (files may have been planted) and does not chmod it', () => {
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const dirs = orielDirs(env);
    expect(dirs.fallback).toEqual({ refused: shared, problem: 'is open to other users (mode 0777)' });
    expect(mode(shared)).toBe(0o777);
  });

  it('fails with the message doctor repeats when even the private fallback is a symlink', () => {
    symlinkSync(path.join(tmp, 'elsewhere'), shared);
    mkdirSync(path.join(tmp, 'data'));
    symlinkSync(path.join(tmp, 'elsewhere'), path.join(tmp, 'data', 'run'));
    const dirs = orielDirs(env);
    const message = runtimeDirMessage(path.join(tmp, 'data', 'run'), 'is a symbolic link');
    expect(runtimeDirIssue(dirs)).toBe(message);
    expect(() => ensurePrivateDir(dirs.runtime)).toThrow(new RuntimeDirError(message));
    expect(existsSync(path.join(tmp, 'elsewhere'))).toBe(false);
  });
});

describe('an explicit runtime folder (ORIEL_RUNTIME_DIR)', () => {
  it('is used as given; a symlink is refused with the shared message, loose modes of its own are tightened', () => {
    const explicit = path.join(tmp, 'explicit');
    symlinkSync(path.join(tmp, 'data'), explicit);
    const dirs = orielDirs({ ...env, ORIEL_RUNTIME_DIR: explicit });
    expect(dirs.runtime).toBe(explicit);
    expect(() => ensurePrivateDir(explicit)).toThrow(runtimeDirMessage(explicit, 'is a symbolic link'));
    rmSync(explicit);
    mkdirSync(explicit);
    chmodSync(explicit, 0o755);
    ensurePrivateDir(explicit);
    expect(mode(explicit)).toBe(0o700);
  });
});
