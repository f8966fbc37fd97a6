// The built extensions declare nothing a page could see Oriel by (docs/architecture.md, "What a page can see"): for
// every page only the early watcher, small and in the isolated world (the background puts the content script and the
// page script into shared tabs), and no web-accessible files.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostPattern } from '../../extension/background/host-pattern.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe.each(['chrome', 'firefox'])('the %s build', (browser) => {
  const file = path.join(ROOT, 'dist', browser, 'manifest.json');
  it.skipIf(!existsSync(file))('declares only the early watcher (isolated world, under 8 KB) and no web-accessible files; the scripts it injects are built', () => {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { content_scripts?: Array<{ js: string[]; world?: string }>; web_accessible_resources?: unknown };
    expect(manifest.web_accessible_resources).toBeUndefined();
    expect(manifest.content_scripts?.map((c) => ({ js: c.js, world: c.world ?? 'ISOLATED' }))).toEqual([{ js: ['extension/content/early.iife.js'], world: 'ISOLATED' }]);
    expect(statSync(path.join(ROOT, 'dist', browser, 'extension/content/early.iife.js')).size).toBeLessThan(8 * 1024);
    for (const script of ['extension/main/index.iife.js', 'extension/main/gated.iife.js', 'extension/content/index.iife.js']) expect(existsSync(path.join(ROOT, 'dist', browser, script))).toBe(true);
  });
});

describe('hostPattern', () => {
  it('names the scheme and host of web pages, any port, and nothing else', () => {
    expect(hostPattern('https://shop.example/cart?x=1#y')).toBe('https://shop.example/*');
    expect(hostPattern('http://127.0.0.1:8080/a')).toBe('http://127.0.0.1/*');
    expect(hostPattern('http://[::1]:3000/')).toBe('http://[::1]/*');
    for (const url of ['file:///home/a.html', 'about:blank', 'data:text/html,x', 'chrome-extension://abc/popup.html', 'not a url', undefined]) expect(hostPattern(url)).toBeUndefined();
  });
});
