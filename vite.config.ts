// Builds the extension for one browser: `ORIEL_BROWSER=chrome|firefox vite build` → dist/<browser>.
import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import base from './manifest.json' with { type: 'json' };
import { stripZodJitPlugin } from './scripts/strip-zod-jit.js';
import { noWebAccessiblePlugin } from './scripts/no-web-accessible.js';

const browser = process.env.ORIEL_BROWSER === 'firefox' ? 'firefox' : 'chrome';

/**
 * One manifest, two outputs: Firefox refuses `background.service_worker` and has no use for `key`. Both keep
 * `match_origin_as_fallback` (Firefox 128+): without it Firefox runs no content script in opaque-origin frames
 * (sandboxed srcdoc), which Chromium reaches.
 */
function manifestFor(target: 'chrome' | 'firefox') {
  const m: Record<string, unknown> = structuredClone(base);
  if (target === 'firefox') {
    delete m.key;
    delete m.minimum_chrome_version;
    m.background = { scripts: ['extension/background/index.ts'], type: 'module' };
  } else {
    delete m.browser_specific_settings;
    // Chrome exposes chrome.userScripts only while the extension holds `userScripts` *and* the per-extension "Allow
    // User Scripts" switch in chrome://extensions is on (off by default). Declared at install, the switch is the one
    // step the user takes; declared optional, they would also need a permissions.request() grant first.
    // Trusted input (docs/architecture.md, "Input") drives a shared tab through the DevTools protocol, which only this
    // build has. Chromium refuses `debugger` as an optional permission (it is flagged "cannot be optional" and dropped
    // with an install warning), so it is declared here; the option in the options page, off by default, decides use.
    m.permissions = [...(m.permissions as string[]), 'userScripts', 'debugger'];
    m.optional_permissions = (m.optional_permissions as string[]).filter((p) => p !== 'userScripts');
    if ((m.optional_permissions as string[]).length === 0) delete m.optional_permissions;
  }
  return m;
}

export default defineConfig({
  plugins: [crx({ manifest: manifestFor(browser) as never, browser }), stripZodJitPlugin(), noWebAccessiblePlugin()],
  // extension/build-target.ts: lets each build leave out what only the other browser can run.
  define: { __ORIEL_BROWSER__: JSON.stringify(browser) },
  build: {
    outDir: `dist/${browser}`,
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    target: 'es2022',
  },
  logLevel: 'warn',
});
