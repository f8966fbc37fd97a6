// `npm run demo`: builds if needed, starts the system Chromium (headed when a display exists) with the extension and
// the bundled sample shop, and runs the agent session of scripts/demo-session.ts, printing it.
import { existsSync } from 'node:fs';
import { launchRig, serveFixtures, type Rig } from '../test/e2e/harness.js';
import { runDemoSession } from './demo-session.js';

const BROWSER_BIN = '/usr/bin/chromium';

async function main(): Promise<void> {
  if (!existsSync(BROWSER_BIN)) {
    process.stderr.write('Oriel demo needs Debian\'s Chromium. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium\n');
    process.exit(1);
  }
  const headed = Boolean(process.env.DISPLAY) && process.env.ORIEL_DEMO_HEADLESS !== '1';
  const transcript = { write: (t: string) => void process.stdout.write(t), color: process.stdout.isTTY };
  const site = await serveFixtures();
  let rig: Rig | undefined;
  try {
    const note = `Starting Chromium (${headed ? 'headed' : 'headless'}) with the Oriel extension; sample shop at ${site.url}/shop/\n`;
    transcript.write(transcript.color ? `\x1b[2m${note}\x1b[0m` : note);
    rig = await launchRig('chromium', { headless: !headed });
    await runDemoSession(rig, site.url, transcript);
  } finally {
    await rig?.close();
    await site.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
