// `oriel doctor` on healthy and broken chains, with real files, a fake CLI behind the launcher and a fake hub.
import { chownSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir, hubMeeting, hubSocketPath, orielDirs, RUNTIME_DIR_FIX, writeHubRecord } from '../../broker/common/paths.js';
import { restartHubFix, SECOND_HUB_FIX } from '../../broker/cli/doctor.js';
import { SERVER_VERSION } from '../../broker/common/version.js';
import { judgeOutput } from '../../broker/cli/launcher.js';
import { encodeFrame } from '../../shared/framing.js';
import { CHROME_WEB_STORE_ID, CHROMIUM_EXTENSION_ID, GECKO_ID } from '../../shared/extension-ids.js';
import { HUB_PROGRAM, hubStatus, runCli, startFakeHub, tempMachine, writeExecutable, type FakeHub, type TempMachine } from './cli-fixtures.js';

interface Check {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

let machine: TempMachine;
let hub: FakeHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
  machine?.cleanup();
});

async function doctor(args: string[] = []): Promise<{ code: number; checks: Check[] }> {
  const run = await runCli(machine.ctx, ['doctor', '--json', ...args]);
  return { code: run.code, checks: JSON.parse(run.out) as Check[] };
}

function find(checks: Check[], name: string): Check {
  const c = checks.find((x) => x.check === name);
  if (!c) throw new Error(`no ${name} check in ${JSON.stringify(checks.map((x) => x.check))}`);
  return c;
}

async function installProfile(extra: string[] = []): Promise<string> {
  const profile = path.join(machine.root, 'profile');
  const run = await runCli(machine.ctx, ['install', '--chromium-profile', profile, ...extra]);
  expect(run.code).toBe(0);
  return profile;
}

