// Pages that open dialog after dialog, through MCP in real browsers: Oriel answers at most 20 in one call, or between
// two calls by the tab's dialog_policy, and leaves the next open for the person, so a loop is stopped on a dialog as it
// would be without Oriel instead of running at full speed (docs/tools.md, "Dialogs"). Every test ends its loop: the
// person cancels the open confirm, or closes the tab. One browser per run of the file.
import type { Client } from '@modelcontextprotocol/client';
import type { Dialog, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS, call, until, type ToolCall } from './harness.js';
import { closeSharedTab, openSharedTab, type SharedTab } from './shared-tab.js';
import { textOf } from './actions-setup.js';

describe.each(BROWSERS)('dialog loops in %s', (kind) => {
  let site: SharedTab['site'];
  let client: Client;
  let page: Page;
  let session: string;

  const tool = (name: string, args: Record<string, unknown> = {}): Promise<ToolCall> => call(client, name, { session, ...args });
  const out = () => textOf(page, '#out');
  /** The next dialog of the browser's own, as the person sees it. */
  const shown = () => new Promise<Dialog>((resolve) => page.once('dialog', resolve));
  const load = async () => {
    const r = await tool('navigate', { url: `${site.url}/dialogs/loop.html`, dialog: 'accept', dialog_policy: 'default' });
    if (r.isError) throw new Error(`navigate: ${r.error?.message}`);
  };

  let tab: SharedTab | undefined;
  beforeAll(async () => {
    ({ site, client, page, session } = tab = await openSharedTab(kind, { era: 'modern', name: 'dialog-loops', path: 'dialogs/loop.html?shared' }));
    await page.bringToFront();
  });
  afterAll(() => closeSharedTab(tab));

  it('answers 20 dialogs of one call, leaves the 21st to the person and says so', async () => {
    await load();
    const person = shown();
    const started = Date.now();
    // Accepted, the confirm asks again and again (without the bound: the call ends with timeout, the loop goes on).
    const r = await tool('click', { selector: '#again', dialog: 'accept', timeout_ms: 5_000 });
    expect(r.error?.code).toBe('dialog_opened');
    expect(r.error?.details?.reason).toBe('too_many_dialogs');
    expect(r.error?.details?.open_dialog).toMatchObject({ type: 'confirm', message: 'Again?', answered: 20 });
    expect(r.error?.message).toContain('The page opened more than 20 dialogs while this call ran: Oriel answered 20 and left the next one');
    expect(Date.now() - started).toBeLessThan(5_000);
    const dialog = await person;
    expect(dialog.message()).toBe('Again?');
    // The person cancels: the loop ends, having asked 21 times, and the tab works again.
    await dialog.dismiss();
    await until(async () => (await out()) === 'stopped after 21', 10_000, 'the loop to end');
    await until(async () => !(await tool('snapshot')).isError, 10_000, 'calls to work again');
    expect((await tool('click', { selector: '#noop' })).isError).toBe(false);
  }, 60_000);

  it('answers 20 dialogs between calls by the policy, then leaves the next to the person', async () => {
    await load();
    const person = shown();
    // The loop starts on a timer, after the click returned: the tab's policy answers it, 20 times.
    await page.evaluate(() => void setTimeout(() => document.getElementById('again')!.click(), 300));
    expect((await tool('click', { selector: '#noop', dialog_policy: 'accept' })).isError).toBe(false);
    const dialog = await person;
    expect(dialog.message()).toBe('Again?');
    const blocked = await until(async () => {
      const b = await tool('snapshot');
      return b.isError && b;
    }, 10_000, 'the open dialog to be heard');
    expect(blocked.error?.code).toBe('dialog_opened');
    expect(blocked.error?.details?.open_dialog).toMatchObject({ type: 'confirm', answered: 20 });
    expect(blocked.error?.message).toContain('The page opened more than 20 dialogs one after another');
    await dialog.dismiss();
    await until(async () => (await out()) === 'stopped after 21', 10_000, 'the loop to end');
    const next = await until(async () => {
      const n = await tool('click', { selector: '#noop', dialog_policy: 'default' });
      return !n.isError && n;
    }, 10_000, 'calls to work again');
    const between = next.structured.dialogs as Array<{ between_calls?: boolean }>;
    expect(between).toHaveLength(20);
    expect(between.every((d) => d.between_calls === true)).toBe(true);
  }, 60_000);

  it('stops an alert that never ends on a dialog the person can close the tab from', async () => {
    await load();
    const person = shown();
    const r = await tool('click', { selector: '#inf', timeout_ms: 5_000 });
    expect(r.error?.code).toBe('dialog_opened');
    expect(r.error?.details?.open_dialog).toMatchObject({ type: 'alert', message: 'forever', answered: 20 });
    const first = await person;
    expect(first.message()).toBe('forever');
    // Answered, the loop opens the next one, and Oriel leaves it to the person too: the page stays stopped.
    const again = shown();
    await first.accept();
    const second = await again;
    expect(second.message()).toBe('forever');
    expect((await tool('snapshot')).error?.details?.open_dialog).toMatchObject({ type: 'alert', answered: 20 });
    // The person closes the tab, which ends the loop; it closes promptly.
    const closing = Date.now();
    await page.close();
    expect(Date.now() - closing).toBeLessThan(10_000);
    await until(async () => !(((await call(client, 'list_sessions')).structured.sessions as Array<{ id: string }> | undefined) ?? []).some((s) => s.id === session), 10_000, 'the session to end');
  }, 60_000);
});
