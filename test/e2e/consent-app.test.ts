// Permission prompts asked in the agent's own app too (MCP elicitation, 2025 revisions), end to end in real Chromium
// and Firefox with the official MCP client: a cross-origin click and an evaluate each answered in the client (with the
// narrow answers only, the question naming who, what, which site and tab, and the code); the popup's answer winning
// while the client's question is open (the client's request withdrawn); an answer in one client's app settling only
// that client's calls; a decline refusing; cancelling the call withdrawing it in both places; the option off (the default) sending no question at all; the audit log and
// its export saying where each answer was given.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, FIXTURES, call, handleOf, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt, auditRows, exportAudit, noPrompts, promptCards, waitForPrompt } from './consent-helpers.js';

type Site = Awaited<ReturnType<typeof serveFixtures>>;

/** One `elicitation/create` a client received: its message and offered answers, and its cancellation signal. */
interface Asked {
  message: string;
  answers: string[];
  labels: string[];
  signal: AbortSignal;
  reply(result: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }): void;
}

/** A client that declares form elicitation and queues each question it is asked until the test answers it. */
async function askingClient(rig: Rig, name: string, era: 'legacy' | 'modern' = 'legacy'): Promise<{ client: Client; asked: Asked[] }> {
  const asked: Asked[] = [];
  const client = await rig.client(era, name, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', (request, ctx) => {
    const params = request.params as unknown as { message: string; requestedSchema: { properties: { answer: { enum: string[]; enumNames: string[] } } } };
    return new Promise((resolve) => {
      asked.push({
        message: params.message,
        answers: params.requestedSchema.properties.answer.enum,
        labels: params.requestedSchema.properties.answer.enumNames,
        signal: ctx.mcpReq.signal,
        reply: (r) => resolve(r as never),
      });
    });
  });
  return { client, asked };
}

