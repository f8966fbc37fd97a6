// Windows registry access for native-host registration: the `reg.exe` command lines install, uninstall and doctor run.
import { execFile } from 'node:child_process';
import path from 'node:path';

/** What one `reg.exe` run returned. */
export interface RegResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `reg.exe` with the given arguments (never through a shell). Tests pass a recorder instead. */
export type RegistryRunner = (args: string[]) => Promise<RegResult>;

/** Arguments that set `key`'s default value to the manifest path, creating the key (`/f`: no prompt). */
export function regAddArgs(key: string, manifestPath: string): string[] {
  return ['add', key, '/ve', '/t', 'REG_SZ', '/d', manifestPath, '/f'];
}

/** Arguments that delete `key` and its values without prompting. */
export function regDeleteArgs(key: string): string[] {
  return ['delete', key, '/f'];
}

/** Arguments that print `key`'s default value (exit code 1 when the key does not exist). */
export function regQueryArgs(key: string): string[] {
  return ['query', key, '/ve'];
}

/** Reads the default value out of `reg query <key> /ve` output, e.g. `    (Default)    REG_SZ    C:\x.json`. */
export function parseRegDefault(stdout: string): string | undefined {
  for (const line of stdout.split(/\r?\n/)) {
    const m = /^\s+\S.*?\s+REG_(?:EXPAND_)?SZ\s+(.*)$/.exec(line);
    if (m?.[1]) return m[1].trim();
  }
  return undefined;
}

/** The real runner: `%SystemRoot%\System32\reg.exe`, so a `reg` earlier on PATH cannot stand in for it. */
export const systemRegistry: RegistryRunner = (args) =>
  new Promise((resolve) => {
    const exe = path.win32.join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'reg.exe');
    execFile(exe, args, { windowsHide: true, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr: stderr || (error && typeof error.code !== 'number' ? error.message : '') });
    });
  });
