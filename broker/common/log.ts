// Logging for broker processes: always stderr (stdout of the native host and of `oriel mcp` carry protocol only).
// Fields often carry words from outside (client names, page titles): control and bidi characters are escaped, so a
// log line reads as it was written.
import { escapeBare, escapeJson } from '../../shared/snapshot/escape.js';

/** Log levels in increasing severity. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
const threshold = ORDER[(process.env.ORIEL_LOG_LEVEL as LogLevel) ?? 'info'] ?? 1;

/** A logger that prefixes each line with the time and component and writes to stderr. */
export function logger(component: string) {
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < threshold) return;
    const extra = fields ? ' ' + escapeJson(JSON.stringify(fields)) : '';
    process.stderr.write(`${new Date().toISOString()} ${level} [${component}] ${escapeBare(message)}${extra}\n`);
  };
  return {
    debug: (m: string, f?: Record<string, unknown>) => write('debug', m, f),
    info: (m: string, f?: Record<string, unknown>) => write('info', m, f),
    warn: (m: string, f?: Record<string, unknown>) => write('warn', m, f),
    error: (m: string, f?: Record<string, unknown>) => write('error', m, f),
  };
}
export type Logger = ReturnType<typeof logger>;
