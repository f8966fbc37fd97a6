// `oriel doctor`: walks the chain browser → host manifest → launcher → native host → hub → browsers → sessions and,
// for each broken link, names it and the fix.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describeExtensionId, knownExtensionId } from '../../shared/extension-ids.js';
import { possibleHubSockets, RUNTIME_DIR_FIX, runtimeDirIssue } from '../common/paths.js';
import { BROWSER_NAMES, browserTarget, profileTarget, selectTargets, type BrowserFamily, type BrowserName, type Target, type TargetSelection } from './browsers.js';
import { SetupError, type SetupContext } from './context.js';
import { findHub, queryHubStatus } from './control.js';
import { parseLauncherIds, runLauncherCheck } from './launcher.js';
import { chromiumOrigin, idFamily, inspectHostManifest, knownIds, type ManifestInspection } from './manifests.js';
import { readInstallRecord, type InstallRecord } from './record.js';
import { parseRegDefault, regQueryArgs } from './registry.js';
import { describeHubProgram, formatUptime, HUB_STARTS_ON_DEMAND, hubRunsSelf, uptimeMs } from './status.js';
import { SERVER_VERSION } from '../common/version.js';
import type { ControlStatus } from '../../shared/protocol.js';

/** One link of the chain: `fix` is present exactly when `ok` is false. */
export interface DoctorCheck {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

/** Options of `oriel doctor`: which browsers to check, which extension ids must be allowed, and time limits. */
export interface DoctorOptions extends TargetSelection {
  extensionIds?: string[];
  launcherTimeoutMs?: number;
  hubTimeoutMs?: number;
}

const FIX_BROWSER = 'open the browser with the Oriel extension loaded; check chrome://extensions (or about:debugging in Firefox) for errors';
const FIX_SESSION = 'share a tab from the Oriel popup';

function pass(check: string, detail: string): DoctorCheck {
  return { check, ok: true, detail };
}
function fail(check: string, detail: string, fix: string): DoctorCheck {
  return { check, ok: false, detail, fix };
}

/** Ids that must be allowed per family: the `--extension-id` ones of that family, else Oriel's own (development and store). */
function requiredIds(extra: readonly string[]): Record<BrowserFamily, string[]> {
  const ids: Record<BrowserFamily, string[]> = { chromium: [], firefox: [] };
  for (const id of extra) {
    const family = idFamily(id);
    if (!family) throw new SetupError(`"${id}" is not an extension id (Chromium: 32 letters a–p; Firefox: name@example or {GUID})`);
    ids[family].push(id);
  }
  const known = knownIds();
  if (ids.chromium.length === 0) ids.chromium.push(...known.chromium);
  if (ids.firefox.length === 0) ids.firefox.push(...known.firefox);
  return ids;
}

function fromRecord(t: InstallRecord['targets'][number], ctx: SetupContext): Target | undefined {
  if (t.id === 'chromium-profile') return profileTarget(path.dirname(path.dirname(t.manifest)));
  if (!(BROWSER_NAMES as readonly string[]).includes(t.id)) return undefined;
  const target = browserTarget(t.id as BrowserName, ctx);
  return { ...target, manifestPath: t.manifest, ...(t.registry_key ? { registryKey: t.registry_key } : {}) };
}

/**
 * With no explicit choice: what install.json says was registered, or, before any install, every detected browser.
 * (Once the user chose where to install, browsers they left out are not broken links.)
 */
function doctorTargets(options: DoctorOptions, record: InstallRecord | undefined, ctx: SetupContext): Target[] {
  const explicit = options.all || options.browsers?.length || options.chromiumProfile;
  if (explicit || !record || record.targets.length === 0) return selectTargets(options, ctx);
  const targets: Target[] = [];
  for (const t of record.targets.map((r) => fromRecord(r, ctx))) {
    if (t && !targets.some((x) => x.id === t.id && x.manifestPath === t.manifestPath)) targets.push(t);
  }
  return targets;
}

function installCommand(target: Target, extra = ''): string {
  return `run \`oriel install ${target.selector}${extra}\``;
}

interface ManifestLook {
  target: Target;
  check: DoctorCheck;
  inspection?: ManifestInspection;
  manifestPath?: string;
}

async function lookAtManifest(target: Target, required: string[], ctx: SetupContext): Promise<ManifestLook> {
  const name = `manifest:${target.id}`;
  let file = target.manifestPath;
  if (target.registryKey) {
    const query = await ctx.registry(regQueryArgs(target.registryKey));
    const value = query.code === 0 ? parseRegDefault(query.stdout) : undefined;
    if (!value) return { target, check: fail(name, `registry key ${target.registryKey} is missing`, installCommand(target)) };
    file = value;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const detail = code === 'ENOENT' ? `no host manifest at ${file}` : `cannot read ${file} (${code ?? String(err)})`;
    return { target, check: fail(name, detail, installCommand(target)) };
  }
  const inspection = inspectHostManifest(text, target.family, required);
  if (inspection.problems.length) {
    return { target, inspection, manifestPath: file, check: fail(name, `${file} is invalid: ${inspection.problems.join('; ')}`, `${installCommand(target)} to rewrite it`) };
  }
  return { target, inspection, manifestPath: file, check: pass(name, `${file} is valid`) };
}

function extensionIdCheck(look: ManifestLook, required: string[]): DoctorCheck {
  const name = `extension-id:${look.target.id}`;
  const extra = (ids: string[]) => ids.filter((id) => !knownExtensionId(id)).map((id) => ` --extension-id ${id}`).join('');
  if (!look.inspection?.listReadable) {
    return fail(name, 'cannot be checked until the host manifest is fixed', installCommand(look.target, extra(required)));
  }
  const shown = (ids: string[]) => ids.map((id) => (look.target.family === 'chromium' ? chromiumOrigin(id) : id)).join(', ');
  if (look.inspection.missingIds.length) {
    const missing = look.inspection.missingIds;
    return fail(name, `the host manifest does not allow ${shown(missing)}`, installCommand(look.target, extra(required)));
  }
  if (look.inspection.launcherPath) {
    let launcherIds: string[] | undefined;
    try {
      launcherIds = parseLauncherIds(readFileSync(look.inspection.launcherPath, 'utf8'));
    } catch {
      launcherIds = undefined; // unreadable: the launcher check reports it
    }
    const refused = launcherIds ? required.filter((id) => !launcherIds.includes(id)) : [];
    if (refused.length) {
      return fail(name, `the launcher ${look.inspection.launcherPath} does not accept ${refused.join(', ')} (--allowed-ids)`, installCommand(look.target, extra(required)));
    }
  }
  return pass(name, `${shown(required)} allowed`);
}

async function launcherChecks(looks: ManifestLook[], required: Record<BrowserFamily, string[]>, options: DoctorOptions, ctx: SetupContext): Promise<DoctorCheck[]> {
  const byLauncher = new Map<string, ManifestLook>();
  for (const look of looks) {
    const launcher = look.inspection?.launcherPath;
    if (launcher && !byLauncher.has(launcher)) byLauncher.set(launcher, look);
  }
  if (byLauncher.size === 0) return [fail('launcher', 'no host manifest names an existing launcher', 'run `oriel install`')];
  const checks: DoctorCheck[] = [];
  for (const [launcher, look] of byLauncher) {
    const family = look.target.family;
    const id = required[family][0]!;
    // The arguments each browser starts its host with.
    const args = family === 'chromium' ? [chromiumOrigin(id)] : [look.manifestPath ?? look.target.manifestPath, id];
    const result = await runLauncherCheck(launcher, args, { env: ctx.env, timeoutMs: options.launcherTimeoutMs ?? 10_000, os: ctx.os });
    if (result.status === 'ok') checks.push(pass('launcher', `${launcher} runs the native host (oriel ${result.version})`));
    else {
      checks.push(
        fail(
          'launcher',
          `${launcher}: ${result.reason}`,
          'run `oriel install` again with the Node you want browsers to use (the launcher runs that Node on the Oriel CLI); to see the error yourself, run the launcher with ORIEL_NATIVE_HOST_CHECK=1',
        ),
      );
    }
  }
  return checks;
}

/**
 * The hub's private folder: refused (with the very message the hub and the relays give), the private fallback in use
 * because the shared temporary one was refused, or fine.
 */
function runtimeCheck(ctx: SetupContext): DoctorCheck {
  const { runtime, fallback } = ctx.dirs;
  const issue = runtimeDirIssue(ctx.dirs);
  if (issue) return fail('runtime', issue, RUNTIME_DIR_FIX);
  if (fallback) return pass('runtime', `${runtime} (${fallback.refused} ${fallback.problem}, so this private folder is used instead)`);
  return pass('runtime', `${runtime} is private to you (or is created so when the hub starts)`);
}

/** What to do about a second hub (said by `oriel doctor`). */
export const SECOND_HUB_FIX =
  'stop the hubs listed (`kill <pid>`, or quit the browser and the MCP clients) and let the next browser or client start one; a hub of an older Oriel, or one started with another ORIEL_RUNTIME_DIR, does not meet the others: give every Oriel process the same ORIEL_RUNTIME_DIR, or none';

/**
 * Hubs other than `pid` answering on any socket a hub of this user could use (`possibleHubSockets`): the browser and
 * an MCP client may each be talking to a different one.
 */
async function otherHubs(ctx: SetupContext, found: { socket: string; pid?: number }, timeoutMs: number): Promise<Array<{ pid: number; socket: string }>> {
  const seen = new Map<number, string>();
  const { pid } = found;
  for (const socket of possibleHubSockets(ctx.dirs, ctx.env, ctx.systemFolders).filter((s) => s !== found.socket)) {
    const q = await queryHubStatus(socket, timeoutMs);
    if (q.state === 'running' && q.status.pid !== pid && !seen.has(q.status.pid)) seen.set(q.status.pid, socket);
  }
  return [...seen].map(([p, socket]) => ({ pid: p, socket }));
}

/**
 * How to restart the hub so that it runs the installed Oriel. There is no `oriel hub --stop`: ending the process is
 * the way, and the relays bring a new hub up (the browser's native host exits with its hub and the extension starts it
 * again; `oriel mcp` reconnects, starting a hub if none runs).
 */
export function restartHubFix(pid: number, os: SetupContext['os']): string {
  const end = os === 'win32' ? `taskkill /PID ${pid} /F` : `kill ${pid}`;
  return (
    `restart the hub: end it (\`${end}\`); the browser's native host and the MCP clients reconnect within seconds and start a new one. ` +
    'If the new hub again runs another program, the browser\'s launcher or a client\'s entry names that one: run `oriel setup` and `oriel config <client>` with this oriel'
  );
}

/** Whether the running hub runs this oriel (same version, same CLI file): a hub outlives upgrades until restarted. */
function hubProgramCheck(status: ControlStatus, ctx: SetupContext): DoctorCheck {
  const self = { version: SERVER_VERSION, program: ctx.cliPath };
  if (hubRunsSelf(status, self)) return pass('hub-program', `${describeHubProgram(status)} (this oriel)`);
  const runs = status.version === undefined && status.program === undefined ? 'does not report its version or program (it is older than they are)' : `runs ${describeHubProgram(status)}`;
  return fail('hub-program', `the hub ${runs}, not this oriel (${self.version}, ${self.program}): a hub keeps the code it started with until it ends`, restartHubFix(status.pid, ctx.os));
}

async function hubChecks(options: DoctorOptions, ctx: SetupContext): Promise<DoctorCheck[]> {
  const timeoutMs = options.hubTimeoutMs ?? 3000;
  const query = await findHub(ctx.dirs, ctx.env, timeoutMs);
  const others = await otherHubs(ctx, { socket: query.socket, pid: query.state === 'running' ? query.status.pid : undefined }, timeoutMs);
  if (others.length && query.state === 'running') {
    const all = [{ pid: query.status.pid, socket: query.socket }, ...others];
    return [fail('hub', `${all.length} hubs are running (${all.map((h) => `pid ${h.pid} on ${h.socket}`).join('; ')}): the browser and MCP clients may each reach a different one and see no shared tab`, SECOND_HUB_FIX)];
  }
  if (query.state !== 'running') {
    if (others.length) {
      return [fail('hub', `a hub is running (${others.map((h) => `pid ${h.pid} on ${h.socket}`).join('; ')}) where this environment's Oriel does not look for it (${query.socket})`, SECOND_HUB_FIX)];
    }
    const hub =
      query.state !== 'not_running'
        ? fail('hub', query.detail, 'end the stuck `oriel hub` process; it starts again on demand')
        : runtimeDirIssue(ctx.dirs)
          ? fail('hub', 'the hub is not running, and cannot start until its runtime folder is fixed (see runtime)', RUNTIME_DIR_FIX)
          : fail('hub', 'the hub is not running', HUB_STARTS_ON_DEMAND);
    return [hub, fail('browsers', 'no browser is connected (the hub is not running)', FIX_BROWSER), fail('sessions', 'no tab is shared', FIX_SESSION)];
  }
  const { status } = query;
  const up = uptimeMs(status);
  const checks = [pass('hub', `running (pid ${status.pid}${up === undefined ? '' : `, up ${formatUptime(up)}`}, ${query.socket})`), hubProgramCheck(status, ctx)];
  const connected = status.browsers.filter((b) => b.connected);
  checks.push(
    connected.length
      ? pass('browsers', `${connected.length} connected: ${connected.map((b) => `${b.name} ${b.version}, extension ${describeExtensionId(b.extension_id)}`).join('; ')}`)
      : fail('browsers', 'no browser is connected to the hub', FIX_BROWSER),
  );
  const live = status.sessions.filter((s) => s.connected !== false);
  const away = status.sessions.length - live.length;
  checks.push(
    live.length
      ? pass('sessions', `${live.length} shared tab(s)${away ? `; ${away} more in a browser that is reconnecting` : ''}`)
      : away
        ? fail('sessions', `${away} shared tab(s), all in a browser that is reconnecting (they end if it does not come back)`, FIX_BROWSER)
        : fail('sessions', 'no tab is shared', FIX_SESSION),
  );
  return checks;
}

/**
 * Checks every link of the chain, in order: host manifests, launcher, extension ids, runtime folder, hub, browsers,
 * sessions.
 * @throws SetupError for a malformed `--extension-id`.
 */
export async function runDoctor(options: DoctorOptions, ctx: SetupContext): Promise<DoctorCheck[]> {
  const required = requiredIds(options.extensionIds ?? []);
  const checks: DoctorCheck[] = [];
  let record: InstallRecord | undefined;
  try {
    record = readInstallRecord(ctx.dirs.data);
  } catch (err) {
    checks.push(fail('install-record', (err as Error).message, 'delete it, then run `oriel install`'));
  }
  const targets = doctorTargets(options, record, ctx);
  const looks: ManifestLook[] = [];
  for (const target of targets) looks.push(await lookAtManifest(target, required[target.family], ctx));
  if (looks.length === 0) {
    checks.push(fail('manifest', 'no supported browser found, and nothing recorded by `oriel install`', 'install a supported browser, or name one: `oriel install --browser <name>` (or `--chromium-profile <dir>`)'));
  }
  checks.push(...looks.map((l) => l.check));
  checks.push(...(await launcherChecks(looks, required, options, ctx)));
  checks.push(...looks.map((l) => extensionIdCheck(l, required[l.target.family])));
  checks.push(runtimeCheck(ctx));
  checks.push(...(await hubChecks(options, ctx)));
  return checks;
}

/** The human report: one line per link, the fix under each broken one, and a summary line. */
export function formatDoctor(checks: DoctorCheck[]): string {
  const width = Math.max(...checks.map((c) => c.check.length));
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${c.ok ? ' ok ' : 'FAIL'}  ${c.check.padEnd(width)}  ${c.detail}`);
    if (!c.ok && c.fix) lines.push(`      ${' '.repeat(width)}  fix: ${c.fix}`);
  }
  const broken = checks.filter((c) => !c.ok).length;
  lines.push(broken ? `${broken} of ${checks.length} checks failed.` : `All ${checks.length} checks passed.`);
  return lines.join('\n') + '\n';
}
