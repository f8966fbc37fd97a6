// Calls that outlive their page, and inputs a modal dialog makes inert (found by testing in Firefox; both browsers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSERS } from './harness.js';
import { actionsRig, textOf, type ActionsRig } from './actions-setup.js';

describe.each(BROWSERS)('races and inert targets in %s', (kind) => {
  let t: ActionsRig;
  beforeAll(async () => {
    t = await actionsRig(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a wait_for guarded by its document fails at once with stale_document when the page navigates away', async () => {
    // The page leaves by itself soon after loading. The guard makes the answer the same whether the wait reaches the
    // page before it leaves (the wait is cut short) or after (the guard no longer matches); a wait that outlived its
    // page would instead run to its timeout and answer timeout.
    const doc = await t.load('selfnav.html');
    const r = await t.tool('wait_for', { text: 'never there', timeout_ms: 30_000, document: doc });
    expect(r.error?.code).toBe('stale_document');
    expect(r.error?.next).toBe('snapshot');
  });

  it('a wait_for by text without a guard follows the tab into the document that replaces the page', async () => {
    await t.load('selfnav.html');
    // selfnav.html moves itself to nav.html, whose heading is "Nav".
    const r = await t.tool('wait_for', { text: 'Nav', timeout_ms: 30_000 });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.state).toBe('visible');
    expect(await textOf(t.page, 'h1')).toBe('Nav');
  });

  it('a wait_for started right after a click that navigates waits on the new document', async () => {
    await t.load('leave.html');
    const click = await t.tool('click', { selector: '#go' });
    expect(click.isError, click.text).toBe(false);
    // The server answers the new page 700 ms later: the tab is between documents when wait_for starts.
    const r = await t.tool('wait_for', { text: 'Nav', timeout_ms: 30_000 });
    expect(r.isError, r.text).toBe(false);
    const found = await t.tool('extract', { handle: r.structured.handle as string });
    expect(found.structured.value).toBe('Nav');
  });

  it('a click waiting for its target fails with stale_document when the tab navigates meanwhile', async () => {
    await t.load('leave-on-scroll.html');
    // The click scrolls its covered target into view and waits; the page leaves on that scroll, while the click is
    // under way in it (calls on one session run in order, so only the page itself can move on meanwhile).
    const r = await t.tool('click', { selector: '#far', timeout_ms: 30_000 });
    expect(r.error?.code).toBe('stale_document');
    expect(r.error?.refresh_required).toBe(true);
  });

  it('type refuses a field that an open modal dialog makes inert, and types inside the dialog', async () => {
    await t.load('modal.html');
    for (const selector of ['#ed', '#field']) {
      const r = await t.tool('type', { selector, text: 'x', timeout_ms: 300 });
      expect(r.error?.code).toBe('not_actionable');
      expect(r.error?.message).toMatch(/inert/);
    }
    expect(await textOf(t.page, '#ed')).toBe('start');
    const inside = await t.tool('type', { selector: '#inside', text: 'ok' });
    expect(inside.isError).toBe(false);
  });
});
