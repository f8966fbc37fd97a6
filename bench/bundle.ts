// Bundles bench/inpage.ts (and the Oriel snapshot code it imports, from the working tree) into one IIFE string
// that the benchmark adds to a page with puppeteer's addScriptTag.
import { build } from 'esbuild';
import path from 'node:path';

export async function bundleInPage(): Promise<string> {
  const out = await build({
    entryPoints: [path.join(import.meta.dirname, 'inpage.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    write: false,
    minify: false,
    logLevel: 'error',
  });
  return out.outputFiles[0]!.text;
}
