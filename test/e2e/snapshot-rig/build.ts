// Builds the snapshot test rig extension (content script + an extension page exposing the background snapshot code)
// with esbuild, for Chromium and Firefox, into .cache/snapshot-rig/<browser>. Used by test/e2e/snapshot*.test.ts.
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const RIG_GECKO_ID = 'oriel-snapshot-rig@oriel.dev';
const ROOT = path.resolve(import.meta.dirname, '../../..');

export async function buildRig(browser: 'chrome' | 'firefox'): Promise<string> {
  const out = path.join(ROOT, '.cache/snapshot-rig', browser);
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: { content: path.join(ROOT, 'extension/content/index.iife.ts'), bg: path.join(import.meta.dirname, 'page.ts'), relay: path.join(import.meta.dirname, 'relay.ts') },
    outdir: out,
    bundle: true,
    format: 'iife',
    target: 'es2022',
    logLevel: 'error',
  });
  const manifest: Record<string, unknown> = {
    manifest_version: 3,
    name: 'Oriel snapshot rig',
    version: '0.0.1',
    permissions: ['tabs', 'webNavigation', 'storage', 'scripting'],
    host_permissions: ['<all_urls>'],
    content_scripts: [
      { matches: ['<all_urls>'], js: ['content.js'], run_at: 'document_start', all_frames: true, match_about_blank: true },
      { matches: ['*://*/rig-control.html*'], js: ['relay.js'], run_at: 'document_end' },
    ],
    background: browser === 'chrome' ? { service_worker: 'bg.js' } : { scripts: ['bg.js'] },
  };
  if (browser === 'firefox') manifest.browser_specific_settings = { gecko: { id: RIG_GECKO_ID } };
  writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(manifest, null, 1));
  return out;
}
