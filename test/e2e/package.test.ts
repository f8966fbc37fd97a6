// The npm package, the way a user gets Oriel (docs/install.md, "Install"): `npm pack` of this checkout, the tarball
// alone in a fresh folder, `npm install -g` into a temporary prefix with no registry (--offline, an empty cache), then
// the installed `oriel setup`, the demo's agent session (scripts/demo-session.ts) through the installed `oriel mcp`
// with the extension loaded from the folder setup named inside the package, and `oriel doctor`. Chromium only: the
// package's path is the same for both browsers, and every other e2e file covers Firefox.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, launchRig, ROOT, serveFixtures, type Rig } from './harness.js';
import { runDemoSession } from '../../scripts/demo-session.js';

const source = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

let work: string;
/** The installed package's folder and its `oriel` command (npm's bin link). */
let installed: string;
let bin: string;

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(path.join(os.tmpdir(), 'oriel-package-'));
  const packed = path.join(work, 'packed');
  mkdirSync(packed);
  // `npm pack` runs prepack (the build) as a release does; the test script that built first may skip it.
  execFileSync('npm', ['pack', '--pack-destination', packed, ...(process.env.ORIEL_SKIP_BUILD === '1' ? ['--ignore-scripts'] : [])], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const [tarball] = readdirSync(packed);
  expect(tarball).toBe(`${source.name}-${source.version}.tgz`);
  // Only the tarball, in a folder with no package.json and no node_modules anywhere above it.
  const fresh = path.join(work, 'fresh');
  mkdirSync(fresh);
  copyFileSync(path.join(packed, tarball!), path.join(fresh, tarball!));
  const prefix = path.join(work, 'prefix');
  execFileSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--cache', path.join(work, 'npm-cache'), '--no-audit', '--no-fund', `./${tarball}`], {
    cwd: fresh,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  installed = path.join(prefix, 'lib', 'node_modules', source.name);
  bin = path.join(prefix, 'bin', 'oriel');
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('installs with no registry and no dependencies: the oriel command, the CLI and both unpacked extensions', () => {
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
    expect(manifest.dependencies ?? {}).toStrictEqual({});
    expect(existsSync(path.join(installed, 'node_modules'))).toBe(false);
    expect(realpathSync(bin)).toBe(realpathSync(path.join(installed, 'dist', 'broker', 'oriel.mjs')));
    for (const file of ['dist/chrome/manifest.json', 'dist/firefox/manifest.json', 'dist/oriel-firefox.zip', 'dist/broker/THIRD-PARTY-LICENSES.txt']) {
      expect(existsSync(path.join(installed, file)), file).toBe(true);
    }
    // No sources, tests or source maps of the checkout.
    expect(readdirSync(installed).sort()).toStrictEqual(['README.md', 'dist', 'docs', 'package.json']);
    expect(readdirSync(path.join(installed, 'dist', 'broker')).sort()).toStrictEqual(['THIRD-PARTY-LICENSES.txt', 'chunks', 'oriel.mjs']);
    // The code the CLI loads when a command first needs it, and no source maps.
    expect(readdirSync(path.join(installed, 'dist', 'broker', 'chunks')).filter((n) => !n.endsWith('.mjs'))).toStrictEqual([]);
    // The installed bin answers --version on stdout (test/unit/cli-main.test.ts covers where else output goes).
    const version = spawnSync(bin, ['--version'], { cwd: work, encoding: 'utf8' });
    expect([version.status, version.stdout.trim(), version.stderr]).toStrictEqual([0, source.version, '']);
  });

  it("passes npm publish --dry-run: a name and a version by the registry's rules", () => {
    const run = spawnSync('npm', ['publish', '--dry-run', '--offline', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`+ ${source.name}@${source.version}`);
  });

  it('oriel setup, the demo session through the installed oriel mcp, and oriel doctor, in Chromium', async () => {
    let profile = '';
    const site = await serveFixtures();
    let rig: Rig | undefined;
    try {
      rig = await launchRig('chromium', {
        oriel: {
          command: bin,
          register: (p) => {
            profile = p;
            return ['setup', '--browser', 'chromium', '--chromium-profile', p, '--json'];
          },
          extension: (out) => (JSON.parse(out) as { extension: { chromium: string } }).extension.chromium,
        },
      });
      const setup = JSON.parse(rig.registered) as { launcher: string; extension: Record<string, unknown>; load: Array<{ target: string; steps: string[] }> };
      const dist = path.join(realpathSync(installed), 'dist');
      expect(setup.extension).toStrictEqual({
        found: true,
        chromium: path.join(dist, 'chrome'),
        firefox: path.join(dist, 'firefox'),
        firefox_zip: path.join(dist, 'oriel-firefox.zip'),
      });
      expect(setup.load.map((l) => l.target)).toStrictEqual(['chromium-profile', 'chromium']);
      expect(setup.load[0]!.steps).toContain(`Load unpacked → ${path.join(dist, 'chrome')}`);
      // The browser starts the installed CLI, not this checkout's.
      expect(readFileSync(setup.launcher, 'utf8')).toContain(path.join(dist, 'broker', 'oriel.mjs'));

      let transcript = '';
      const outcome = await runDemoSession(rig, site.url, { write: (t) => void (transcript += t), color: false });
      expect(outcome.calls.slice(-3)).toStrictEqual(['evaluate', 'snapshot', 'extract_rows']);
      expect(JSON.stringify(outcome.cart)).toContain('Wireless ergonomic keyboard');
      expect(JSON.stringify(outcome.cart)).toContain('Compact keyboard');
      expect(transcript).toContain('Demo finished');

      // The hub the installed `oriel mcp` started runs the installed CLI too.
      const hubPid = readFileSync(path.join(rig.env.ORIEL_RUNTIME_DIR!, 'hub.pid'), 'utf8').trim();
      const hubArgs = readFileSync(`/proc/${hubPid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      expect(hubArgs.at(-1)).toBe('hub');
      expect(realpathSync(hubArgs.at(-2)!)).toBe(path.join(dist, 'broker', 'oriel.mjs'));

      // Every link of the chain holds while the agent works in the shared tab.
      const doctor = JSON.parse(rig.cli(['doctor', '--chromium-profile', profile, '--json'])) as Array<{ check: string; ok: boolean; detail: string }>;
      expect(doctor.filter((c) => !c.ok)).toStrictEqual([]);
      expect(doctor.map((c) => c.check)).toStrictEqual(['manifest:chromium-profile', 'launcher', 'extension-id:chromium-profile', 'runtime', 'hub', 'hub-program', 'browsers', 'sessions']);
      // The hub the installed package's launcher started runs that package's CLI (this oriel).
      expect(doctor.find((c) => c.check === 'hub-program')?.detail).toMatch(/\(this oriel\)$/);
    } finally {
      await rig?.close();
      await site.close();
    }
  }, 240_000);
});
