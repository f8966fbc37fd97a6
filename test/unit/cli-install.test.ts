// `oriel install` / `oriel uninstall` against real files in temp folders (broker/cli/install.ts, uninstall.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FrameDecoder } from '../../shared/framing.js';
import { CHROME_WEB_STORE_ID, CHROMIUM_EXTENSION_ID, GECKO_ID } from '../../shared/extension-ids.js';
import { runCli, tempMachine, treeOf, writeExecutable, type TempMachine } from './cli-fixtures.js';

const ORIGIN = `chrome-extension://${CHROMIUM_EXTENSION_ID}/`;
const STORE_ORIGIN = `chrome-extension://${CHROME_WEB_STORE_ID}/`;
/** Oriel's own Chromium ids as the launcher lists them: the pinned development id, then the store's. */
const OWN_CHROMIUM = `${CHROMIUM_EXTENSION_ID},${CHROME_WEB_STORE_ID}`;
const EXTRA_ID = 'abcdefghijklmnopabcdefghijklmnop';

let machine: TempMachine;
afterEach(() => machine?.cleanup());

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe('oriel install (Linux)', () => {
  it('writes the Chromium-profile and Firefox manifests with exact content, and an executable launcher', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    const profile = path.join(root, 'chromium profile');
    const run = await runCli(ctx, ['install', '--chromium-profile', profile, '--browser', 'firefox']);
    expect(run.code).toBe(0);

    const launcher = path.join(ctx.dirs.data, 'native-host');
    expect(readJson(path.join(profile, 'NativeMessagingHosts', 'dev.oriel.broker.json'))).toStrictEqual({
      name: 'dev.oriel.broker',
      description: 'Oriel broker: lets MCP agents work in the tabs you share',
      path: launcher,
      type: 'stdio',
      allowed_origins: [ORIGIN, STORE_ORIGIN],
    });
    expect(readJson(path.join(ctx.home, '.mozilla', 'native-messaging-hosts', 'dev.oriel.broker.json'))).toStrictEqual({
      name: 'dev.oriel.broker',
      description: 'Oriel broker: lets MCP agents work in the tabs you share',
      path: launcher,
      type: 'stdio',
      allowed_extensions: [GECKO_ID],
    });
    expect(statSync(launcher).mode & 0o777).toBe(0o755);
    expect(readFileSync(launcher, 'utf8')).toContain(
      `exec '${process.execPath}' '${path.join(root, "oriel'\\''s build", 'oriel.mjs')}' native-host --allowed-ids '${OWN_CHROMIUM},${GECKO_ID}' -- "$@"`,
    );
    expect(run.out).toContain('Registered native host for: Chromium profile');
    expect(run.out).toContain('Firefox');
  });

  it('writes a launcher that runs the recorded Node on the CLI with the allowed ids and the browser arguments', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    expect((await runCli(ctx, ['install', '--browser', 'chromium', '--extension-id', EXTRA_ID])).code).toBe(0);
    const argvFile = path.join(root, 'argv.json');
    const launched = spawnSync(path.join(ctx.dirs.data, 'native-host'), [ORIGIN, '--parent-window=0'], {
      env: { ...ctx.env, ORIEL_NATIVE_HOST_CHECK: '1', ORIEL_TEST_ARGV_FILE: argvFile },
      input: '',
    });
    expect(launched.status).toBe(0);
    expect(readJson(argvFile)).toStrictEqual(['native-host', '--allowed-ids', `${OWN_CHROMIUM},${EXTRA_ID},${GECKO_ID}`, '--', ORIGIN, '--parent-window=0']);
    const frames = new FrameDecoder().push(launched.stdout);
    expect(frames).toEqual([expect.objectContaining({ kind: 'frame', value: { t: 'check', ok: true, version: '9.9.9-test' } })]);
    const manifest = readJson(path.join(ctx.home, '.config', 'chromium', 'NativeMessagingHosts', 'dev.oriel.broker.json')) as { allowed_origins: string[] };
    expect(manifest.allowed_origins).toStrictEqual([ORIGIN, STORE_ORIGIN, `chrome-extension://${EXTRA_ID}/`]);
  });

  it('records every file it wrote and every folder it created in install.json', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    const profile = path.join(root, 'profile');
    mkdirSync(profile);
    await runCli(ctx, ['install', '--chromium-profile', profile, '--browser', 'firefox']);
    const record = readJson(path.join(ctx.dirs.data, 'install.json')) as { files: string[]; dirs: string[]; node: string; cli: string };
    expect(record.files.sort()).toStrictEqual(
      [
        path.join(ctx.dirs.data, 'native-host'),
        path.join(profile, 'NativeMessagingHosts', 'dev.oriel.broker.json'),
        path.join(ctx.home, '.mozilla', 'native-messaging-hosts', 'dev.oriel.broker.json'),
      ].sort(),
    );
    expect(record.dirs.sort()).toStrictEqual(
      [ctx.dirs.data, path.join(profile, 'NativeMessagingHosts'), path.join(ctx.home, '.mozilla'), path.join(ctx.home, '.mozilla', 'native-messaging-hosts')].sort(),
    );
    expect(record.node).toBe(process.execPath);
    expect(record.cli).toBe(ctx.cliPath);
  });

  it('registers with the browsers it finds: a config folder, or an executable on PATH', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    mkdirSync(path.join(ctx.home, '.config', 'BraveSoftware', 'Brave-Browser'), { recursive: true });
    writeExecutable(path.join(root, 'bin', 'firefox-esr'));
    const run = await runCli(ctx, ['install', '--json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.out) as { targets: Array<{ id: string; manifest: string }> };
    expect(out.targets.map((t) => t.id)).toStrictEqual(['brave', 'firefox']);
    expect(existsSync(path.join(ctx.home, '.config', 'BraveSoftware', 'Brave-Browser', 'NativeMessagingHosts', 'dev.oriel.broker.json'))).toBe(true);
    expect(existsSync(path.join(ctx.home, '.mozilla', 'native-messaging-hosts', 'dev.oriel.broker.json'))).toBe(true);
    expect(existsSync(path.join(ctx.home, '.config', 'google-chrome'))).toBe(false);
  });

  it('--all registers every supported browser; XDG_CONFIG_HOME moves the Chromium-family folders', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    ctx.env.XDG_CONFIG_HOME = path.join(root, 'xdg');
    const run = await runCli(ctx, ['install', '--all', '--json']);
    const out = JSON.parse(run.out) as { targets: Array<{ id: string; manifest: string }> };
    expect(Object.fromEntries(out.targets.map((t) => [t.id, path.relative(root, t.manifest)]))).toStrictEqual({
      chrome: 'xdg/google-chrome/NativeMessagingHosts/dev.oriel.broker.json',
      chromium: 'xdg/chromium/NativeMessagingHosts/dev.oriel.broker.json',
      edge: 'xdg/microsoft-edge/NativeMessagingHosts/dev.oriel.broker.json',
      brave: 'xdg/BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.oriel.broker.json',
      vivaldi: 'xdg/vivaldi/NativeMessagingHosts/dev.oriel.broker.json',
      firefox: 'home/.mozilla/native-messaging-hosts/dev.oriel.broker.json',
    });
    for (const t of out.targets) expect(existsSync(t.manifest)).toBe(true);
  });

  it('refuses when no browser is found, and writes nothing', async () => {
    machine = tempMachine();
    const before = treeOf(machine.root);
    const run = await runCli(machine.ctx, ['install']);
    expect(run.code).toBe(1);
    expect(run.err).toContain('no supported browser found');
    expect(run.err).toContain('--browser');
    expect(treeOf(machine.root)).toStrictEqual(before);
  });

  it('refuses a malformed --extension-id, and writes nothing', async () => {
    machine = tempMachine();
    const before = treeOf(machine.root);
    const run = await runCli(machine.ctx, ['install', '--browser', 'chrome', '--extension-id', 'not-an-id']);
    expect(run.code).toBe(1);
    expect(run.err).toContain('"not-an-id" is not an extension id');
    expect(treeOf(machine.root)).toStrictEqual(before);
  });

  it('refuses to point the launcher at a TypeScript source file', async () => {
    machine = tempMachine();
    machine.ctx.cliPath = path.join(machine.root, 'broker', 'cli', 'main.ts');
    const run = await runCli(machine.ctx, ['install', '--browser', 'chrome']);
    expect(run.code).toBe(1);
    expect(run.err).toContain('dist/broker/oriel.mjs');
    expect(existsSync(machine.ctx.dirs.data)).toBe(false);
  });

  it('--dry-run prints the files it would write and writes nothing', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    const profile = path.join(root, 'profile');
    const before = treeOf(root);
    const run = await runCli(ctx, ['install', '--dry-run', '--chromium-profile', profile, '--browser', 'firefox']);
    expect(run.code).toBe(0);
    expect(treeOf(root)).toStrictEqual(before);
    expect(run.out).toContain('Dry run: nothing was written');
    expect(run.out).toContain(path.join(profile, 'NativeMessagingHosts', 'dev.oriel.broker.json'));
    expect(run.out).toContain(`"${ORIGIN}"`);
    expect(run.out).toContain(`"${GECKO_ID}"`);
    expect(run.out).toContain(`exec '${process.execPath}'`);

    const json = await runCli(ctx, ['install', '--dry-run', '--json', '--browser', 'firefox']);
    const files = (JSON.parse(json.out) as { dry_run: boolean; files: Array<{ role: string; content: string }> }).files;
    expect(files.map((f) => f.role)).toStrictEqual(['launcher', 'manifest']);
    expect(treeOf(root)).toStrictEqual(before);
  });

  it('a second install adds to the first; the launcher keeps every id', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    await runCli(ctx, ['install', '--browser', 'firefox']);
    await runCli(ctx, ['install', '--chromium-profile', path.join(root, 'p'), '--extension-id', EXTRA_ID]);
    const record = readJson(path.join(ctx.dirs.data, 'install.json')) as { targets: Array<{ id: string }> };
    expect(record.targets.map((t) => t.id).sort()).toStrictEqual(['chromium-profile', 'firefox']);
    expect(readFileSync(path.join(ctx.dirs.data, 'native-host'), 'utf8')).toContain(`--allowed-ids '${OWN_CHROMIUM},${EXTRA_ID},${GECKO_ID}'`);
  });
});