describe.each(BROWSERS)("prompts asked in the agent's app in %s", (kind) => {
  let rig: Rig;
  let one: Site;
  let page: Page;
  let app: Awaited<ReturnType<typeof askingClient>>;
  let off: Awaited<ReturnType<typeof askingClient>>;
  /** A 2026-07-28-era client: asked through input_required and its retry. */
  let modern: Awaited<ReturnType<typeof askingClient>>;
  let session: string;
  const A = () => one.origin;
  const B = () => one.origin.replace('127.0.0.1', 'localhost');
  const tool = (client: Client, name: string, args: Record<string, unknown> = {}) => call(client, name, { session, ...args });
  const nextQuestion = (who: { asked: Asked[] }, n: number) => until(() => who.asked[n], 20_000, `question ${n + 1} in the app`);

  beforeAll(async () => {
    one = await serveFixtures(path.join(FIXTURES, 'consent'));
    rig = await launchRig(kind);
    app = await askingClient(rig, 'agent-app');
    off = await askingClient(rig, 'agent-off');
    modern = await askingClient(rig, 'agent-modern', 'modern');
    page = await rig.open(`${A()}/page.html?one`);
    await rig.share('page.html?one');
    session = await until(async () => ((await call(app.client, 'list_sessions')).structured.sessions as Array<{ id: string }>)[0]?.id, 20_000, 'the shared tab to become a session');
    // The person lets agent-app ask in its app, in the options page, as they would.
    const options = await rig.extensionPage('options');
    await options.waitForSelector('#app-form');
    await options.type('#app-name', 'agent-app');
    await options.click('#app-form button[type="submit"]');
    await options.waitForSelector('#app-clients li[data-app="agent-app"]', { timeout: 10_000 });
    await options.type('#app-name', 'agent-modern');
    await options.click('#app-form button[type="submit"]');
    await options.waitForSelector('#app-clients li[data-app="agent-modern"]', { timeout: 10_000 });
    await page.bringToFront();
  });
  afterAll(async () => {
    await rig?.close();
    await one?.close();
  });

  it("the option is off by default: a client not on the person's list is never asked, the popup alone asks", async () => {
    const asking = tool(off.client, 'evaluate', { expression: '40 + 2' });
    await answerPrompt(rig, { capability: 'exec', origin: A() }, 'deny_once', page);
    expect((await asking).error?.code).toBe('permission_denied');
    expect(off.asked).toHaveLength(0);
  });

  it('a click in a cross-origin frame is answered in the app: the same question, narrow answers, the popup withdrawn', async () => {
    const load = await call(app.client, 'navigate', { session, url: `${A()}/page.html?frame=${encodeURIComponent(`${B()}/page.html?inner`)}` });
    expect(load.isError, load.text).toBe(false);
    const outline = await until(async () => {
      const text = (await tool(app.client, 'snapshot')).text;
      return (text.match(/button "Act"/g) ?? []).length === 2 ? text : undefined;
    }, 10_000, 'the iframe to show its button');
    const inner = outline.split('\n').filter((l) => /button "Act"/.test(l))[1]!;
    const click = tool(app.client, 'click', { handle: handleOf(inner, /button "Act"/) });
    const q = await nextQuestion(app, 0);
    expect(q.message).toContain(`may the agent "agent-app" click, type and navigate on ${B()}?`);
    expect(q.message).toContain(`It is a frame inside ${A()}.`);
    expect(q.message).toMatch(/Tab, titled by the page: "Consent page"/);
    expect(q.message).toContain('Tool: click');
    expect(q.answers).toEqual(['allow_once', 'allow_origin', 'deny_once']);
    expect(q.labels).toEqual(['Allow once', 'Allow on this site', 'Deny']);
    // The popup asks the same question meanwhile; the app's answer settles it there too.
    await waitForPrompt(rig, { capability: 'act', origin: B() });
    q.reply({ action: 'accept', content: { answer: 'allow_once' } });
    const done = await click;
    expect(done.isError, done.text).toBe(false);
    await noPrompts(rig);
  });

  it('an evaluate is answered in the app with "this exact code in this tab"; the audit log says where', async () => {
    const code = 'document.title + "\u202e<b>"';
    const asking = tool(app.client, 'evaluate', { expression: code });
    const q = await nextQuestion(app, 1);
    expect(q.message).toContain(`may the agent "agent-app" run code on ${A()}?`);
    // The code is shown, its direction override made visible.
    expect(q.message).toContain('Code (23 characters):\ndocument.title + "\\u{202e}<b>"');
    expect(q.answers).toEqual(['allow_once', 'allow_code_session', 'deny_once']);
    q.reply({ action: 'accept', content: { answer: 'allow_code_session' } });
    const ran = await asking;
    expect(ran.isError, ran.text).toBe(false);
    // The same code in this tab needs no question now.
    expect((await tool(app.client, 'evaluate', { expression: code })).isError).toBe(false);
    expect(app.asked).toHaveLength(2);

    const rows = await auditRows(rig);
    expect(rows.find((r) => r.kind === 'grant' && r.outcome === 'allow_code_session')).toMatchObject({ source: 'app' });
    const { entries } = await exportAudit(rig);
    expect(entries).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'grant', outcome: 'allow_code_session', source: 'app', source_client: 'agent-app', client: 'agent-app' }),
      expect.objectContaining({ kind: 'answer', capability: 'act', outcome: 'allow_once', source: 'app', source_client: 'agent-app' }),
    ]));
  });

  it("the popup's answer wins while the app's question is open: the client's request is withdrawn", async () => {
    const asking = tool(app.client, 'evaluate', { expression: '"popup wins"' });
    const q = await nextQuestion(app, 2);
    expect(q.signal.aborted).toBe(false);
    await answerPrompt(rig, { capability: 'exec', origin: A() }, 'allow_once', page);
    expect((await asking).structured.value).toBe('popup wins');
    await until(() => q.signal.aborted, 10_000, "the client's question to be withdrawn");
    // A late answer from the app changes nothing (the question is gone): the next call asks again.
    q.reply({ action: 'accept', content: { answer: 'allow_code_session' } });
    const again = tool(app.client, 'evaluate', { expression: '"popup wins"' });
    const next = await nextQuestion(app, 3);
    next.reply({ action: 'decline' });
    expect((await again).error?.code).toBe('permission_denied');
    await noPrompts(rig);
  });

  it('cancelling the call withdraws the question in the app and the prompt in the popup', async () => {
    const abort = new AbortController();
    const asking = app.client.callTool({ name: 'evaluate', arguments: { session, expression: '"cancelled"' } }, { signal: abort.signal }).catch((e: unknown) => e);
    const q = await nextQuestion(app, 4);
    await waitForPrompt(rig, { capability: 'exec', origin: A() });
    abort.abort();
    await asking;
    await until(() => q.signal.aborted, 10_000, "the client's question to be withdrawn");
    await noPrompts(rig);
  });

  it("an answer in one client's app settles that client's calls only; the other client's call still waits on the popup", async () => {
    const code = '"shared question"';
    const theirs = tool(off.client, 'evaluate', { expression: code });
    await waitForPrompt(rig, { capability: 'exec', origin: A() });
    const mine = tool(app.client, 'evaluate', { expression: code });
    const q = await nextQuestion(app, 5);
    await until(async () => (await promptCards(rig))[0]?.text.includes('2 calls waiting'), 10_000, 'both calls to wait on one prompt');
    q.reply({ action: 'accept', content: { answer: 'allow_once' } });
    expect((await mine).structured.value).toBe('shared question');
    // agent-off's call still waits: the popup shows the prompt with its one call, and only the person can answer it.
    const left = await until(async () => (await promptCards(rig)).find((c) => c.text.includes('1 call waiting')), 10_000, 'the prompt to keep the other call');
    expect(left.text).toContain('agent-off');
    await answerPrompt(rig, { capability: 'exec', origin: A() }, 'deny_once', page);
    expect((await theirs).error?.code).toBe('permission_denied');
    expect(off.asked).toHaveLength(0);
  });

  it('2026-07-28: a cross-origin click and an evaluate are answered through input_required and the retry', async () => {
    const outline = await until(async () => {
      const text = (await tool(modern.client, 'snapshot')).text;
      return (text.match(/button "Act"/g) ?? []).length === 2 ? text : undefined;
    }, 10_000, 'the iframe to show its button');
    const inner = outline.split('\n').filter((l) => /button "Act"/.test(l))[1]!;
    const click = tool(modern.client, 'click', { handle: handleOf(inner, /button "Act"/) });
    const q = await nextQuestion(modern, 0);
    expect(q.message).toContain(`may the agent "agent-modern" click, type and navigate on ${B()}?`);
    expect(q.answers).toEqual(['allow_once', 'allow_origin', 'deny_once']);
    await waitForPrompt(rig, { capability: 'act', origin: B() });
    q.reply({ action: 'accept', content: { answer: 'allow_once' } });
    const done = await click;
    expect(done.isError, done.text).toBe(false);
    await noPrompts(rig);

    const asking = tool(modern.client, 'evaluate', { expression: '"modern era"' });
    const e = await nextQuestion(modern, 1);
    expect(e.message).toContain('Code (12 characters):\n"modern era"');
    expect(e.answers).toEqual(['allow_once', 'allow_code_session', 'deny_once']);
    e.reply({ action: 'accept', content: { answer: 'allow_once' } });
    expect((await asking).structured.value).toBe('modern era');
    const denied = tool(modern.client, 'evaluate', { expression: '"modern era"' });
    (await nextQuestion(modern, 2)).reply({ action: 'decline' });
    expect((await denied).error?.code).toBe('permission_denied');
    const { entries } = await exportAudit(rig);
    expect(entries).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'grant', outcome: 'allow_once', source: 'app', source_client: 'agent-modern' })]));
  });
});
