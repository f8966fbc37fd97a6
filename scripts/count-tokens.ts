// Counts characters and approximate tokens of Oriel snapshots of the snapshot fixtures, in real Chromium, with the
// characters per interactive element. Usage: npx tsx scripts/count-tokens.ts [fixture.html …]
// Tokens are estimated as characters / 4 (no tokenizer package is installed; the outline is mostly ASCII words).
import { readdirSync } from 'node:fs';
import { launchSnapRig, SNAPSHOT_FIXTURES } from '../test/e2e/snapshot-rig/rig.js';

const DEFAULTS = [...readdirSync(SNAPSHOT_FIXTURES).filter((f) => f.endsWith('.html') && f !== 'frame-child.html'), 'generated.html?n=1000', 'big.html?n=60'];
const files = process.argv.slice(2).length ? process.argv.slice(2) : DEFAULTS;
const rig = await launchSnapRig('chromium');
try {
  const rows: string[][] = [['fixture', 'chars', '~tokens', 'lines', 'interactive', 'chars/interactive line']];
  for (const f of files) {
    const page = await rig.open(f.replace('frames.html', 'frames.html?b={b}').replace('?b={b}?', '?b={b}&'));
    const r = await rig.snapshot(page, { max_chars: 200_000 });
    const lines = r.text.split('\n').slice(1, -1);
    // Interactive lines: roles an agent acts on, as the walker marks them (states aside).
    const act = lines.filter((l) => /^ *(button|link|textbox|searchbox|checkbox|radio|switch|combobox|listbox|slider|spinbutton|tab|menuitem\w*|option|treeitem|clickable|summary)\b.* @\S+$/.test(l));
    const actChars = act.reduce((n, l) => n + l.trimStart().length + 1, 0);
    rows.push([f, String(r.text.length), String(Math.round(r.text.length / 4)), String(lines.length), String(act.length), act.length ? (actChars / act.length).toFixed(1) : '-']);
    await page.close();
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
} finally {
  await rig.close();
}