describe('oriel install (macOS folders)', () => {
  it('uses ~/Library/Application Support and detects a browser by its profile folder', async () => {
    machine = tempMachine({ os: 'darwin' });
    const { ctx } = machine;
    const support = path.join(ctx.home, 'Library', 'Application Support');
    mkdirSync(path.join(support, 'Microsoft Edge'), { recursive: true });
    mkdirSync(path.join(support, 'Firefox'), { recursive: true });
    const out = JSON.parse((await runCli(ctx, ['install', '--json'])).out) as { targets: Array<{ id: string; manifest: string }> };
    expect(Object.fromEntries(out.targets.map((t) => [t.id, path.relative(support, t.manifest)]))).toStrictEqual({
      edge: 'Microsoft Edge/NativeMessagingHosts/dev.oriel.broker.json',
      firefox: 'Mozilla/NativeMessagingHosts/dev.oriel.broker.json',
    });
    const all = JSON.parse((await runCli(ctx, ['install', '--all', '--dry-run', '--json'])).out) as { targets: Array<{ id: string; manifest: string }> };
    expect(all.targets.map((t) => path.relative(support, path.dirname(path.dirname(t.manifest))))).toStrictEqual([
      'Google/Chrome',
      'Chromium',
      'Microsoft Edge',
      'BraveSoftware/Brave-Browser',
      'Vivaldi',
      'Mozilla',
    ]);
  });
});

