// Counts characters and approximate tokens of Oriel snapshots of the snapshot fixtures, through the real chain
// (Chromium + extension + native host + hub + MCP), with the characters per interactive line.
// Usage: npx tsx scripts/count-tokens.ts [fixture.html …]
// Tokens are estimated as characters / 4 (no tokenizer package is installed; the outline is mostly ASCII words).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { call, FIXTURES, launchRig, serveFixtures, until } from '../test/e2e/harness.js';

const dir = path.join(FIXTURES, 'snapshot');
const DEFAULTS = [...readdirSync(dir).filter((f) => f.endsWith('.html') && f !== 'frame-child.html'), 'generated.html?n=1000', 'big.html?n=60'];
const files = process.argv.slice(2).length ? process.argv.slice(2) : DEFAULTS;
const site = await serveFixtures(dir);
const other = await serveFixtures(dir);
const rig = await launchRig('chromium');
try {
  const client = await rig.client('modern', 'count-tokens');
  await rig.open(`${site.url}/${files[0]}`);
  await rig.share(`${site.url}/`);
  await until(async () => ((await call(client, 'list_sessions')).structured.sessions as unknown[]).length === 1, 20_000, 'the shared tab');
  const rows: string[][] = [['fixture', 'chars', '~tokens', 'lines', 'interactive', 'chars/interactive line']];
  for (const f of files) {
    const url = `${site.url}/${f.replace('{b}', encodeURIComponent(other.url))}${f === 'frames.html' ? `?b=${encodeURIComponent(other.url)}` : ''}`;
    const nav = await call(client, 'navigate', { url });
    if (nav.isError) throw new Error(`${f}: ${nav.error?.message}`);
    const r = await call(client, 'snapshot', { max_chars: 200_000 });
    const text = r.text;
    const lines = text.split('\n').slice(1, -1);
    // Interactive lines: roles an agent acts on, as the walker marks them (states aside).
    const act = lines.filter((l) => /^ *(button|link|textbox|searchbox|checkbox|radio|switch|combobox|listbox|slider|spinbutton|tab|menuitem\w*|option|treeitem|clickable|summary)\b.* @\S+$/.test(l));
    const actChars = act.reduce((n, l) => n + l.trimStart().length + 1, 0);
    rows.push([f, String(text.length), String(Math.round(text.length / 4)), String(lines.length), String(act.length), act.length ? (actChars / act.length).toFixed(1) : '-']);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
} finally {
  await rig.close();
  await site.close();
  await other.close();
}
