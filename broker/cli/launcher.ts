// The native-host launcher: the small script a host manifest points at, which runs `oriel native-host` with the
// Node that did the install. Rendered here, written by install.ts, run by doctor.ts (the host side is broker/native-host).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import { FrameDecoder } from '../../shared/framing.js';
import type { HostOs } from './context.js';
import type { ExtensionIds } from './manifests.js';

/** Environment variable that asks the native host for one `check` frame instead of relaying. */
export const NATIVE_HOST_CHECK_ENV = 'ORIEL_NATIVE_HOST_CHECK';

/** The frame the native host answers {@link NATIVE_HOST_CHECK_ENV} with. */
export const CheckFrameSchema = z.object({
  t: z.literal('check'),
  ok: z.boolean(),
  version: z.string().max(80).optional(),
  error: z.string().max(2000).optional(),
});

/** Where the launcher lives: `<data>/native-host` on POSIX, `<data>\native-host.cmd` on Windows. */
export function launcherPathIn(dataDir: string, os: HostOs): string {
  return path.join(dataDir, os === 'win32' ? 'native-host.cmd' : 'native-host');
}

/** Quotes one word for POSIX sh: single quotes, with each embedded `'` written as `'\''`. */
export function shQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Quotes one word for a `.cmd` file: double quotes, `%` doubled so cmd does not expand it. Windows paths hold no `"`. */
export function cmdQuote(word: string): string {
  return `"${word.replace(/%/g, '%%')}"`;
}

/** What the launcher runs. */
export interface LauncherSpec {
  os: HostOs;
  nodePath: string;
  cliPath: string;
  ids: ExtensionIds;
}

/** The ids as one `--allowed-ids` value: Chromium ids, then Gecko ids, comma-separated. */
export function allowedIdsArg(ids: ExtensionIds): string {
  return [...ids.chromium, ...ids.firefox].join(',');
}

/** The launcher's text for `spec.os`; the browser's own arguments are passed on after `--`. */
export function renderLauncher(spec: LauncherSpec): string {
  const ids = allowedIdsArg(spec.ids);
  if (spec.os === 'win32') {
    return [
      '@echo off',
      'rem Oriel native messaging host launcher, written by `oriel install` (`oriel uninstall` removes it).',
      `${cmdQuote(spec.nodePath)} ${cmdQuote(spec.cliPath)} native-host --allowed-ids ${cmdQuote(ids)} -- %*`,
      '',
    ].join('\r\n');
  }
  return [
    '#!/bin/sh',
    '# Oriel native messaging host launcher, written by `oriel install` (`oriel uninstall` removes it).',
    '# The browser starts this file; it runs the Node and the Oriel CLI that did the install.',
    `exec ${shQuote(spec.nodePath)} ${shQuote(spec.cliPath)} native-host --allowed-ids ${shQuote(ids)} -- "$@"`,
    '',
  ].join('\n');
}

/** The ids a launcher written by {@link renderLauncher} allows, or `undefined` for a launcher of another shape. */
export function parseLauncherIds(text: string): string[] | undefined {
  const m = /--allowed-ids (?:'([^']*)'|"([^"]*)")/.exec(text);
  const value = m?.[1] ?? m?.[2];
  return value === undefined ? undefined : value.split(',').filter(Boolean);
}

/** Outcome of running a launcher in check mode. */
export type LauncherCheck = { status: 'ok'; version: string } | { status: 'failed'; reason: string };

const STDOUT_CAP = 64 * 1024;
const STDERR_CAP = 2000;

function tail(text: string): string {
  const t = text.trim();
  return t.length > 400 ? '…' + t.slice(-400) : t;
}

/**
 * Starts the launcher as a browser would (with `args`, stdin closed) but with {@link NATIVE_HOST_CHECK_ENV}=1, and
 * expects exactly one `check` frame with `ok: true` on stdout and exit code 0.
 */
export function runLauncherCheck(launcher: string, args: string[], options: { env: NodeJS.ProcessEnv; timeoutMs: number; os: HostOs }): Promise<LauncherCheck> {
  const env = { ...options.env, [NATIVE_HOST_CHECK_ENV]: '1' };
  const child =
    options.os === 'win32' && /\.(?:cmd|bat)$/i.test(launcher)
      ? spawn(options.env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', `"${[launcher, ...args].map((a) => `"${a}"`).join(' ')}"`], {
          env,
          windowsVerbatimArguments: true,
          windowsHide: true,
        })
      : spawn(launcher, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let settled = false;
    const finish = (result: LauncherCheck) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ status: 'failed', reason: `it did not answer within ${options.timeoutMs} ms${stderr ? `; stderr: ${tail(stderr)}` : ''}` });
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdoutBytes < STDOUT_CAP) stdout.push(chunk);
      stdoutBytes += chunk.byteLength;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_CAP) stderr += chunk.toString('utf8');
    });
    child.stdin.on('error', () => {}); // the host may exit before we close its stdin
    child.stdin.end();
    child.on('error', (err) => finish({ status: 'failed', reason: `it could not be started (${err.message})` }));
    child.on('close', (code, signal) => {
      if (code !== 0) {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        return finish({ status: 'failed', reason: `it ${how}${stderr ? `; stderr: ${tail(stderr)}` : ''}` });
      }
      finish(judgeOutput(Buffer.concat(stdout)));
    });
  });
}

/** Decides whether the host's stdout was exactly one successful `check` frame. */
export function judgeOutput(bytes: Uint8Array): LauncherCheck {
  const decoder = new FrameDecoder(STDOUT_CAP);
  const frames = decoder.push(bytes);
  if (frames.length === 0) return { status: 'failed', reason: 'it exited without writing a native-messaging frame on stdout' };
  if (frames.length > 1 || decoder.pendingBytes > 0) return { status: 'failed', reason: 'it wrote more than the one check frame on stdout (stdout must carry frames only)' };
  const frame = frames[0]!;
  if (frame.kind !== 'frame') return { status: 'failed', reason: `its stdout was not a valid frame (${frame.kind})` };
  const check = CheckFrameSchema.safeParse(frame.value);
  if (!check.success) return { status: 'failed', reason: `it answered ${JSON.stringify(frame.value).slice(0, 200)} instead of a check frame` };
  if (!check.data.ok) return { status: 'failed', reason: `it reported a problem: ${check.data.error ?? 'no detail'}` };
  return { status: 'ok', version: check.data.version ?? 'unknown' };
}