describe('oriel uninstall', () => {
  it('removes exactly what install wrote, leaves an unrelated file alone, and is idempotent', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    const profile = path.join(root, 'profile');
    mkdirSync(path.join(profile, 'NativeMessagingHosts'), { recursive: true });
    const neighbour = path.join(profile, 'NativeMessagingHosts', 'com.example.other.json');
    writeFileSync(neighbour, '{"name":"com.example.other"}');
    const before = treeOf(root);

    await runCli(ctx, ['install', '--chromium-profile', profile, '--browser', 'firefox']);
    expect(treeOf(root)).not.toStrictEqual(before);

    const dry = await runCli(ctx, ['uninstall', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('would remove');
    expect(existsSync(path.join(ctx.dirs.data, 'install.json'))).toBe(true);

    const run = await runCli(ctx, ['uninstall']);
    expect(run.code).toBe(0);
    expect(treeOf(root)).toStrictEqual(before); // neighbour kept; created folders (data, .mozilla/…) gone
    expect(readFileSync(neighbour, 'utf8')).toBe('{"name":"com.example.other"}');

    const again = await runCli(ctx, ['uninstall', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ record_found: false });
    expect(treeOf(root)).toStrictEqual(before);
  });

  it('keeps a folder it created once something else lives in it', async () => {
    machine = tempMachine();
    const { ctx } = machine;
    await runCli(ctx, ['install', '--browser', 'firefox']);
    const hosts = path.join(ctx.home, '.mozilla', 'native-messaging-hosts');
    writeFileSync(path.join(hosts, 'org.keepassxc.json'), '{}');
    await runCli(ctx, ['uninstall']);
    expect(existsSync(path.join(hosts, 'dev.oriel.broker.json'))).toBe(false);
    expect(existsSync(path.join(hosts, 'org.keepassxc.json'))).toBe(true);
  });

  it('does not follow a record that names a file Oriel never writes', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    await runCli(ctx, ['install', '--browser', 'firefox']);
    const precious = path.join(root, 'precious.txt');
    writeFileSync(precious, 'keep me');
    const recordFile = path.join(ctx.dirs.data, 'install.json');
    const record = readJson(recordFile) as { files: string[] };
    record.files.push(precious);
    writeFileSync(recordFile, JSON.stringify(record));
    const run = await runCli(ctx, ['uninstall']);
    expect(readFileSync(precious, 'utf8')).toBe('keep me');
    expect(run.out).toContain('left alone');
  });
});

