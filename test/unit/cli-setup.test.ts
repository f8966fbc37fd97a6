// `oriel setup` against real files in temp folders (broker/cli/setup.ts, extension-builds.ts): it registers the native
// host as `install` does and names the built extension that lies beside the CLI bundle, per browser.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempMachine, type TempMachine } from './cli-fixtures.js';

let machine: TempMachine;
afterEach(() => machine?.cleanup());

/** Puts stand-in builds where the package keeps them: beside the folder of the CLI bundle. */
function placeBuilds(root: string): void {
  for (const dir of ['chrome', 'firefox']) {
    mkdirSync(path.join(root, dir), { recursive: true });
    writeFileSync(path.join(root, dir, 'manifest.json'), '{}');
  }
}

describe('oriel setup', () => {
  it('registers the native host and says where to load the extension that ships beside the CLI', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    placeBuilds(root);
    const profile = path.join(root, 'profile');
    const run = await runCli(ctx, ['setup', '--chromium-profile', profile, '--browser', 'firefox']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(existsSync(path.join(profile, 'NativeMessagingHosts', 'dev.oriel.broker.json'))).toBe(true);
    expect(existsSync(path.join(ctx.home, '.mozilla', 'native-messaging-hosts', 'dev.oriel.broker.json'))).toBe(true);
    expect(run.out).toContain('Registered native host for: Chromium profile');
    expect(run.out).toContain(`open chrome://extensions`);
    expect(run.out).toContain(`Load unpacked → ${path.join(root, 'chrome')}\n`);
    expect(run.out).toContain('open about:debugging#/runtime/this-firefox');
    expect(run.out).toContain(`Load Temporary Add-on… → ${path.join(root, 'firefox', 'manifest.json')}`);
    expect(run.out).toContain(`Install Add-on From File… → ${path.join(root, 'oriel-firefox.zip')}`);
  });

  it('--json gives the builds and the steps per browser, under the page each browser names its extensions page', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    placeBuilds(root);
    const run = await runCli(ctx, ['setup', '--browser', 'edge', '--browser', 'brave', '--json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.out) as { extension: Record<string, unknown>; load: Array<{ target: string; page: string; steps: string[] }> };
    expect(out.extension).toStrictEqual({
      found: true,
      chromium: path.join(root, 'chrome'),
      firefox: path.join(root, 'firefox'),
      firefox_zip: path.join(root, 'oriel-firefox.zip'),
    });
    expect(out.load.map((l) => [l.target, l.page])).toStrictEqual([
      ['edge', 'edge://extensions'],
      ['brave', 'brave://extensions'],
    ]);
    expect(out.load[0]!.steps.at(-1)).toBe(`Load unpacked → ${path.join(root, 'chrome')}`);
  });

  it("warns that a copy run by npx lives in npm's cache, which npm may clear", async () => {
    machine = tempMachine();
    const cliPath = path.join(machine.root, '_npx', 'a1b2', 'node_modules', 'oriel', 'dist', 'broker', 'oriel.mjs');
    placeBuilds(path.dirname(path.dirname(cliPath)));
    const ctx = { ...machine.ctx, cliPath };
    const run = await runCli(ctx, ['setup', '--chromium-profile', path.join(machine.root, 'profile')]);
    expect(run.code).toBe(0);
    expect(run.out).toContain("this copy lives in npm's npx cache");
    placeBuilds(machine.root);
    const plain = await runCli(machine.ctx, ['setup', '--chromium-profile', path.join(machine.root, 'profile')]);
    expect(plain.code).toBe(0);
    expect(plain.out).toContain('Load unpacked');
    expect(plain.out).not.toContain('npx cache');
  });

  it('without a built extension beside the CLI it still registers, then fails saying how to build one', async () => {
    machine = tempMachine();
    const { ctx, root } = machine;
    const profile = path.join(root, 'profile');
    const run = await runCli(ctx, ['setup', '--chromium-profile', profile]);
    expect(run.code).toBe(1);
    expect(existsSync(path.join(profile, 'NativeMessagingHosts', 'dev.oriel.broker.json'))).toBe(true);
    expect(run.out).not.toContain('Load unpacked');
    expect(run.err).toContain(`no built extension lies beside this CLI (${root})`);
    expect(run.err).toContain('npm run build');
  });
});
