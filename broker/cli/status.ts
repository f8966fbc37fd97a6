// `oriel status`: asks a running hub for its state (never starts one) and renders it for people or as JSON.
import path from 'node:path';
import type { ControlStatus } from '../../shared/protocol.js';
import type { HubQuery } from './control.js';
import { cap, escapeBare, quote } from '../../shared/snapshot/escape.js';

/** Longest title and URL shown per session, characters (a page's title can be anything long). */
const MAX_SHOWN = 120;

/** The fix printed whenever the hub is not running. */
export const HUB_STARTS_ON_DEMAND = 'it starts when the browser extension connects or an MCP client runs `oriel mcp`';

/** "3d 4h", "2h 5m", "5m 12s", "8s" — the two largest units of a duration. */
export function formatUptime(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const units: Array<[string, number]> = [
    ['d', Math.floor(s / 86400)],
    ['h', Math.floor(s / 3600) % 24],
    ['m', Math.floor(s / 60) % 60],
    ['s', s % 60],
  ];
  const first = units.findIndex(([, n]) => n > 0);
  if (first === -1) return '0s';
  return units
    .slice(first, first + 2)
    .filter(([, n]) => n > 0)
    .map(([u, n]) => `${n}${u}`)
    .join(' ');
}

/** Milliseconds since the hub's `started_at`, or `undefined` when that is not a date. */
export function uptimeMs(status: ControlStatus, now: Date = new Date()): number | undefined {
  const started = Date.parse(status.started_at);
  return Number.isNaN(started) ? undefined : now.getTime() - started;
}

/** An Oriel program: its version and the absolute path of its CLI file (this process's: `SetupContext.cliPath`). */
export interface OrielProgram {
  version: string;
  program: string;
}

/** Whether two CLI paths name the same file (Windows paths compare without case). */
function samePath(a: string, b: string, os: NodeJS.Platform = process.platform): boolean {
  return os === 'win32' ? path.win32.resolve(a).toLowerCase() === path.win32.resolve(b).toLowerCase() : path.resolve(a) === path.resolve(b);
}

/**
 * Whether the running hub runs `self` (same version, same CLI file). A hub that does not report both is older than
 * the version that added them, so it is not `self`.
 */
export function hubRunsSelf(status: ControlStatus, self: OrielProgram): boolean {
  return status.version === self.version && status.program !== undefined && samePath(status.program, self.program);
}

/** "oriel 0.1.0, /usr/lib/node_modules/oriel/dist/broker/oriel.mjs", or that the hub does not say. */
export function describeHubProgram(status: ControlStatus): string {
  if (status.version === undefined && status.program === undefined) return 'not reported (an Oriel older than the one that added them)';
  return `oriel ${escapeBare(status.version ?? '(version not reported)')}, ${escapeBare(status.program ?? '(program not reported)')}`;
}

/**
 * The human rendering of a running hub's status. With `self` (the oriel being run), a hub that runs another program
 * says so.
 */
export function formatStatus(status: ControlStatus, now: Date = new Date(), self?: OrielProgram): string {
  const up = uptimeMs(status, now);
  const lines = [`Oriel hub: running (pid ${status.pid}${up === undefined ? '' : `, up ${formatUptime(up)}`})`];
  const other = self && !hubRunsSelf(status, self) ? `  (not this oriel: ${self.version}, ${self.program}; \`oriel doctor\` says how to restart the hub)` : '';
  lines.push(`Program: ${describeHubProgram(status)}${other}`);
  const connected = status.browsers.filter((b) => b.connected);
  lines.push(`Browsers: ${connected.length} connected${status.browsers.length > connected.length ? `, ${status.browsers.length - connected.length} reconnecting` : ''}`);
  for (const b of status.browsers) {
    // What a browser says of itself, client names and origins reach a terminal too: escaped like page text.
    lines.push(`  ${escapeBare(b.name)} ${escapeBare(b.version)}  instance ${escapeBare(b.instance)}  extension ${escapeBare(b.extension_id)}${b.connected ? '' : '  (disconnected)'}`);
    // Where a headless browser's popup opens as a page (Firefox's address differs in every profile).
    if (b.popup_url) lines.push(`    popup: ${escapeBare(b.popup_url)}`);
  }
  lines.push(`Sessions: ${status.sessions.length}`);
  // Titles and URLs come from pages: escaped so a title cannot reorder or forge the lines of this report.
  for (const s of status.sessions) {
    const held = s.lease ? `  held by ${quote(s.lease.client)} until ${s.lease.expires_at}` : '';
    const away = s.connected === false ? ', reconnecting' : '';
    // The browser keeps a page's title and path to itself where no read is granted; the hub never had them.
    const page = s.withheld ? `${escapeBare(cap(s.url, MAX_SHOWN * 2))} (no read grant: title and address not sent)` : `${quote(cap(s.title, MAX_SHOWN))}  ${escapeBare(cap(s.url, MAX_SHOWN * 2))}`;
    lines.push(`  ${s.id}  ${page}  (${escapeBare(s.browser)}${away})${held}`);
  }
  lines.push(`MCP clients: ${status.clients}`);
  lines.push(status.http ? `MCP over HTTP: serving at ${escapeBare(status.http.url)} (oriel serve --http)` : 'MCP over HTTP: off');
  const prompts = status.prompts;
  lines.push(prompts.length === 0 ? 'Permission prompts: none waiting' : `Permission prompts: ${prompts.length} waiting (answer them in the Oriel toolbar popup)`);
  for (const p of prompts) {
    // Client names are the clients' own words: quoted so they cannot pass for anything else.
    const who = p.clients.map((c) => quote(cap(c, 60))).join(', ') || 'an agent';
    const waited = formatUptime(now.getTime() - p.since);
    lines.push(`  ${escapeBare(p.capability)} on ${escapeBare(p.origin)} for ${who} (${p.calls} call${p.calls === 1 ? '' : 's'} waiting, ${waited}, ${escapeBare(p.browser)})`);
  }
  return lines.join('\n') + '\n';
}

/**
 * The `--json` shape: `{running: false, detail}` or `{running: true, uptime_ms, ...status}`, where `version` and
 * `program` are null when the hub does not report them; with `self`, `runs_this_oriel` says whether the hub runs it.
 */
export function statusJson(query: HubQuery, now: Date = new Date(), self?: OrielProgram): Record<string, unknown> {
  if (query.state !== 'running') return { running: false, state: query.state, detail: query.detail };
  const { t: _frameType, ...status } = query.status;
  return {
    running: true,
    uptime_ms: uptimeMs(query.status, now) ?? null,
    ...status,
    version: status.version ?? null,
    program: status.program ?? null,
    ...(self && { runs_this_oriel: hubRunsSelf(query.status, self) }),
  };
}

/**
 * The human text when the hub could not be asked. `runtimeIssue` (broker/common/paths.ts runtimeDirIssue) replaces
 * the "starts on demand" advice when the hub cannot start.
 */
export function formatNotRunning(query: Exclude<HubQuery, { state: 'running' }>, runtimeIssue?: string): string {
  if (query.state === 'not_running' && runtimeIssue) return `Oriel hub: not running. ${runtimeIssue}\n`;
  if (query.state === 'not_running') return `Oriel hub: not running (${HUB_STARTS_ON_DEMAND}).\n`;
  return `Oriel hub: unreachable — ${query.detail}.\n`;
}
