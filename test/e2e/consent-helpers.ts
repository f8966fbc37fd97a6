// What a person does about consent, done through the extension's real pages: answer a prompt in the popup, read the
// toolbar badge, revoke a rule and set the tool policy in the options page, read and export the audit log.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { until, type Rig } from './harness.js';

/** A prompt card as the popup shows it. */
export interface PromptCard {
  id: string;
  capability: string;
  origin: string;
  /** Everything the card says, whitespace collapsed. */
  text: string;
  /** The card as it reads, line by line (buttons left out). */
  lines: string[];
  /** The answers offered (data-answer of each button). */
  answers: string[];
  /** The buttons' labels, as the person reads them. */
  labels: string[];
  /** The code shown for exec, if any. */
  code?: string;
}

/** Which prompt: by capability and origin (either may be left out). */
export interface PromptMatch {
  capability?: string;
  origin?: string;
}

function selectorOf(match: PromptMatch): string {
  let s = 'article.prompt';
  if (match.capability) s += `[data-capability="${match.capability}"]`;
  if (match.origin) s += `[data-origin="${match.origin}"]`;
  return s;
}

/** Every prompt card the popup shows now. */
export async function promptCards(rig: Rig): Promise<PromptCard[]> {
  const popup = await rig.extensionPage('popup');
  return popup.$$eval('article.prompt', (cards) =>
    cards.map((c) => {
      const el = c as HTMLElement;
      return {
        id: el.dataset.prompt ?? '',
        capability: el.dataset.capability ?? '',
        origin: el.dataset.origin ?? '',
        text: (el.textContent ?? '').replace(/\s+/g, ' ').trim(),
        lines: [...el.children].filter((c) => !c.classList.contains('answers')).flatMap((c) => (c as HTMLElement).innerText.split('\n')).map((l) => l.trim()).filter(Boolean),
        answers: [...el.querySelectorAll('button[data-answer]')].map((b) => (b as HTMLElement).dataset.answer ?? ''),
        labels: [...el.querySelectorAll('button[data-answer]')].map((b) => b.textContent ?? ''),
        ...(el.querySelector('pre.code') && { code: el.querySelector('pre.code')!.textContent ?? '' }),
      };
    }),
  );
}

/**
 * Waits until the popup shows no prompt (it re-renders when the background says prompts changed); with `match`, no
 * prompt matching it (others may stay, e.g. a concurrent case's prompt on another origin).
 */
export async function noPrompts(rig: Rig, match: PromptMatch = {}): Promise<void> {
  const popup = await rig.extensionPage('popup');
  await popup.waitForSelector(selectorOf(match), { hidden: true, timeout: 10_000 });
}

/** Waits until the popup shows a prompt matching `match`; returns it. */
export async function waitForPrompt(rig: Rig, match: PromptMatch = {}, timeoutMs = 20_000): Promise<PromptCard> {
  const popup = await rig.extensionPage('popup');
  await popup.waitForSelector(selectorOf(match), { timeout: timeoutMs });
  const cards = await promptCards(rig);
  return cards.find((c) => (!match.capability || c.capability === match.capability) && (!match.origin || c.origin === match.origin))!;
}

/**
 * Answers the prompt matching `match` by clicking `answer` in the popup, as the person would, and waits until the card
 * is gone. Brings `front` (the shared tab) to the front afterwards, as a person goes back to the page. Returns the card
 * as it was shown.
 */
export async function answerPrompt(rig: Rig, match: PromptMatch, answer: string, front?: Page): Promise<PromptCard> {
  const card = await waitForPrompt(rig, match);
  const popup = await rig.extensionPage('popup');
  for (let attempt = 0; ; attempt++) {
    try {
      // Found and clicked in one task of the popup: a mouse click at coordinates found a moment before could land on
      // another card's button once the list has moved.
      await popup.$eval(`article.prompt[data-prompt="${card.id}"] button[data-answer="${answer}"]`, (b) => (b as HTMLButtonElement).click());
      break;
    } catch (err) {
      // The card is not there at this moment (the popup is rebuilding it, another call joined it): find it again.
      if (attempt >= 3) throw err;
    }
  }
  await popup.waitForSelector(`article.prompt[data-prompt="${card.id}"]`, { hidden: true, timeout: 10_000 });
  await front?.bringToFront();
  return card;
}

/** The toolbar badge's text for the whole browser (the count of waiting prompts, or empty). */
export async function badgeText(rig: Rig): Promise<string> {
  const popup = await rig.extensionPage('popup');
  return popup.evaluate(() => chrome.action.getBadgeText({}));
}

/** The extension's system notifications the browser shows now (ids). Headless browsers may show none. */
export async function notificationIds(rig: Rig): Promise<string[]> {
  const popup = await rig.extensionPage('popup');
  return popup.evaluate(async () => Object.keys(await chrome.notifications.getAll()));
}

/** The last notification the background raised, as it recorded it (what it said; `error` if the browser refused). */
export async function lastNotification(rig: Rig): Promise<{ prompt: string; title: string; message: string; error?: string } | undefined> {
  const popup = await rig.extensionPage('popup');
  return popup.evaluate(async () => (await chrome.storage.session.get('lastNotification')).lastNotification as never);
}

/** One row of the options page's permissions table (its data attributes). */
export type RuleRow = Record<string, string>;