describe('oriel doctor', () => {
  it('after installing into one profile, checks what was installed, not every browser it can find', async () => {
    machine = tempMachine();
    // A browser is present (its profile folder exists) but the user installed only into a test profile.
    mkdirSync(path.join(machine.ctx.env.HOME!, '.mozilla'), { recursive: true });
    await installProfile();
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), hubStatus(1, 1, [], machine.ctx.cliPath));
    const { code, checks } = await doctor();
    expect(checks.map((c) => c.check)).toContain('manifest:chromium-profile');
    expect(checks.map((c) => c.check)).not.toContain('manifest:firefox');
    expect(checks.filter((c) => !c.ok)).toStrictEqual([]);
    expect(code).toBe(0);
  });

  it('passes every link of a healthy chain and exits 0', async () => {
    machine = tempMachine();
    const profile = await installProfile(['--browser', 'firefox']);
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), hubStatus(1, 2, [], machine.ctx.cliPath));
    const { code, checks } = await doctor(['--chromium-profile', profile, '--browser', 'firefox']);
    expect(checks.map((c) => c.check)).toStrictEqual([
      'manifest:chromium-profile',
      'manifest:firefox',
      'launcher',
      'extension-id:chromium-profile',
      'extension-id:firefox',
      'runtime',
      'hub',
      'hub-program',
      'browsers',
      'sessions',
    ]);
    expect(checks.filter((c) => !c.ok)).toStrictEqual([]);
    expect(checks.every((c) => c.fix === undefined)).toBe(true);
    expect(find(checks, 'launcher').detail).toContain('9.9.9-test');
    expect(find(checks, 'hub').detail).toContain('pid 4242');
    expect(find(checks, 'hub-program').detail).toBe(`oriel ${SERVER_VERSION}, ${machine.ctx.cliPath} (this oriel)`);
    expect(code).toBe(0);
  });

  it('names a hub that runs another oriel (an upgrade it outlived, another install), and how to restart it', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), { ...hubStatus(1, 1, [], machine.ctx.cliPath), version: '0.0.9' });
    const older = await doctor(['--chromium-profile', profile]);
    expect(find(older.checks, 'hub-program')).toStrictEqual({
      check: 'hub-program',
      ok: false,
      detail: `the hub runs oriel 0.0.9, ${machine.ctx.cliPath}, not this oriel (${SERVER_VERSION}, ${machine.ctx.cliPath}): a hub keeps the code it started with until it ends`,
      fix: restartHubFix(4242, 'linux'),
    });
    expect(restartHubFix(4242, 'linux')).toContain('end it (`kill 4242`)');
    expect(restartHubFix(4242, 'win32')).toContain('end it (`taskkill /PID 4242 /F`)');
    expect(older.code).toBe(1);
    await hub.close();

    // Another install's hub (same version, another CLI file); and one from before hubs reported either.
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), hubStatus(1, 1, [], HUB_PROGRAM));
    expect(find((await doctor(['--chromium-profile', profile])).checks, 'hub-program')).toMatchObject({ ok: false, detail: expect.stringContaining(`the hub runs oriel ${SERVER_VERSION}, ${HUB_PROGRAM}, not this oriel`) });
    await hub.close();
    const { version: _v, program: _p, ...unreported } = hubStatus(1, 1, [], machine.ctx.cliPath);
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), unreported);
    const old = await doctor(['--chromium-profile', profile]);
    expect(find(old.checks, 'hub')).toMatchObject({ ok: true });
    expect(find(old.checks, 'hub-program')).toMatchObject({ ok: false, detail: expect.stringContaining('the hub does not report its version or program (it is older than they are), not this oriel') });
  });

  it('without options, checks what install.json recorded', async () => {
    machine = tempMachine();
    await installProfile();
    const { checks } = await doctor();
    expect(find(checks, 'manifest:chromium-profile').ok).toBe(true);
    expect(find(checks, 'launcher').ok).toBe(true);
  });

  it('names a missing manifest and the install command that fixes it', async () => {
    machine = tempMachine();
    const profile = path.join(machine.root, 'empty profile');
    const { code, checks } = await doctor(['--chromium-profile', profile]);
    const manifest = find(checks, 'manifest:chromium-profile');
    expect(manifest.ok).toBe(false);
    expect(manifest.detail).toBe(`no host manifest at ${path.join(profile, 'NativeMessagingHosts', 'dev.oriel.broker.json')}`);
    expect(manifest.fix).toBe(`run \`oriel install --chromium-profile ${JSON.stringify(profile)}\``);
    expect(find(checks, 'launcher')).toMatchObject({ ok: false, fix: 'run `oriel install`' });
    expect(code).toBe(1);
  });

  it('reports no browser found when nothing is detected or recorded', async () => {
    machine = tempMachine();
    const { checks } = await doctor();
    expect(find(checks, 'manifest')).toMatchObject({ ok: false, detail: expect.stringContaining('no supported browser found') });
  });

  it('checks the browsers it detects', async () => {
    machine = tempMachine();
    writeExecutable(path.join(machine.root, 'bin', 'chromium'));
    const { checks } = await doctor();
    expect(find(checks, 'manifest:chromium')).toMatchObject({ ok: false, fix: 'run `oriel install --browser chromium`' });
  });

  it('names an invalid manifest and what is wrong with it', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    const file = path.join(profile, 'NativeMessagingHosts', 'dev.oriel.broker.json');
    const m = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...m, type: 'socket', path: 'native-host' }));
    const { checks } = await doctor(['--chromium-profile', profile]);
    const manifest = find(checks, 'manifest:chromium-profile');
    expect(manifest.ok).toBe(false);
    expect(manifest.detail).toContain('"type" is "socket", expected "stdio"');
    expect(manifest.detail).toContain('"path" must be an absolute path');
    expect(manifest.fix).toContain('oriel install --chromium-profile');
    expect(manifest.fix).toContain('to rewrite it');
  });

  it('names a manifest whose launcher no longer exists', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    await runCli(machine.ctx, ['uninstall']);
    mkdirSync(path.join(profile, 'NativeMessagingHosts'), { recursive: true });
    writeFileSync(
      path.join(profile, 'NativeMessagingHosts', 'dev.oriel.broker.json'),
      JSON.stringify({ name: 'dev.oriel.broker', description: '', path: path.join(machine.ctx.dirs.data, 'native-host'), type: 'stdio', allowed_origins: [`chrome-extension://${CHROMIUM_EXTENSION_ID}/`] }),
    );
    const { checks } = await doctor(['--chromium-profile', profile]);
    expect(find(checks, 'manifest:chromium-profile').detail).toContain('which does not exist');
    expect(find(checks, 'launcher').ok).toBe(false);
  });

  it('names a manifest that allows another extension id', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    const file = path.join(profile, 'NativeMessagingHosts', 'dev.oriel.broker.json');
    const m = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...m, allowed_origins: ['chrome-extension://abcdefghijklmnopabcdefghijklmnop/'] }));
    const { code, checks } = await doctor(['--chromium-profile', profile]);
    expect(find(checks, 'manifest:chromium-profile').ok).toBe(true);
    const ext = find(checks, 'extension-id:chromium-profile');
    expect(ext.ok).toBe(false);
    expect(ext.detail).toBe(`the host manifest does not allow chrome-extension://${CHROMIUM_EXTENSION_ID}/, chrome-extension://${CHROME_WEB_STORE_ID}/`);
    expect(ext.fix).toBe(`run \`oriel install --chromium-profile ${JSON.stringify(profile)}\``);
    expect(code).toBe(1);
  });

  it('names a manifest that allows the development id but not the store id (an install from before the store)', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    const file = path.join(profile, 'NativeMessagingHosts', 'dev.oriel.broker.json');
    const m = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...m, allowed_origins: [`chrome-extension://${CHROMIUM_EXTENSION_ID}/`] }));
    const ext = find((await doctor(['--chromium-profile', profile])).checks, 'extension-id:chromium-profile');
    expect(ext).toMatchObject({ ok: false, detail: `the host manifest does not allow chrome-extension://${CHROME_WEB_STORE_ID}/` });
    // Oriel's own ids need no --extension-id: a plain install writes them.
    expect(ext.fix).toBe(`run \`oriel install --chromium-profile ${JSON.stringify(profile)}\``);
  });

  it('names the id of each connected extension and the build it belongs to', async () => {
    machine = tempMachine();
    await installProfile();
    const status = hubStatus(4, 1);
    const ids = [CHROMIUM_EXTENSION_ID, CHROME_WEB_STORE_ID, GECKO_ID, 'abcdefghijklmnopabcdefghijklmnop'];
    status.browsers.forEach((b, i) => (b.extension_id = ids[i]!));
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), status);
    const browsers = find((await doctor()).checks, 'browsers');
    expect(browsers.ok).toBe(true);
    expect(browsers.detail).toBe(
      '4 connected: ' +
        [
          `chromium 156.0.1, extension ${CHROMIUM_EXTENSION_ID} (the unpacked development build)`,
          `chromium 156.0.1, extension ${CHROME_WEB_STORE_ID} (the Chrome Web Store build)`,
          `chromium 156.0.1, extension ${GECKO_ID} (the unpacked development build or the addons.mozilla.org build)`,
          'chromium 156.0.1, extension abcdefghijklmnopabcdefghijklmnop (a build allowed with --extension-id)',
        ].join('; '),
    );
  });

  it('with --extension-id, requires that id and says how to add it', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    const other = 'abcdefghijklmnopabcdefghijklmnop';
    const { checks } = await doctor(['--chromium-profile', profile, '--extension-id', other]);
    const ext = find(checks, 'extension-id:chromium-profile');
    expect(ext.ok).toBe(false);
    expect(ext.detail).toContain(`chrome-extension://${other}/`);
    expect(ext.fix).toContain(`--extension-id ${other}`);

    await installProfile(['--extension-id', other]);
    expect(find((await doctor(['--chromium-profile', profile, '--extension-id', other])).checks, 'extension-id:chromium-profile').ok).toBe(true);
  });

  it('names a launcher that does not accept the id the manifest allows', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    const launcher = path.join(machine.ctx.dirs.data, 'native-host');
    writeFileSync(launcher, readFileSync(launcher, 'utf8').replace(`'${CHROMIUM_EXTENSION_ID},`, "'"));
    const ext = find((await doctor(['--chromium-profile', profile])).checks, 'extension-id:chromium-profile');
    expect(ext.ok).toBe(false);
    expect(ext.detail).toContain(`does not accept ${CHROMIUM_EXTENSION_ID}`);
  });

  it('names a launcher that fails, with its exit code and error output', async () => {
    machine = tempMachine({ cli: 'exit-3' });
    const profile = await installProfile();
    const { code, checks } = await doctor(['--chromium-profile', profile]);
    const launcher = find(checks, 'launcher');
    expect(launcher.ok).toBe(false);
    expect(launcher.detail).toContain('exited with code 3');
    expect(launcher.detail).toContain('Cannot find module oriel-broken');
    expect(launcher.fix).toContain('oriel install');
    expect(launcher.fix).toContain('ORIEL_NATIVE_HOST_CHECK=1');
    expect(code).toBe(1);
  });

  it('names a launcher whose stdout is not one check frame', async () => {
    machine = tempMachine({ cli: 'prints-text' });
    const profile = await installProfile();
    const launcher = find((await doctor(['--chromium-profile', profile])).checks, 'launcher');
    expect(launcher.ok).toBe(false);
    expect(launcher.detail).toMatch(/not a valid frame|more than the one check frame/);
  });

  it('names a launcher whose host reports a problem', async () => {
    machine = tempMachine({ cli: 'check-not-ok' });
    const profile = await installProfile();
    const launcher = find((await doctor(['--chromium-profile', profile])).checks, 'launcher');
    expect(launcher).toMatchObject({ ok: false, detail: expect.stringContaining('hub folder is not private') });
  });

  it('names a launcher that hangs', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    writeExecutable(path.join(machine.ctx.dirs.data, 'native-host'), `#!/bin/sh\nexec '${process.execPath}' -e 'setTimeout(() => {}, 30000)'\n`);
    const { runDoctor } = await import('../../broker/cli/doctor.js');
    const checks = await runDoctor({ chromiumProfile: profile, launcherTimeoutMs: 300 }, machine.ctx);
    expect(find(checks, 'launcher')).toMatchObject({ ok: false, detail: expect.stringContaining('did not answer within 300 ms') });
  });

  it('says the hub is not running, and that it starts on demand', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    const { code, checks } = await doctor(['--chromium-profile', profile]);
    expect(find(checks, 'hub')).toStrictEqual({
      check: 'hub',
      ok: false,
      detail: 'the hub is not running',
      fix: 'it starts when the browser extension connects or an MCP client runs `oriel mcp`',
    });
    expect(find(checks, 'browsers').ok).toBe(false);
    expect(find(checks, 'sessions').ok).toBe(false);
    expect(code).toBe(1);
  });

  it('repeats the runtime folder refusal word for word, and does not say the hub starts on demand', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    // No XDG_RUNTIME_DIR: the folder falls back to TMPDIR, where someone planted oriel-<uid> (a symlink; another
    // user's folder when running as root) — and even the private fallback <data>/run is a symlink.
    const { ORIEL_RUNTIME_DIR: _explicit, ...rest } = machine.ctx.env;
    const env = { ...rest, TMPDIR: path.join(machine.root, 'tmp') };
    const planted = path.join(machine.root, 'tmp', `oriel-${process.getuid!()}`);
    mkdirSync(path.dirname(planted));
    if (process.getuid!() === 0) {
      mkdirSync(planted, { mode: 0o700 });
      chownSync(planted, 65534, 65534);
    } else symlinkSync(machine.root, planted);
    symlinkSync(machine.root, path.join(machine.ctx.dirs.data, 'run'));
    machine.ctx = { ...machine.ctx, env, dirs: orielDirs(env) };
    let thrown = '';
    try {
      ensurePrivateDir(machine.ctx.dirs.runtime);
    } catch (err) {
      thrown = (err as Error).message;
    }
    expect(thrown).toMatch(/run is a symbolic link/);
    const { code, checks } = await doctor(['--chromium-profile', profile]);
    expect(find(checks, 'runtime')).toStrictEqual({ check: 'runtime', ok: false, detail: thrown, fix: RUNTIME_DIR_FIX });
    expect(find(checks, 'hub')).toMatchObject({ ok: false, fix: RUNTIME_DIR_FIX });
    expect(JSON.stringify(checks)).not.toContain('starts when');
    expect(code).toBe(1);
    const status = await runCli(machine.ctx, ['status']);
    expect(status.out).toBe(`Oriel hub: not running. ${thrown}\n`);
  });

  it('says which private folder it uses when the shared one was refused', async () => {
    machine = tempMachine();
    const { ORIEL_RUNTIME_DIR: _explicit, ...rest } = machine.ctx.env;
    const env = { ...rest, TMPDIR: path.join(machine.root, 'tmp') };
    const planted = path.join(machine.root, 'tmp', `oriel-${process.getuid!()}`);
    mkdirSync(path.dirname(planted));
    symlinkSync(machine.root, planted);
    machine.ctx = { ...machine.ctx, env, dirs: orielDirs(env) };
    const { checks } = await doctor();
    expect(find(checks, 'runtime')).toMatchObject({ ok: true, detail: `${path.join(machine.ctx.dirs.data, 'run')} (${planted} is a symbolic link, so this private folder is used instead)` });
    expect(find(checks, 'hub').fix).toBe('it starts when the browser extension connects or an MCP client runs `oriel mcp`');
  });

  /**
   * A machine without ORIEL_RUNTIME_DIR or XDG_RUNTIME_DIR (as an MCP client starts Oriel), where the browser's native
   * host started the hub under its own XDG_RUNTIME_DIR and recorded it in the meeting place (here ORIEL_DATA_DIR).
   */
  async function hubOfAnotherEnvironment(): Promise<string> {
    const { ORIEL_RUNTIME_DIR: _explicit, ...rest } = machine.ctx.env;
    const env = { ...rest, TMPDIR: path.join(machine.root, 'tmp') };
    mkdirSync(env.TMPDIR, { recursive: true });
    machine.ctx = { ...machine.ctx, env, dirs: orielDirs(env) };
    const socket = path.join(machine.root, 'xdg', 'oriel', 'hub.sock');
    hub = await startFakeHub(socket, hubStatus(1, 1));
    const meeting = hubMeeting(env)!;
    ensurePrivateDir(meeting.dir);
    writeHubRecord(meeting, socket);
    return socket;
  }

  it('finds the hub a relay of another environment started, through its record, and names its socket', async () => {
    machine = tempMachine();
    const socket = await hubOfAnotherEnvironment();
    expect(hubSocketPath(machine.ctx.dirs)).not.toBe(socket);
    const { checks } = await doctor();
    expect(find(checks, 'hub')).toMatchObject({ ok: true, detail: expect.stringContaining(`(pid 4242, up 2m 5s, ${socket})`) });
    expect(find(checks, 'sessions').ok).toBe(true);
  });

  it('names a second hub, with both pids and sockets, and how to fix it', async () => {
    machine = tempMachine();
    const socket = await hubOfAnotherEnvironment();
    // An older Oriel's hub, started where this environment looks by itself.
    const own = hubSocketPath(machine.ctx.dirs);
    const second = await startFakeHub(own, { ...hubStatus(0, 0), pid: 4343 });
    try {
      const { code, checks } = await doctor();
      expect(find(checks, 'hub')).toStrictEqual({
        check: 'hub',
        ok: false,
        detail: `2 hubs are running (pid 4242 on ${socket}; pid 4343 on ${own}): the browser and MCP clients may each reach a different one and see no shared tab`,
        fix: SECOND_HUB_FIX,
      });
      expect(code).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('names "no browser connected" when the hub runs without one', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), hubStatus(0, 0));
    const { code, checks } = await doctor(['--chromium-profile', profile]);
    expect(find(checks, 'hub').ok).toBe(true);
    expect(find(checks, 'browsers')).toStrictEqual({
      check: 'browsers',
      ok: false,
      detail: 'no browser is connected to the hub',
      fix: 'open the browser with the Oriel extension loaded; check chrome://extensions (or about:debugging in Firefox) for errors',
    });
    expect(find(checks, 'sessions')).toMatchObject({ ok: false, fix: 'share a tab from the Oriel popup' });
    expect(hub.received).toStrictEqual([{ t: 'hello', role: 'control' }, { t: 'status' }]);
    expect(code).toBe(1);
  });

  it('names "no session" when a browser is connected but no tab is shared', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), hubStatus(1, 0));
    const { checks } = await doctor(['--chromium-profile', profile]);
    expect(find(checks, 'browsers').ok).toBe(true);
    expect(find(checks, 'sessions')).toStrictEqual({ check: 'sessions', ok: false, detail: 'no tab is shared', fix: 'share a tab from the Oriel popup' });
  });

  it('does not count the tabs of a browser that is reconnecting as shared and working', async () => {
    machine = tempMachine();
    const profile = await installProfile();
    const status = hubStatus(1, 1);
    status.browsers[0]!.connected = false;
    status.sessions[0]!.connected = false;
    hub = await startFakeHub(hubSocketPath(machine.ctx.dirs), status);
    const { checks } = await doctor(['--chromium-profile', profile]);
    expect(find(checks, 'browsers').ok).toBe(false);
    expect(find(checks, 'sessions')).toMatchObject({ ok: false, detail: '1 shared tab(s), all in a browser that is reconnecting (they end if it does not come back)' });
  });

  it('prints a readable report with a fix under each broken link', async () => {
    machine = tempMachine();
    const profile = path.join(machine.root, 'profile');
    const run = await runCli(machine.ctx, ['doctor', '--chromium-profile', profile]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/^FAIL {2}manifest:chromium-profile/m);
    expect(run.out).toContain('fix: run `oriel install --chromium-profile');
    expect(run.out).toMatch(/checks failed\.\n$/);
  });
});

describe('judging the native host check output', () => {
  it('accepts exactly one ok check frame', () => {
    expect(judgeOutput(encodeFrame({ t: 'check', ok: true, version: '1.2.3' }))).toStrictEqual({ status: 'ok', version: '1.2.3' });
  });
  it('rejects nothing, two frames, a truncated frame and another message', () => {
    const one = encodeFrame({ t: 'check', ok: true, version: '1' });
    expect(judgeOutput(new Uint8Array()).status).toBe('failed');
    expect(judgeOutput(Buffer.concat([one, one])).status).toBe('failed');
    expect(judgeOutput(one.subarray(0, one.byteLength - 2)).status).toBe('failed');
    expect(judgeOutput(encodeFrame({ t: 'welcome', wire: 1 })).status).toBe('failed');
  });
});