describe('Windows registration (commands recorded, not run)', () => {
  it('writes one manifest per family in the data folder and sets the HKCU keys with reg add', async () => {
    machine = tempMachine({ os: 'win32' });
    const { ctx, root } = machine;
    ctx.env.LOCALAPPDATA = path.join(root, 'Local');
    ctx.env.APPDATA = path.join(root, 'Roaming');
    mkdirSync(path.join(root, 'Local', 'Google', 'Chrome', 'User Data'), { recursive: true });
    mkdirSync(path.join(root, 'Local', 'Microsoft', 'Edge', 'User Data'), { recursive: true });
    mkdirSync(path.join(root, 'Roaming', 'Mozilla', 'Firefox'), { recursive: true });

    const run = await runCli(ctx, ['install']);
    expect(run.code).toBe(0);
    const chromiumManifest = path.join(ctx.dirs.data, 'dev.oriel.broker.chromium.json');
    const firefoxManifest = path.join(ctx.dirs.data, 'dev.oriel.broker.firefox.json');
    expect(machine.regCalls).toStrictEqual([
      ['add', 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.oriel.broker', '/ve', '/t', 'REG_SZ', '/d', chromiumManifest, '/f'],
      ['add', 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.oriel.broker', '/ve', '/t', 'REG_SZ', '/d', chromiumManifest, '/f'],
      ['add', 'HKCU\\Software\\Mozilla\\NativeMessagingHosts\\dev.oriel.broker', '/ve', '/t', 'REG_SZ', '/d', firefoxManifest, '/f'],
    ]);
    const launcher = path.join(ctx.dirs.data, 'native-host.cmd');
    expect((readJson(chromiumManifest) as { path: string }).path).toBe(launcher);
    expect((readJson(firefoxManifest) as { allowed_extensions: string[] }).allowed_extensions).toStrictEqual([GECKO_ID]);
    const cmd = readFileSync(launcher, 'utf8');
    expect(cmd.startsWith('@echo off\r\n')).toBe(true);
    expect(cmd).toContain(`"${process.execPath}" "${ctx.cliPath}" native-host --allowed-ids "${OWN_CHROMIUM},${GECKO_ID}" -- %*\r\n`);

    machine.regCalls.length = 0;
    await runCli(ctx, ['uninstall']);
    expect(machine.regCalls).toStrictEqual([
      ['query', 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.oriel.broker', '/ve'],
      ['delete', 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.oriel.broker', '/f'],
      ['query', 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.oriel.broker', '/ve'],
      ['delete', 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\dev.oriel.broker', '/f'],
      ['query', 'HKCU\\Software\\Mozilla\\NativeMessagingHosts\\dev.oriel.broker', '/ve'],
      ['delete', 'HKCU\\Software\\Mozilla\\NativeMessagingHosts\\dev.oriel.broker', '/f'],
    ]);
    expect(existsSync(chromiumManifest)).toBe(false);
    expect(existsSync(launcher)).toBe(false);
  });

  it('uses the Brave, Vivaldi and Chromium keys for those browsers', async () => {
    machine = tempMachine({ os: 'win32' });
    await runCli(machine.ctx, ['install', '--browser', 'brave', 'vivaldi', 'chromium']);
    expect(machine.regCalls.map((c) => c[1])).toStrictEqual([
      'HKCU\\Software\\Chromium\\NativeMessagingHosts\\dev.oriel.broker',
      'HKCU\\Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts\\dev.oriel.broker',
      'HKCU\\Software\\Vivaldi\\NativeMessagingHosts\\dev.oriel.broker',
    ]);
  });

  it('reports a failed reg add', async () => {
    machine = tempMachine({ os: 'win32', regAnswer: async () => ({ code: 1, stdout: '', stderr: 'ERROR: Access is denied.' }) });
    const run = await runCli(machine.ctx, ['install', '--browser', 'chrome']);
    expect(run.code).toBe(1);
    expect(run.err).toContain('ERROR: Access is denied.');
  });
});
