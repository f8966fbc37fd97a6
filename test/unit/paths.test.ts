// The hub's runtime folder (broker/common/paths.ts) with real files: the fallback in a shared temporary folder is
// checked with lstat, and a symlink, another user's folder or a folder open to others there is never used.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { ensurePrivateDir, hubMeeting, hubSocketCandidates, orielDirs, recordedHubSocket, runtimeDirIssue, runtimeDirMessage, RuntimeDirError, writeHubRecord } from '../../broker/common/paths.js';

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

describe('the meeting place, where relays of any environment find the hub', () => {
  it('depends on the home folder alone: XDG_RUNTIME_DIR, TMPDIR or XDG_STATE_HOME change nothing', () => {
    const home = path.join(tmp, 'home');
    const bare = hubMeeting({ HOME: home })!;
    expect(bare.dir).toBe(process.platform === 'darwin' ? path.join(home, 'Library', 'Application Support', 'oriel') : path.join(home, '.local', 'state', 'oriel'));
    expect(hubMeeting({ HOME: home, XDG_RUNTIME_DIR: path.join(tmp, 'xdg'), TMPDIR: path.join(tmp, 't'), XDG_STATE_HOME: path.join(tmp, 's') })).toEqual(bare);
    expect(bare.record).toBe(path.join(bare.dir, `hub-${os.hostname().replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64)}.json`));
    // An explicit runtime folder is the one address: no meeting place.
    expect(hubMeeting({ HOME: home, ORIEL_RUNTIME_DIR: path.join(tmp, 'rt') })).toBeUndefined();
  });

  it("makes a relay try the recorded hub's socket before its own", () => {
    const meeting = hubMeeting(env)!;
    ensurePrivateDir(meeting.dir);
    const elsewhere = path.join(tmp, 'xdg', 'oriel');
    mkdirSync(elsewhere, { recursive: true, mode: 0o700 });
    writeHubRecord(meeting, path.join(elsewhere, 'hub.sock'));
    expect(mode(meeting.record)).toBe(0o600);
    const dirs = orielDirs(env);
    expect(hubSocketCandidates(dirs, env)).toEqual([path.join(elsewhere, 'hub.sock'), path.join(dirs.runtime, 'hub.sock')]);
  });

  it('ignores a record naming a socket in a folder that is not private (a symlink, open to others), or malformed', () => {
    const meeting = hubMeeting(env)!;
    ensurePrivateDir(meeting.dir);
    const target = path.join(tmp, 'attacker');
    mkdirSync(target, { mode: 0o777 });
    chmodSync(target, 0o777);
    writeHubRecord(meeting, path.join(target, 'hub.sock'));
    expect(recordedHubSocket(meeting)).toBeUndefined();
    symlinkSync(target, path.join(tmp, 'link'));
    writeHubRecord(meeting, path.join(tmp, 'link', 'hub.sock'));
    expect(recordedHubSocket(meeting)).toBeUndefined();
    for (const text of ['not json', JSON.stringify({ socket: 'relative/hub.sock' }), JSON.stringify({ socket: 7 }), 'x'.repeat(5000)]) {
      writeFileSync(meeting.record, text);
      expect(recordedHubSocket(meeting)).toBeUndefined();
    }
    expect(hubSocketCandidates(orielDirs(env), env)).toEqual([path.join(orielDirs(env).runtime, 'hub.sock')]);
  });
});
