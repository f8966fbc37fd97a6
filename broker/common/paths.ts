// Where the broker keeps its files: the hub socket's private folder, per-user data (launcher, logs) and config.
// The runtime folder is checked with lstat before use, because its fallback lives in a temporary folder other users
// can write to (a symlink or a folder planted there must not receive the hub's socket).
import envPaths from 'env-paths';
import { mkdirSync, chmodSync, lstatSync, readFileSync, writeFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const app = envPaths('oriel', { suffix: '' });

/**
 * Folders Oriel uses. Each can be overridden by an environment variable (tests use these to stay out of $HOME):
 * - `runtime` (`ORIEL_RUNTIME_DIR`): holds the hub socket and lock; created 0700. Default `$XDG_RUNTIME_DIR/oriel`,
 *   else `<tmpdir>/oriel-<uid>` (tmpdir from `TMPDIR`) when that is absent or a private folder of this user, else
 *   the private fallback `<data>/run` (see {@link RuntimeFallback}).
 * - `data` (`ORIEL_DATA_DIR`): the native-host launcher and logs. Default: env-paths data folder.
 * - `config` (`ORIEL_CONFIG_DIR`): `config.json`. Default: env-paths config folder.
 */
export interface OrielDirs {
  runtime: string;
  data: string;
  config: string;
  /** Set when the shared temporary folder was refused and `runtime` is the private fallback instead. */
  fallback?: RuntimeFallback;
}

/** Why the runtime folder in the shared temporary folder was not used. */
export interface RuntimeFallback {
  /** The refused folder, e.g. `/tmp/oriel-1000`. */
  refused: string;
  /** What is wrong with it, e.g. "is a symbolic link". */
  problem: string;
}

function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/**
 * What makes `dir` unfit to hold the hub socket, judged by lstat (a symlink is never followed): not a folder, a
 * symbolic link, owned by another user, or open to group/others (`loose` says only the mode is wrong). `undefined`
 * when it is fine or does not exist yet.
 */
export function privateDirProblem(dir: string): { problem: string; loose: boolean } | undefined {
  if (process.platform === 'win32') return undefined;
  let st;
  try {
    st = lstatSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { problem: `cannot be checked (${(err as NodeJS.ErrnoException).code ?? String(err)})`, loose: false };
  }
  if (st.isSymbolicLink()) return { problem: 'is a symbolic link', loose: false };
  if (!st.isDirectory()) return { problem: 'is not a folder', loose: false };
  const uid = currentUid();
  if (uid !== undefined && st.uid !== uid) return { problem: `belongs to another user (uid ${st.uid})`, loose: false };
  if ((st.mode & 0o077) !== 0) return { problem: `is open to other users (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')})`, loose: true };
  return undefined;
}

export function orielDirs(env: NodeJS.ProcessEnv = process.env): OrielDirs {
  const data = env.ORIEL_DATA_DIR ?? app.data;
  const config = env.ORIEL_CONFIG_DIR ?? app.config;
  if (env.ORIEL_RUNTIME_DIR) return { runtime: env.ORIEL_RUNTIME_DIR, data, config };
  if (env.XDG_RUNTIME_DIR) return { runtime: path.join(env.XDG_RUNTIME_DIR, 'oriel'), data, config };
  const uid = currentUid() ?? os.userInfo().username;
  const shared = path.join(env.TMPDIR || os.tmpdir(), `oriel-${uid}`);
  // Anyone can create this name first: whatever is there must be this user's own private folder, else go private.
  const found = privateDirProblem(shared);
  if (!found) return { runtime: shared, data, config };
  return { runtime: path.join(data, 'run'), data, config, fallback: { refused: shared, problem: found.problem } };
}

/** Path of the hub's socket: a Unix socket in the runtime folder, or a per-user named pipe on Windows. */
export function hubSocketPath(dirs: OrielDirs = orielDirs()): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\oriel-hub-${os.userInfo().username}`;
  return path.join(dirs.runtime, 'hub.sock');
}

/**
 * Where every Oriel process of this user finds the running hub, whatever environment it was started with: a folder
 * derived from the home folder alone (MCP clients start `oriel mcp` with little more than `HOME`, while the browser
 * starts the native host with the desktop session's `XDG_RUNTIME_DIR` or macOS's per-user `TMPDIR`, so the runtime
 * folder itself can differ between them). It holds the hub's lock (one hub per user and host) and its address
 * record. `ORIEL_DATA_DIR`, when set, is used instead (tests); with `ORIEL_RUNTIME_DIR` set, or on Windows (a
 * per-user named pipe), there is none: that folder, or the pipe, is the one meeting place.
 * - Linux and other Unix: `$HOME/.local/state/oriel` (the XDG state folder's default, `XDG_STATE_HOME` deliberately
 *   not read); macOS: `$HOME/Library/Application Support/oriel`.
 */
export interface HubMeeting {
  /** The folder, created 0700 and checked like the runtime folder. */
  dir: string;
  /** The lock the hub holds while it runs (proper-lockfile target; the lock is `<lock>.lock`). */
  lock: string;
  /** JSON `{socket, pid}` written by the running hub. */
  record: string;
}

/** The {@link HubMeeting} of this user and host, or `undefined` when the runtime folder or pipe is the meeting place. */
export function hubMeeting(env: NodeJS.ProcessEnv = process.env): HubMeeting | undefined {
  if (env.ORIEL_RUNTIME_DIR || process.platform === 'win32') return undefined;
  const home = env.HOME || os.userInfo().homedir;
  const dir = env.ORIEL_DATA_DIR || (process.platform === 'darwin' ? path.join(home, 'Library', 'Application Support', 'oriel') : path.join(home, '.local', 'state', 'oriel'));
  // A home folder may be shared by several machines (NFS): each host has its own hub.
  const host = os.hostname().replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'localhost';
  return { dir, lock: path.join(dir, `hub-${host}`), record: path.join(dir, `hub-${host}.json`) };
}

/** Largest address record read, bytes. */
const RECORD_MAX_BYTES = 4096;

/**
 * The socket the running hub recorded in `meeting`, when the record is well formed and names a socket in a folder
 * that is private to this user (checked with lstat, as the runtime folder is). `undefined` otherwise: a missing,
 * oversized or foreign record is ignored, never followed.
 */
export function recordedHubSocket(meeting: HubMeeting): string | undefined {
  if (privateDirProblem(meeting.dir)) return undefined;
  let text: string;
  try {
    text = readFileSync(meeting.record, 'utf8');
  } catch {
    return undefined;
  }
  if (text.length > RECORD_MAX_BYTES) return undefined;
  let socket: unknown;
  try {
    socket = (JSON.parse(text) as { socket?: unknown }).socket;
  } catch {
    return undefined;
  }
  if (typeof socket !== 'string' || !path.isAbsolute(socket) || socket.length > 1024) return undefined;
  const dir = path.dirname(socket);
  try {
    lstatSync(dir);
  } catch {
    return undefined;
  }
  return privateDirProblem(dir) ? undefined : socket;
}

/** Writes the address record of the hub listening on `socket` (mode 0600, replaced atomically). */
export function writeHubRecord(meeting: HubMeeting, socket: string, pid: number = process.pid): void {
  const temp = `${meeting.record}.${pid}.tmp`;
  writeFileSync(temp, JSON.stringify({ socket, pid }), { mode: 0o600 });
  renameSync(temp, meeting.record);
}

/** Removes the address record when it still names `socket` (a later hub's record is left alone). */
export function removeHubRecord(meeting: HubMeeting, socket: string): void {
  if (recordedHubSocket(meeting) === socket) rmSync(meeting.record, { force: true });
}

/**
 * The sockets to try for the running hub, in order, without duplicates: the one recorded in the meeting place, then
 * this process's own {@link hubSocketPath}.
 */
export function hubSocketCandidates(dirs: OrielDirs, env: NodeJS.ProcessEnv = process.env): string[] {
  const meeting = hubMeeting(env);
  const recorded = meeting && recordedHubSocket(meeting);
  const own = hubSocketPath(dirs);
  return recorded && recorded !== own ? [recorded, own] : [own];
}

/** The machine-wide folders other environments put a runtime folder in; tests point them at a temporary folder. */
export interface SystemFolders {
  /** Parent of the per-user runtime folders systemd makes (`/run/user`). */
  runUser: string;
  /** The shared temporary folder a process without `TMPDIR` uses (`/tmp`). */
  tmp: string;
}

/** The real {@link SystemFolders}. */
export const SYSTEM_FOLDERS: SystemFolders = { runUser: '/run/user', tmp: '/tmp' };

/**
 * Every socket a hub of this user could listen on, whichever environment started it: the candidates above plus the
 * runtime folders other environments derive (`$XDG_RUNTIME_DIR/oriel`, `/run/user/<uid>/oriel`, `<TMPDIR or
 * os.tmpdir()>/oriel-<uid>`, `/tmp/oriel-<uid>`, `<data>/run`). `oriel doctor` asks each to find a second hub.
 */
export function possibleHubSockets(dirs: OrielDirs, env: NodeJS.ProcessEnv = process.env, system: SystemFolders = SYSTEM_FOLDERS): string[] {
  if (process.platform === 'win32' || env.ORIEL_RUNTIME_DIR) return hubSocketCandidates(dirs, env);
  const uid = currentUid() ?? os.userInfo().username;
  const folders = [
    env.XDG_RUNTIME_DIR && path.join(env.XDG_RUNTIME_DIR, 'oriel'),
    path.join(system.runUser, String(uid), 'oriel'),
    path.join(env.TMPDIR || os.tmpdir(), `oriel-${uid}`),
    path.join(system.tmp, `oriel-${uid}`),
    path.join(dirs.data, 'run'),
  ].filter((f): f is string => !!f && !privateDirProblem(f)); // another user's folder or a symlink is not asked
  return [...new Set([...hubSocketCandidates(dirs, env), ...folders.map((f) => path.join(f, 'hub.sock'))])];
}

/** What to do when the runtime folder cannot be used (said by the error and by `oriel doctor`, word for word). */
export const RUNTIME_DIR_FIX = 'set ORIEL_RUNTIME_DIR (or XDG_RUNTIME_DIR) to a folder only you can use (mode 0700), or remove the one named';

/**
 * The sentence the hub, the relays and `oriel doctor` all give when the runtime folder `dir` cannot be used.
 * @param problem - from {@link privateDirProblem}.
 */
export function runtimeDirMessage(dir: string, problem: string): string {
  return `The Oriel runtime folder ${dir} ${problem}, so the hub will not put its socket there: ${RUNTIME_DIR_FIX}.`;
}

/** The runtime folder cannot be used; the message is {@link runtimeDirMessage}. */
export class RuntimeDirError extends Error {
  override name = 'RuntimeDirError';
}

/**
 * Creates the runtime folder with mode 0700 (its parent too when missing) and checks it with lstat: a symlink, a
 * non-folder or another user's folder is refused; this user's own folder with loose modes is made 0700.
 * @throws RuntimeDirError with {@link runtimeDirMessage} when the folder cannot be used.
 */
export function ensurePrivateDir(dir: string): void {
  if (process.platform === 'win32') {
    mkdirSync(dir, { recursive: true });
    return;
  }
  const before = privateDirProblem(dir);
  if (before && !before.loose) throw new RuntimeDirError(runtimeDirMessage(dir, before.problem));
  try {
    mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new RuntimeDirError(runtimeDirMessage(dir, `cannot be created (${(err as NodeJS.ErrnoException).code ?? String(err)})`));
  }
  // Checked again after creating: someone may have put something there in between.
  const after = privateDirProblem(dir);
  if (after && !after.loose) throw new RuntimeDirError(runtimeDirMessage(dir, after.problem));
  if (after?.loose) chmodSync(dir, 0o700);
}

/**
 * Whether the hub can use the runtime folder of `dirs`, without creating anything: the {@link runtimeDirMessage}
 * that {@link ensurePrivateDir} would throw, or `undefined`.
 */
export function runtimeDirIssue(dirs: OrielDirs): string | undefined {
  if (process.platform === 'win32') return undefined;
  const found = privateDirProblem(dirs.runtime);
  return found && !found.loose ? runtimeDirMessage(dirs.runtime, found.problem) : undefined;
}
