// The demo's agent session (`npm run demo`, and test/e2e/package.test.ts through an installed package): the sample
// shop's tab shared through the popup, then an official MCP client on `oriel mcp` reads and acts on the page, calls the
// shop's own tool — a call that waits for the person's permission, answered in the popup as the person would — talks
// on its bridge (docs/bridge.md), and runs a line of its own code, a permission the person answers in the agent's own
// app (MCP elicitation) once they allowed that app to ask. Every call and its result is written out as the model reads
// it.
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { call, handleOf, until, type Rig } from '../test/e2e/harness.js';
import { answerPrompt, waitForPrompt } from '../test/e2e/consent-helpers.js';

/** Where the transcript goes, and whether it may use terminal colours. */
export interface Transcript {
  write(text: string): void;
  color: boolean;
}

/** What the session ended with: every tool it called, in order, and the cart as `extract_rows` read it. */
export interface DemoOutcome {
  calls: string[];
  cart: Record<string, unknown>;
}

/**
 * Runs the session on a rig whose browser has the extension: opens `${site}/shop/index.html`, shares it, connects an
 * MCP client (protocol 2026-07-28) and drives the shop. Throws on the first tool call that fails.
 */
export async function runDemoSession(rig: Rig, site: string, out: Transcript): Promise<DemoOutcome> {
  const dim = (s: string) => (out.color ? `\x1b[2m${s}\x1b[0m` : s);
  const bold = (s: string) => (out.color ? `\x1b[1m${s}\x1b[0m` : s);
  const calls: string[] = [];

  /** Calls a tool, writes the request and the result the model would read, and returns the structured result with the text the model read. */
  const step = async (client: Client, tool: string, args: Record<string, unknown> = {}) => {
    calls.push(tool);
    const r = await call(client, tool, args);
    const text = (r.isError ? 'ERROR ' : '') + r.text;
    out.write(`\n${bold(`→ ${tool} ${JSON.stringify(args)}`)}\n${text.split('\n').map((l) => `  ${l}`).join('\n')}\n`);
    if (r.isError) throw new Error(`${tool} failed: ${r.error?.code}`);
    return { ...r.structured, text: r.text } as Record<string, unknown> & { text: string };
  };

  /**
   * Calls a tool that waits for the person's permission: writes the prompt as the popup shows it, answers it there
   * with `answer` as the person would, and writes the result once the call resumes.
   */
  const stepWithPrompt = async (page: Page, client: Client, tool: string, args: Record<string, unknown>, answer: string) => {
    calls.push(tool);
    out.write(`\n${bold(`→ ${tool} ${JSON.stringify(args)}`)}\n${dim('  … waits for the user: the Oriel toolbar badge counts 1, a notification is up, and the popup shows:')}\n`);
    const waiting = call(client, tool, args);
    const card = await waitForPrompt(rig);
    for (const line of card.lines) out.write(dim(`  │ ${line}\n`));
    out.write(dim(`  │ [${card.labels.join('] [')}]\n`));
    out.write(dim(`  The user clicks "${card.labels[card.answers.indexOf(answer)]}" in the popup; the call resumes.\n`));
    await answerPrompt(rig, { capability: card.capability }, answer, page);
    const r = await waiting;
    out.write(`${((r.isError ? 'ERROR ' : '') + r.text).split('\n').map((l) => `  ${l}`).join('\n')}\n`);
    if (r.isError) throw new Error(`${tool} failed: ${r.error?.code}`);
    return { ...r.structured, text: r.text } as Record<string, unknown> & { text: string };
  };

  const page = await rig.open(`${site}/shop/index.html`);
  await page.bringToFront();
  await until(() => rig.connectedBrowsers() > 0, 20_000, 'the extension to reach the broker');
  out.write(dim('The user shares the tab from the Oriel popup ("Share this tab") and reloads it: a page registers its own\noperations as it loads, and Oriel\'s page API reaches only pages loaded in a shared tab (docs/architecture.md, "What a page can see").\n'));
  await rig.share('/shop/index.html');
  await page.reload();

  // The agent's app can show the person a form (MCP elicitation): once the person allows it in Oriel's options, Oriel's
  // permission questions appear there too, and the person answers where they are looking.
  const agent = await rig.client('modern', 'demo-agent', { capabilities: { elicitation: { form: {} } } });
  agent.setRequestHandler('elicitation/create', (request) => {
    const params = request.params as unknown as { message: string; requestedSchema: { properties: { answer: { enum: string[]; enumNames: string[] } } } };
    const { enum: answers, enumNames: labels } = params.requestedSchema.properties.answer;
    out.write(dim("  … the agent's app shows the person Oriel's question (the popup shows it too):\n"));
    for (const line of params.message.split('\n')) out.write(dim(`  ┃ ${line}\n`));
    out.write(dim(`  ┃ [${labels.join('] [')}]\n`));
    out.write(dim(`  The user clicks "${labels[answers.indexOf('allow_once')]}" in the agent's app; the popup's prompt goes away and the call resumes.\n`));
    return Promise.resolve({ action: 'accept' as const, content: { answer: 'allow_once' } });
  });
  out.write(dim('An MCP client connected to `oriel mcp` (protocol 2026-07-28). Transcript:\n'));
  await until(async () => ((await call(agent, 'list_sessions')).structured.sessions as unknown[]).length === 1, 10_000, 'the shared session');
  await step(agent, 'list_sessions');
  const first = await step(agent, 'snapshot');
  const search = handleOf(first.text as string, /searchbox "Search"/);
  await step(agent, 'type', { handle: search, text: 'wireless' });
  await step(agent, 'press_key', { handle: search, key: 'Enter' });
  await step(agent, 'wait_for', { text: 'results for "wireless"', timeout_ms: 5_000 });
  const results = await step(agent, 'snapshot', { query: 'wireless' });
  const add = handleOf(results.text as string, /button "Add Wireless ergonomic keyboard to cart"/);
  await step(agent, 'click', { handle: add });
  // The shop also talks back: a tool it registered, and answers on the bridge.
  out.write(dim("\nThe shop registered a page tool and talks on the bridge. Running the page's own operations needs the user's permission.\n"));
  await step(agent, 'list_tab_operations');
  await stepWithPrompt(page, agent, 'call_tab_operation', { name: 'add_to_cart', arguments: { product_id: 'kb-4', qty: 2 } }, 'allow_once');
  const heard = await step(agent, 'await_message', { timeout_ms: 5_000 });
  await step(agent, 'send_message', { data: { ask: 'cart_total' } });
  await step(agent, 'await_message', { after: heard.next as number, timeout_ms: 5_000 });
  out.write(dim("\nThe user lets demo-agent ask in its own app: Oriel's options page, \"Asking in your agent's app\".\n"));
  const options = await rig.extensionPage('options');
  await options.waitForSelector('#app-form');
  await options.type('#app-name', 'demo-agent');
  await options.click('#app-form button[type="submit"]');
  await options.waitForSelector('#app-clients li[data-app="demo-agent"]', { timeout: 10_000 });
  await page.bringToFront();
  await step(agent, 'evaluate', { expression: 'document.querySelectorAll("#cart tbody tr").length' });
  const cart = await step(agent, 'snapshot', { roles: ['table', 'button'] });
  const table = handleOf(cart.text as string, /^\s*-?\s*table/);
  const rows = await step(agent, 'extract_rows', { handle: table });
  out.write(
    `\n${bold('Demo finished:')} the agent searched (typing, then pressing Enter), added an item by clicking and another through the shop's own tool, asked the shop for the total on the bridge, ran a line of its own code once the user allowed it in the agent's app, and read the cart back.\n`,
  );
  return { calls, cart: rows };
}