/** Reloads the options page (so it shows what is stored now) and waits until its tables are filled. */
export async function freshOptions(rig: Rig): Promise<Page> {
  const page = await rig.extensionPage('options');
  await page.evaluate(() => {
    (window as unknown as { stale: boolean }).stale = true;
    location.reload();
  });
  await page.waitForFunction(() => !(window as unknown as { stale?: boolean }).stale && document.querySelectorAll('#tools input[data-tool]').length > 0 && document.getElementById('audit-count')?.textContent !== '', { timeout: 10_000, polling: 50 });
  return page;
}

/** The rules and session grants the options page lists. */
export async function ruleRows(rig: Rig): Promise<RuleRow[]> {
  const page = await freshOptions(rig);
  await page.waitForFunction(() => document.querySelectorAll('#rules tbody tr').length > 0 || !(document.getElementById('no-rules') as HTMLElement).hidden, { timeout: 10_000, polling: 50 });
  return page.$$eval('#rules tbody tr', (rows) => rows.map((r) => ({ ...(r as HTMLElement).dataset }) as Record<string, string>));
}

/** Clicks Revoke on every listed rule or grant matching `match` (its data attributes); returns how many. */
export async function revoke(rig: Rig, match: RuleRow): Promise<number> {
  const rows = (await ruleRows(rig)).filter((r) => Object.entries(match).every(([k, v]) => r[k] === v));
  const page = await rig.extensionPage('options');
  for (const row of rows) {
    await page.click(`#rules tr[data-id="${row.id}"] button[data-revoke]`);
    await page.waitForSelector(`#rules tr[data-id="${row.id}"]`, { hidden: true, timeout: 10_000 });
  }
  return rows.length;
}

/** Sets the tool policy through the options page's controls, as the person would, and waits until it is stored. */
export async function setPolicy(rig: Rig, policy: { disabled?: string[]; exec?: boolean; promptSeconds?: number }): Promise<void> {
  const page = await freshOptions(rig);
  const stored = () => page.evaluate(async () => ((await chrome.storage.local.get('settings')).settings ?? {}) as { disabledTools?: string[]; allowExec?: boolean; promptSeconds?: number });
  if (policy.disabled) {
    const want = new Set(policy.disabled);
    const tools = await page.$$eval('#tools input[data-tool]', (boxes) => boxes.map((b) => ({ name: (b as HTMLElement).dataset.tool!, on: (b as HTMLInputElement).checked })));
    for (const t of tools) {
      if (t.on !== want.has(t.name)) continue;
      await page.click(`#tools input[data-tool="${t.name}"]`);
      await until(async () => ((await stored()).disabledTools ?? []).includes(t.name) === want.has(t.name), 5_000, `${t.name} to be ${want.has(t.name) ? 'off' : 'on'}`);
    }
  }
  if (policy.exec !== undefined) {
    if ((await page.$eval('#allow-exec', (b) => (b as HTMLInputElement).checked)) !== policy.exec) await page.click('#allow-exec');
    await until(async () => ((await stored()).allowExec ?? true) === policy.exec, 5_000, 'the exec switch to be stored');
  }
  if (policy.promptSeconds !== undefined) {
    await page.$eval('#prompt-seconds', (el, v) => {
      (el as HTMLInputElement).value = v;
      el.dispatchEvent(new Event('change'));
    }, String(policy.promptSeconds));
    await until(async () => (await stored()).promptSeconds === policy.promptSeconds, 5_000, 'the prompt timeout to be stored');
  }
}

/** The audit log as the options page lists it, newest first: each row's data attributes and the code it shows. */
export async function auditRows(rig: Rig): Promise<Array<Record<string, string>>> {
  const page = await freshOptions(rig);
  return page.$$eval('#audit-log tbody tr', (rows) => rows.map((r) => ({ ...(r as HTMLElement).dataset, code: r.querySelector('pre')?.textContent ?? '' }) as Record<string, string>));
}

/** Clicks "Export as JSON" and returns the parsed file the browser downloaded. */
export async function exportAudit(rig: Rig): Promise<{ exported: string; entries: Array<Record<string, unknown>> }> {
  const page = await freshOptions(rig);
  const before = new Set(existsSync(rig.downloads) ? readdirSync(rig.downloads) : []);
  await page.click('#audit-export');
  const file = await until(() => {
    if (!existsSync(rig.downloads)) return undefined;
    return readdirSync(rig.downloads).find((f) => !before.has(f) && f.startsWith('oriel-audit-') && f.endsWith('.json'));
  }, 15_000, 'the audit export to be downloaded');
  // The browser writes the file under its final name once complete; parse it when it is whole.
  return until(() => {
    try {
      return JSON.parse(readFileSync(path.join(rig.downloads, file), 'utf8')) as { exported: string; entries: Array<Record<string, unknown>> };
    } catch {
      return undefined;
    }
  }, 5_000, 'the downloaded export to be complete');
}

/** Waits until `client`'s tools/list shows `tool` (or no longer does): the hub has applied the person's policy. */
export async function untilListed(client: Client, tool: string, listed = true): Promise<void> {
  await until(async () => (await client.listTools()).tools.some((t) => t.name === tool) === listed, 10_000, `${tool} to be ${listed ? 'listed' : 'hidden'}`);
}
