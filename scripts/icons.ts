// Renders the toolbar and notification icons (icons/oriel-<size>.png) from icons/oriel.svg with the system Chromium.
// Usage: npx tsx scripts/icons.ts (the PNGs are committed; run it again after changing the SVG).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const root = path.resolve(import.meta.dirname, '..');
const svg = readFileSync(path.join(root, 'icons/oriel.svg'), 'utf8');
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  for (const size of [16, 32, 48, 128]) {
    await page.setViewport({ width: size, height: size });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
    await page.screenshot({ path: path.join(root, `icons/oriel-${size}.png`) as `${string}.png`, omitBackground: true });
  }
} finally {
  await browser.close();
}
