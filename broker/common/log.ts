// Logging for broker processes: always stderr (stdout of the native host and of `oriel mcp` carry protocol only).
// Fields often carry words from outside (client names, page titles): control and bidi characters are escaped, so a
// log line reads as it was written. The hub's stderr is its log file, kept to a bounded size while it runs
// ({@link limitLogFile}).
import { copyFileSync, fstatSync, ftruncateSync, statSync } from 'node:fs';
import { escapeBare, escapeJson } from '../../shared/snapshot/escape.js';

/** Log levels in increasing severity. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
const threshold = ORDER[(process.env.ORIEL_LOG_LEVEL as LogLevel) ?? 'info'] ?? 1;

/** Largest log file kept, bytes: past it the file is moved to `<file>.1` (replacing the one before). */
export const MAX_LOG_BYTES = 5 * 1024 * 1024;
/** Longest string field logged, characters (an error message can quote a whole malformed input). */
const MAX_FIELD_CHARS = 300;
/** How many bytes are logged between two looks at the log file's size. */
const CHECK_EVERY_BYTES = 64 * 1024;

/** The file stderr writes to, when it is bounded: its path, its limit, and bytes written since the last look. */
let bounded: { file: string; maxBytes: number; sinceCheck: number } | undefined;

/**
 * Keeps the file that stderr (fd 2) appends to under `maxBytes` while the process runs: when it grows past, its
 * content is copied to `<file>.1` and the file is truncated in place (logrotate's "copytruncate"; stderr cannot be
 * reopened, and a crash trace written straight to fd 2 lands in the same file). Does nothing when stderr is not
 * `file` (a terminal, a pipe, another file).
 * @returns whether stderr is `file` and is now bounded.
 */
export function limitLogFile(file: string, maxBytes: number = MAX_LOG_BYTES): boolean {
  try {
    const fd = fstatSync(2);
    const named = statSync(file);
    if (!fd.isFile() || fd.ino !== named.ino || fd.dev !== named.dev) return false;
  } catch {
    return false;
  }
  bounded = { file, maxBytes, sinceCheck: CHECK_EVERY_BYTES };
  rotateIfFull(0);
  return true;
}

function rotateIfFull(written: number): void {
  if (!bounded) return;
  bounded.sinceCheck += written;
  if (bounded.sinceCheck < CHECK_EVERY_BYTES) return;
  bounded.sinceCheck = 0;
  try {
    if (fstatSync(2).size <= bounded.maxBytes) return;
    copyFileSync(bounded.file, `${bounded.file}.1`);
    ftruncateSync(2, 0);
  } catch {
    bounded = undefined; // the file went away or cannot be copied: log on, unbounded, rather than fail
  }
}

/** JSON.stringify replacer: long strings are cut, saying how long they were. */
function shorten(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.length > MAX_FIELD_CHARS ? `${value.slice(0, MAX_FIELD_CHARS)}… (${value.length} characters)` : value;
}

/** A logger that prefixes each line with the time and component and writes to stderr. */
export function logger(component: string) {
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < threshold) return;
    const extra = fields ? ' ' + escapeJson(JSON.stringify(fields, shorten)) : '';
    const line = `${new Date().toISOString()} ${level} [${component}] ${escapeBare(message)}${extra}\n`;
    process.stderr.write(line);
    rotateIfFull(line.length);
  };
  return {
    debug: (m: string, f?: Record<string, unknown>) => write('debug', m, f),
    info: (m: string, f?: Record<string, unknown>) => write('info', m, f),
    warn: (m: string, f?: Record<string, unknown>) => write('warn', m, f),
    error: (m: string, f?: Record<string, unknown>) => write('error', m, f),
  };
}
export type Logger = ReturnType<typeof logger>;
