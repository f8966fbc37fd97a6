// Permission prompts end to end in real Chromium and Firefox, answered through the popup's real UI as the person would:
// sharing grants read and act on the origin shared at; a click in a cross-origin iframe asks for the frame's origin; a
// tab navigated to an origin with no grant asks; once means once, a denial refuses, act covers read, the host-on-any-
// port answer covers another port; several calls waiting on the same question share one prompt; an unanswered prompt
// fails its call with permission_timeout while the call's own deadline stays stopped; cancelling a call or closing its
// client withdraws its prompt; revoking in the options page makes the next call ask again; a call by handle is judged
// on the origin of the handle's own document. The badge counts prompts,
// a notification is raised, `oriel status` and list_sessions tell.
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, FIXTURES, call, handleOf, launchRig, serveFixtures, until, type Rig } from './harness.js';
import { answerPrompt, badgeText, lastNotification, noPrompts, notificationIds, promptCards, revoke, setPolicy, waitForPrompt } from './consent-helpers.js';

type Site = Awaited<ReturnType<typeof serveFixtures>>;

describe.each(BROWSERS)('permission prompts in %s', (kind) => {
  let rig: Rig;
  let one: Site;
  let two: Site;
  /** A third origin (127.0.0.1 on a third port), for one test; closed with the others once the browser is gone. */
  let three: Site | undefined;
  let page: Page;
  let agent: Client;
  let other: Client;
  let session: string;
  /** Origins: A is shared; B and C are localhost on A's and another port; D is 127.0.0.1 on the other port. */
  const A = () => one.origin;
  const B = () => one.origin.replace('127.0.0.1', 'localhost');
  const C = () => two.origin.replace('127.0.0.1', 'localhost');
  const D = () => two.origin;
  const tool = (name: string, args: Record<string, unknown> = {}, client = agent) => call(client, name, { session, ...args });
  const sessions = async () => (await call(agent, 'list_sessions')).structured.sessions as Array<{ id: string; url: string; grants: Array<Record<string, unknown>> }>;
  /** Loads `url`, a page of the origin the tab was shared at, in the shared tab (the agent's navigate: no prompt). */
  const load = async (url: string, s = session) => {
    const r = await call(agent, 'navigate', { session: s, url });
    expect(r.isError, r.text).toBe(false);
  };

  beforeAll(async () => {
    one = await serveFixtures(path.join(FIXTURES, 'consent'));
    two = await serveFixtures(path.join(FIXTURES, 'consent'));
    rig = await launchRig(kind);
    agent = await rig.client('legacy', 'agent-a');
    other = await rig.client('modern', 'agent-b');
    page = await rig.open(`${A()}/page.html?one`);
    await rig.share('page.html?one');
    session = await until(async () => (await sessions())[0]?.id, 20_000, 'the shared tab to become a session');
    await page.bringToFront();
  });
  afterAll(async () => {
    await rig?.close();
    await one?.close();
    await two?.close();
    await three?.close();
  });

  it('sharing grants read and act on the origin shared at, and list_sessions says so', async () => {
    const outline = (await tool('snapshot')).text;
    expect((await tool('click', { handle: handleOf(outline, /button "Act"/) })).isError).toBe(false);
    expect(await page.$eval('#out', (e) => e.textContent)).toBe('clicked 1');
    const [s] = await sessions();
    expect(s!.grants).toEqual(expect.arrayContaining([{ capability: 'read', effect: 'allow', scope: 'share' }, { capability: 'act', effect: 'allow', scope: 'share' }]));
    expect((await call(agent, 'list_sessions')).text).toMatch(/allowed: read \(shared\), act \(shared\)/);
    expect(await badgeText(rig)).toBe('');
  });

  it("while one agent's call waits on a prompt, another agent's calls on the same tab run; the waiting one then goes on", async () => {
    const asking = tool('evaluate', { expression: 'document.title' });
    await waitForPrompt(rig, { capability: 'exec', origin: A() });
    // The person has not answered yet: the other agent's read of the same tab is not held behind the prompt.
    const read = await tool('snapshot', {}, other);
    expect(read.isError, read.text).toBe(false);
    expect(read.text).toContain('button "Act"');
    expect(await promptCards(rig)).toHaveLength(1);
    await answerPrompt(rig, { capability: 'exec', origin: A() }, 'allow_once', page);
    const ran = await asking;
    expect(ran.isError, ran.text).toBe(false);
    expect(ran.text).toContain('Consent');
  });

  it("a click in a cross-origin iframe asks for the frame's origin; allowed on the host on any port, another port needs no prompt", async () => {
    await load(`${A()}/page.html?frame=${encodeURIComponent(`${B()}/page.html?inner`)}`);
    const outline = await until(async () => {
      const text = (await tool('snapshot')).text;
      return (text.match(/button "Act"/g) ?? []).length === 2 ? text : undefined;
    }, 10_000, 'the iframe to show its button');
    const inner = outline.split('\n').filter((l) => /button "Act"/.test(l))[1]!;
    const handle = /@([a-z0-9]+\.[0-9a-z]+)/.exec(inner)![1]!;

    const click = tool('click', { handle });
    const card = await waitForPrompt(rig, { capability: 'act', origin: B() });
    expect(card.text).toContain('agent-a wants to click, type and navigate');
    expect(card.text).toContain(`in a frame of ${B()}, inside ${A()}`);
    expect(card.text).toMatch(/click · 1 call waiting/);
    expect(card.answers).toEqual(['allow_once', 'allow_origin', 'allow_host', 'allow_any', 'deny_once', 'deny_origin']);
    // Someone not looking at the popup is told: the badge counts the prompt, a notification is up, `oriel status` lists it.
    expect(await badgeText(rig)).toBe('1');
    const note = await until(() => lastNotification(rig).then((n) => (n?.prompt === card.id ? n : undefined)), 5_000, 'the notification');
    expect(note.message).toBe(`agent-a wants to click, type and navigate on ${B()}. Click to answer.`);
    // The browser took it; headless Chromium also lists it as shown (headless Firefox closes it at once).
    expect(note.error).toBeUndefined();
    if (kind === 'chromium') expect(await notificationIds(rig)).toContain('oriel-prompts');
    const status = JSON.parse(rig.cli(['status', '--json'])) as { prompts: Array<Record<string, unknown>> };
    expect(status.prompts).toEqual([expect.objectContaining({ capability: 'act', origin: B(), clients: ['agent-a'], calls: 1 })]);
    expect(rig.cli(['status'])).toContain(`act on ${B()} for "agent-a"`);
    // Clicking the notification shows the prompts (the toolbar popup, or a window where the browser cannot open it):
    // the options page's "Answer them" does the same.
    const options = await rig.extensionPage('options');
    await options.waitForSelector('#waiting:not([hidden])', { timeout: 10_000 });
    const before = new Set(rig.browser.targets());
    await options.click('#show-prompts');
    const how = await options.waitForFunction(() => document.getElementById('waiting')!.dataset.shown, { timeout: 10_000 }).then((h) => h.jsonValue());
    // Chromium opens the toolbar popup itself; where a browser refuses, a window shows the same page. (Firefox's popup
    // is browser chrome that WebDriver does not list as a target.)
    if (how === 'window' || kind === 'chromium') {
      const opened = await rig.browser.waitForTarget((t) => !before.has(t) && t.url().includes('/extension/ui/popup.html'), { timeout: 10_000 });
      const shown = await opened.page().catch(() => null);
      if (shown) {
        await shown.waitForSelector(`article.prompt[data-origin="${B()}"]`, { timeout: 10_000 });
        if (how === 'window') await shown.close();
      }
    } else expect(how).toBe('popup');

    await answerPrompt(rig, { capability: 'act', origin: B() }, 'allow_host', page);
    const done = await click;
    expect(done.isError, done.text).toBe(false);
    await until(async () => /clicked 1/.test((await tool('snapshot')).text), 10_000, "the frame's button to count the click");
    expect(await badgeText(rig)).toBe('');
    await until(async () => !(await notificationIds(rig)).includes('oriel-prompts'), 5_000, 'the notification to go');

    // The same host on another port is covered by that answer: no prompt.
    await load(`${A()}/page.html?frame=${encodeURIComponent(`${C()}/page.html?inner`)}`);
    const second = await until(async () => {
      const lines = (await tool('snapshot')).text.split('\n').filter((l) => /button "Act"/.test(l));
      return lines.length === 2 ? lines[1] : undefined;
    }, 10_000, 'the second iframe');
    const r = await tool('click', { handle: /@([a-z0-9]+\.[0-9a-z]+)/.exec(second)![1]! });
    expect(r.isError, r.text).toBe(false);
    expect(await promptCards(rig)).toEqual([]);
  });

  it('a tab navigated to an origin with no grant asks: the call waits past its own deadline, once is once, a denial refuses, act covers read', async () => {
    // The tab moves on by itself (the person's navigation, not an agent's).
    await page.goto(`${D()}/page.html?away`, { waitUntil: 'load' });
    await page.bringToFront();
    // wait_for with timeout_ms 0 has a 5 s deadline; the person answers after it passed, and the call still goes on. A
    // client that asked for progress hears that the call waits for the person.
    const started = Date.now();
    const progress: string[] = [];
    const waiting = agent
      .callTool({ name: 'wait_for', arguments: { session, text: 'Consent page', timeout_ms: 0 } }, { onprogress: (p) => void progress.push(p.message ?? '') })
      .then((r) => ({ isError: r.isError === true, text: JSON.stringify(r.content) }));
    const card = await waitForPrompt(rig, { capability: 'read', origin: D() });
    expect(card.text).toContain('agent-a wants to read pages on ' + D());
    expect(card.text).toMatch(/Tab: “?"?Consent page"?”? \(title set by the page\)/);
    await until(() => Date.now() - started > 6_000, 10_000, "the call's own deadline to pass");
    await answerPrompt(rig, { capability: 'read', origin: D() }, 'allow_once', page);
    const waited = await waiting;
    expect(waited.isError, waited.text).toBe(false);
    // The first progress is sent when the call starts waiting on the person (more follow every 10 s while it waits).
    expect(progress[0]).toMatch(/^Waiting up to \d+ s more for the user to answer Oriel's permission prompt\.$/);

    // Once was once: the next read asks again; this time the person denies.
    const snap = tool('snapshot');
    await answerPrompt(rig, { capability: 'read', origin: D() }, 'deny_once', page);
    const denied = await snap;
    expect(denied.error?.code).toBe('permission_denied');
    expect(denied.error?.next).toBeTruthy();

    // Acting asks for act; allowed on this origin, later reads and clicks go through without asking.
    const click = tool('click', { selector: '#act' });
    await answerPrompt(rig, { capability: 'act', origin: D() }, 'allow_origin', page);
    expect((await click).isError).toBe(false);
    expect(await page.$eval('#out', (e) => e.textContent)).toBe('clicked 1');
    expect((await tool('snapshot')).isError).toBe(false);
    expect((await tool('click', { selector: '#act' })).isError).toBe(false);
    expect(await promptCards(rig)).toEqual([]);
    expect((await sessions())[0]!.grants).toContainEqual({ capability: 'act', effect: 'allow', scope: 'origin' });
  });

  it('revoking in the options page makes the next call ask again; an always-deny refuses without asking', async () => {
    expect(await revoke(rig, { site: D(), capability: 'act' })).toBe(1);
    await page.bringToFront();
    const snap = tool('snapshot');
    await answerPrompt(rig, { capability: 'read', origin: D() }, 'deny_origin', page);
    expect((await snap).error?.code).toBe('permission_denied');
    const again = await tool('snapshot');
    expect(again.error?.code).toBe('permission_denied');
    expect(again.error?.message).toMatch(/always denies read/);
    expect(await promptCards(rig)).toEqual([]);
    expect(await revoke(rig, { site: D(), effect: 'deny' })).toBe(1);
  });

  it('several calls waiting on the same origin and capability share one prompt', async () => {
    const second = await rig.open(`${A()}/page.html?two`);
    await rig.share('page.html?two');
    const ids = await until(async () => {
      const all = await sessions();
      return all.length === 2 ? all.map((s) => s.id) : undefined;
    }, 10_000, 'two sessions');
    const secondId = ids.find((id) => id !== session)!;
    await second.goto(`${D()}/page.html?shared-prompt`, { waitUntil: 'load' });
    const calls = [tool('snapshot', {}, agent), call(other, 'snapshot', { session: secondId })];
    const card = await until(async () => (await promptCards(rig)).find((c) => c.text.includes('2 calls waiting')), 20_000, 'both calls to wait on one prompt');
    expect(await promptCards(rig)).toHaveLength(1);
    expect(card.text).toMatch(new RegExp(`^(agent-a, agent-b|agent-b, agent-a) wants to read pages on ${D().replace(/[.:/]/g, '\\$&')}`));
    expect(await badgeText(rig)).toBe('1');
    await answerPrompt(rig, { capability: 'read', origin: D() }, 'allow_once');
    for (const r of await Promise.all(calls)) expect(r.isError, r.text).toBe(false);
    await rig.share('page.html?shared-prompt', false);
    await second.close();
  });

  it('an unanswered prompt fails its call with permission_timeout and goes away', async () => {
    await setPolicy(rig, { promptSeconds: 2 });
    await page.bringToFront();
    const r = await tool('snapshot');
    expect(r.error?.code).toBe('permission_timeout');
    expect(r.error?.message).toContain('within 2 s');
    expect(r.error?.next).toMatch(/popup/);
    await noPrompts(rig);
    expect(await badgeText(rig)).toBe('');
    await setPolicy(rig, { promptSeconds: 60 });
  });

  it('cancelling a waiting call, or its client leaving, withdraws its prompt', async () => {
    const controller = new AbortController();
    const cancelled = agent.callTool({ name: 'snapshot', arguments: { session } }, { signal: controller.signal }).then(
      () => 'answered',
      () => 'rejected',
    );
    const card = await waitForPrompt(rig, { capability: 'read', origin: D() });
    controller.abort();
    expect(await cancelled).toBe('rejected');
    const popup = await rig.extensionPage('popup');
    await popup.waitForSelector(`article.prompt[data-prompt="${card.id}"]`, { hidden: true, timeout: 10_000 });

    const leaver = await rig.client('legacy', 'leaver');
    void call(leaver, 'snapshot', { session }).catch(() => undefined);
    const left = await until(async () => (await promptCards(rig)).find((c) => c.text.includes('leaver')), 20_000, "the leaving client's prompt");
    await leaver.close();
    await popup.waitForSelector(`article.prompt[data-prompt="${left.id}"]`, { hidden: true, timeout: 10_000 });
    expect(await badgeText(rig)).toBe('');
  });

  it("a call by handle is judged on the origin of the handle's own document: after the page moved itself to an origin with no grant, its old handles are unknown and a click by a new one asks there", async () => {
    three = await serveFixtures(path.join(FIXTURES, 'consent'));
    const E = three.origin; // 127.0.0.1 on a port no answer covers
    // The person brings the tab back to the origin it was shared at (granted read and act).
    await page.goto(`${A()}/page.html?handles`, { waitUntil: 'load' });
    await page.bringToFront();
    const onA = handleOf((await until(async () => {
      const r = await tool('snapshot');
      return !r.isError && r.structured.url === `${A()}/page.html?handles` ? r : undefined;
    }, 10_000, 'the session to show the page on A')).text, /button "Act"/);
    // Twice: the second call is judged on what the first learnt about the handle's document.
    for (let i = 1; i <= 2; i++) {
      const r = await tool('click', { handle: onA });
      expect(r.isError, r.text).toBe(false);
    }
    expect(await page.$eval('#out', (e) => e.textContent)).toBe('clicked 2');
    expect(await promptCards(rig)).toEqual([]);

    // The page leaves for E by itself.
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.evaluate((u) => void (location.href = u), `${E}/page.html?moved`)]);
    const stale = await tool('click', { handle: onA });
    expect(stale.error?.code).toBe('unknown_handle');
    expect(await promptCards(rig)).toEqual([]);

    const snap = tool('snapshot');
    await answerPrompt(rig, { capability: 'read', origin: E }, 'allow_once', page);
    const onE = handleOf((await snap).text, /button "Act"/);
    const click = tool('click', { handle: onE });
    const card = await waitForPrompt(rig, { capability: 'act', origin: E });
    expect(card.origin).toBe(E);
    await answerPrompt(rig, { capability: 'act', origin: E }, 'deny_once', page);
    expect((await click).error?.code).toBe('permission_denied');
    expect(await page.$eval('#out', (e) => e.textContent)).toBe('not clicked');
  });
});
