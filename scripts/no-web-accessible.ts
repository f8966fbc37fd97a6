// Vite plugin for the extension build (vite.config.ts): keeps the manifest free of `web_accessible_resources`.
// @crxjs/vite-plugin lists every script the background injects by file (`?script` imports) as web-accessible, which
// would let any web page fetch `chrome-extension://<id>/…` and so tell that Oriel is installed. The background injects
// the page-world script with `scripting.executeScript`, which needs no such listing
// (https://developer.chrome.com/docs/extensions/reference/manifest/web-accessible-resources), and no page may load a
// file of ours (docs/architecture.md, "What a page can see").
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Removes `web_accessible_resources` from the written manifest.json of the build in `outDir`. */
export function noWebAccessiblePlugin(): Plugin {
  let outDir = '';
  return {
    name: 'oriel-no-web-accessible',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const file = path.join(outDir, 'manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      if (!('web_accessible_resources' in manifest)) return;
      delete manifest.web_accessible_resources;
      writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}
