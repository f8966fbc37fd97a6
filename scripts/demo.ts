// `npm run demo`: builds if needed, starts the system Chromium (headed when a display exists) with the extension and
// the bundled sample shop, shares its tab through the popup, and runs an agent-style MCP session, printing it: reading
// and acting on the page, then the shop's own tool — a call that waits for the person's permission, which the demo
// answers in the popup as the person would — and its bridge (docs/bridge.md).
import { existsSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { call, handleOf, launchRig, serveFixtures, until, type Rig } from '../test/e2e/harness.js';
import { answerPrompt, waitForPrompt } from '../test/e2e/consent-helpers.js';

const BROWSER_BIN = '/usr/bin/chromium';
const useColor = process.stdout.isTTY;
const dim = (s: string) => (useColor ? `\x1b[2m${s}\x1b[0m` : s);
const bold = (s: string) => (useColor ? `\x1b[1m${s}\x1b[0m` : s);

function show(label: string, text: string): void {
  process.stdout.write(`\n${bold(label)}\n${text.split('\n').map((l) => `  ${l}`).join('\n')}\n`);
}

/**
 * Calls a tool that waits for the person's permission: prints the prompt as the popup shows it, answers it there with
 * `answer` as the person would, and prints the result once the call resumes.
 */
async function stepWithPrompt(rig: Rig, page: Page, client: Client, tool: string, args: Record<string, unknown>, answer: string) {
  process.stdout.write(`\n${bold(`→ ${tool} ${JSON.stringify(args)}`)}\n${dim('  … waits for the user: the Oriel toolbar badge counts 1, a notification is up, and the popup shows:')}\n`);
  const waiting = call(client, tool, args);
  const card = await waitForPrompt(rig);
  for (const line of card.lines) process.stdout.write(dim(`  │ ${line}\n`));
  process.stdout.write(dim(`  │ [${card.labels.join('] [')}]\n`));
  process.stdout.write(dim(`  The user clicks "${card.labels[card.answers.indexOf(answer)]}" in the popup; the call resumes.\n`));
  await answerPrompt(rig, { capability: card.capability }, answer, page);
  const r = await waiting;
  process.stdout.write(`${((r.isError ? 'ERROR ' : '') + r.text).split('\n').map((l) => `  ${l}`).join('\n')}\n`);
  if (r.isError) throw new Error(`${tool} failed: ${r.error?.code}`);
  return r.structured;
}

/** Calls a tool, prints the request and the result the model would read, and returns the structured result. */
async function step(client: Client, tool: string, args: Record<string, unknown> = {}) {
  const r = await call(client, tool, args);
  show(`→ ${tool} ${JSON.stringify(args)}`, (r.isError ? 'ERROR ' : '') + r.text);
  if (r.isError) throw new Error(`${tool} failed: ${r.error?.code}`);
  return r.structured;
}

async function main(): Promise<void> {
  if (!existsSync(BROWSER_BIN)) {
    process.stderr.write('Oriel demo needs Debian\'s Chromium. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium\n');
    process.exit(1);
  }
  const headed = Boolean(process.env.DISPLAY) && process.env.ORIEL_DEMO_HEADLESS !== '1';
  const site = await serveFixtures();
  let rig: Rig | undefined;
  try {
    process.stdout.write(dim(`Starting Chromium (${headed ? 'headed' : 'headless'}) with the Oriel extension; sample shop at ${site.url}/shop/\n`));
    rig = await launchRig('chromium', { headless: !headed });
    const page = await rig.open(`${site.url}/shop/index.html`);
    await page.bringToFront();
    await until(() => rig!.connectedBrowsers() > 0, 20_000, 'the extension to reach the broker');
    process.stdout.write(dim('The user shares the tab from the Oriel popup ("Share this tab").\n'));
    await rig.share('/shop/index.html');

    const agent = await rig.client('modern', 'demo-agent');
    process.stdout.write(dim('An MCP client connected to `oriel mcp` (protocol 2026-07-28). Transcript:\n'));
    await until(async () => ((await call(agent, 'list_sessions')).structured.sessions as unknown[]).length === 1, 10_000, 'the shared session');
    await step(agent, 'list_sessions');
    const first = await step(agent, 'snapshot');
    const outline = first.text as string;
    const search = handleOf(outline, /searchbox "Search"/);
    await step(agent, 'type', { handle: search, text: 'wireless' });
    await step(agent, 'press_key', { handle: search, key: 'Enter' });
    await step(agent, 'wait_for', { text: 'results for "wireless"', timeout_ms: 5_000 });
    const results = await step(agent, 'snapshot', { query: 'wireless' });
    const add = handleOf(results.text as string, /button "Add Wireless ergonomic keyboard to cart"/);
    await step(agent, 'click', { handle: add });
    // The shop also talks back: a tool it registered, and answers on the bridge.
    process.stdout.write(dim("\nThe shop registered a page tool and talks on the bridge. Running the page's own operations needs the user's permission.\n"));
    await step(agent, 'list_tab_operations');
    await stepWithPrompt(rig, page, agent, 'call_tab_operation', { name: 'add_to_cart', arguments: { product_id: 'kb-4', qty: 2 } }, 'allow_once');
    const heard = await step(agent, 'await_message', { timeout_ms: 5_000 });
    await step(agent, 'send_message', { data: { ask: 'cart_total' } });
    await step(agent, 'await_message', { after: heard.next as number, timeout_ms: 5_000 });
    const cart = await step(agent, 'snapshot', { roles: ['table', 'button'] });
    const table = handleOf(cart.text as string, /^\s*-?\s*table/);
    await step(agent, 'extract_rows', { handle: table });
    process.stdout.write(
      `\n${bold('Demo finished:')} the agent searched (typing, then pressing Enter), added an item by clicking and another through the shop's own tool, asked the shop for the total on the bridge, and read the cart back.\n`,
    );
  } finally {
    await rig?.close();
    await site.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
