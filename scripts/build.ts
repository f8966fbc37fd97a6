// Builds everything: the extension for Chromium and Firefox — unpacked in dist/chrome and dist/firefox (development and
// tests), and the store uploads dist/oriel-chrome.zip and dist/oriel-firefox.zip — and the broker CLI bundle
// (dist/broker/oriel.mjs and the chunks it loads on demand in dist/broker/chunks/, its dependencies bundled in, their
// licenses beside it in THIRD-PARTY-LICENSES.txt).
// Usage: npm run build [-- --only broker|extension]. Checked by test/unit/store-package.test.ts and
// test/e2e/package.test.ts (the npm package made of these files).
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { zipSync } from 'fflate';
import { readdirSync, readFileSync, statSync, writeFileSync, chmodSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;

function filesUnder(dir: string, base = dir, out: Record<string, Uint8Array> = {}): Record<string, Uint8Array> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) filesUnder(full, base, out);
    else out[path.relative(base, full).split(path.sep).join('/')] = readFileSync(full);
  }
  return out;
}

/**
 * The store upload's files: the unpacked build's, except that the Chromium manifest loses its `key`. The key pins the
 * development id (shared/extension-ids.ts); the Chrome Web Store refuses a manifest with one and assigns its own id.
 * The Firefox upload keeps its gecko id, which addons.mozilla.org uses as the listing's id.
 */
function storeFiles(browser: 'chrome' | 'firefox', files: Record<string, Uint8Array>): Record<string, Uint8Array> {
  if (browser === 'firefox') return files;
  const manifest = JSON.parse(new TextDecoder().decode(files['manifest.json'])) as Record<string, unknown>;
  delete manifest.key;
  return { ...files, 'manifest.json': new TextEncoder().encode(JSON.stringify(manifest, null, 2)) };
}

async function buildExtension(browser: 'chrome' | 'firefox'): Promise<void> {
  process.env.ORIEL_BROWSER = browser;
  await viteBuild({ configFile: path.join(root, 'vite.config.ts'), root, logLevel: 'warn' });
  const dir = path.join(root, 'dist', browser);
  writeFileSync(path.join(root, 'dist', `oriel-${browser}.zip`), zipSync(storeFiles(browser, filesUnder(dir))));
}

async function buildBroker(): Promise<void> {
  const outfile = path.join(root, 'dist/broker/oriel.mjs');
  rmSync(path.dirname(outfile), { recursive: true, force: true });
  mkdirSync(path.dirname(outfile), { recursive: true });
  const result = await esbuild({
    entryPoints: { oriel: path.join(root, 'broker/cli/main.ts') },
    outdir: path.dirname(outfile),
    outExtension: { '.js': '.mjs' },
    // What only some commands need (pdf.js, for PDF tabs: 3.5 MB of source) lives in chunks loaded when first used,
    // so every process Oriel starts — the native host, the hub, `oriel mcp` — parses half as much before it works.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Every dependency is bundled, so the published package has no runtime dependencies: `npm install -g` of its
    // tarball needs no registry (docs/install.md, "Install"). CommonJS dependencies (proper-lockfile, ajv) call
    // `require` for Node's built-ins, which an ES module does not have; the banner gives the bundle one.
    banner: { js: "import { createRequire as __orielCreateRequire } from 'node:module';\nconst require = __orielCreateRequire(import.meta.url);" },
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  chmodSync(outfile, 0o755);
  writeFileSync(path.join(path.dirname(outfile), 'THIRD-PARTY-LICENSES.txt'), licenseNotices(Object.keys(result.metafile.inputs)));
}

/**
 * The license texts of the npm packages bundled into the CLI (their MIT/ISC/BSD terms ask that the notice travel
 * with copies), one section per package, from each package's own package.json and LICENSE file.
 */
function licenseNotices(inputs: string[]): string {
  const dirs = new Set<string>();
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) dirs.add(path.resolve(root, m[1]!));
  }
  const sections = [...dirs].sort().map((dir) => {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
    const file = readdirSync(dir).find((n) => /^(licen[cs]e|copying)(\.|$)/i.test(n));
    const text = file ? readFileSync(path.join(dir, file), 'utf8').trim() : `(no license file; package.json says ${pkg.license ?? 'nothing'})`;
    return `${pkg.name}@${pkg.version} (${pkg.license ?? 'unknown'})\n\n${text}\n`;
  });
  return `Oriel's CLI (oriel.mjs) bundles these packages:\n\n${sections.join('\n' + '-'.repeat(78) + '\n\n')}`;
}

const started = Date.now();
if (only !== 'extension') await buildBroker();
if (only !== 'broker') {
  await buildExtension('chrome');
  await buildExtension('firefox');
}
process.stderr.write(`built in ${Date.now() - started} ms\n`);
