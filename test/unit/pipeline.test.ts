// The background pipeline's stages one by one (extension/background/pipeline): shared tab, target, consent, document
// guard, dispatch, and the every-frame decision — with the browser and the stores replaced by stubs, so each stage's
// own rule is what is tested. The whole chain in real browsers is test/e2e (spine, consent*, actions*).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { OrielError, errorData } from '../../shared/errors.js';
import type { PageCall } from '../../shared/call.js';
import { parseOpArgs, type PublicOpName } from '../../shared/ops.js';
import { DEFAULT_SETTINGS } from '../../extension/settings.js';

const stubs = vi.hoisted(() => ({
  isShared: vi.fn(async (_tab: number) => true),
  sendToFrame: vi.fn(async (..._a: unknown[]): Promise<{ value: unknown; document: string }> => ({ value: {}, document: 'doc1' })),
  frameOfDocument: vi.fn(async (_tab: number, _doc: string): Promise<number | undefined> => 0),
  frameOrigin: vi.fn(async () => 'https://frame.test'),
  frameOriginOrError: vi.fn(async () => ({ origin: 'https://top.test', reachable: true })),
  originOfDocument: vi.fn((): string | undefined => undefined),
  listFrames: vi.fn(async () => [{ frameId: 0, parentFrameId: -1, url: 'https://top.test/' }]),
  runInBackground: vi.fn(async (..._a: unknown[]): Promise<unknown> => ({ ran: true })),
  destinationOfCall: vi.fn(async (): Promise<string | undefined> => 'https://elsewhere.test/page'),
  judge: vi.fn(async (_need: { capability: string; origin: string }): Promise<{ kind: string }> => ({ kind: 'allow' })),
  wait: vi.fn(async (): Promise<string> => 'allow'),
  openLinkInNewTab: vi.fn(async (): Promise<string | undefined> => 'inst-99'),
  openedTabs: vi.fn(async (): Promise<Array<{ url: string; window?: true; session?: string }>> => []),
  watchOpenedTabs: vi.fn(),
}));

vi.mock('../../extension/background/sharing.js', () => ({ isShared: stubs.isShared, onSharingChanged: () => undefined, sharedTabIds: async () => [] }));
vi.mock('../../extension/background/frames.js', () => ({
  sendToFrame: stubs.sendToFrame,
  frameOfDocument: stubs.frameOfDocument,
  frameOrigin: stubs.frameOrigin,
  frameOriginOrError: stubs.frameOriginOrError,
  originOfDocument: stubs.originOfDocument,
  listFrames: stubs.listFrames,
}));
vi.mock('../../extension/background/ops/index.js', () => ({ runInBackground: stubs.runInBackground, destinationOfCall: stubs.destinationOfCall }));
vi.mock('../../extension/background/grants.js', () => ({ judge: stubs.judge, addGrant: vi.fn(), addRule: vi.fn() }));
vi.mock('../../extension/background/prompts.js', () => ({ wait: stubs.wait, promptOf: vi.fn(() => undefined), openPrompts: vi.fn(() => []), settle: vi.fn(), settleClient: vi.fn() }));
vi.mock('../../extension/background/audit.js', () => ({ audit: vi.fn(async () => undefined), sha256: vi.fn(async (t: string) => `h${t.length}`) }));
vi.mock('../../extension/background/secret-params.js', () => ({ secretParams: vi.fn(async () => []) }));
vi.mock('../../extension/background/trusted-input.js', () => ({ offerTrustedInput: vi.fn(() => undefined), withdrawTrustedInput: vi.fn() }));
vi.mock('../../extension/background/link-tabs.js', () => ({ openLinkInNewTab: stubs.openLinkInNewTab }));
vi.mock('../../extension/background/opened.js', () => ({ watchOpenedTabs: stubs.watchOpenedTabs }));
vi.mock('../../extension/background/nav-guard.js', () => ({
  guardTab: vi.fn(async () => ({ stopped: new Promise(() => undefined), blocked: () => undefined, release: async () => undefined })),
}));
vi.mock('../../extension/background/dialog-policy.js', () => ({ withDialogPolicy: vi.fn(async (_tab: number, args: unknown) => args) }));
vi.mock('../../extension/background/pipeline/turns.js', () => ({ awaitTurn: vi.fn(async () => undefined) }));

// What the stages touch of the browser itself: navigation events (no navigation happens here) and the tab's title.
const listeners = { addListener: () => undefined, removeListener: () => undefined };
vi.stubGlobal('chrome', {
  webNavigation: { onCommitted: listeners, onBeforeNavigate: listeners, onErrorOccurred: listeners, onDOMContentLoaded: listeners, getFrame: async () => ({ url: 'https://a.example/', errorOccurred: false }) },
  tabs: { get: async () => ({ title: 'A page' }), onRemoved: listeners },
});

const { sharedTab } = await import('../../extension/background/pipeline/shared-tab.js');
const { target } = await import('../../extension/background/pipeline/target.js');
const { consent } = await import('../../extension/background/pipeline/consent.js');
const { documentGuard } = await import('../../extension/background/pipeline/guard.js');
const { dispatch } = await import('../../extension/background/pipeline/dispatch.js');
const { decideEveryFrame } = await import('../../extension/background/pipeline/every-frame.js');
const { CallClock } = await import('../../extension/background/pipeline/deadline.js');
const { LeadsElsewhere } = await import('../../extension/background/leads-elsewhere.js');
type CallState = import('../../extension/background/pipeline/types.js').CallState;

/** A call's state as the pipeline builds it, for `op` with `args` (validated by the op map), 10 s from now. */
function stateOf(op: PublicOpName, args: Record<string, unknown>, extra: Partial<PageCall> = {}, settings = DEFAULT_SETTINGS): CallState {
  const parsed = parseOpArgs(op, args);
  if (!parsed.ok) throw new Error(parsed.message);
  const call: PageCall = { id: 7, op, args, session: 's-1', tab: 1, client: { id: 'c1', name: 'agent' }, deadline: Date.now() + 10_000, capability: 'read', ...extra };
  return { call, op, args: parsed.args, tab: 1, settings, signal: new AbortController().signal, clock: new CallClock(7, call.deadline, () => undefined) };
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return err instanceof OrielError ? err.data.code : String(err);
  }
  return 'no error';
}

beforeEach(() => {
  vi.clearAllMocks();
  stubs.watchOpenedTabs.mockImplementation(() => ({ ready: Promise.resolve(), collect: stubs.openedTabs, stop: vi.fn() }));
});

describe('stage 1: shared tab', () => {
  it('lets a shared tab through and stops an unshared one with session_gone', async () => {
    await sharedTab(stateOf('snapshot', {}));
    stubs.isShared.mockResolvedValueOnce(false);
    expect(await failure(sharedTab(stateOf('snapshot', {})))).toBe('session_gone');
  });
});

describe('stage 2: target', () => {
  it('finds a handle\'s frame and its origin; the call acts there alone', async () => {
    stubs.frameOfDocument.mockResolvedValueOnce(3);
    const state = stateOf('click', { handle: 'ab12cd34.5' });
    await target(state);
    expect(stubs.frameOfDocument).toHaveBeenCalledWith(1, 'ab12cd34');
    expect(state.target).toMatchObject({ frame: 3, origin: 'https://frame.test', topOrigin: 'https://top.test', everyFrame: false });
  });

  it('reads every frame as the op map says: snapshot always, wait_for unless it names a handle', async () => {
    for (const [op, args, every] of [
      ['snapshot', {}, true],
      ['wait_for', { selector: '#x' }, true],
      ['wait_for', { handle: 'ab12cd34.5' }, false],
      ['extract', { selector: '#x' }, false],
    ] as const) {
      const state = stateOf(op, args);
      await target(state);
      expect(state.target!.everyFrame, `${op} ${JSON.stringify(args)}`).toBe(every);
    }
  });

  it('refuses a handle no document of the tab issued', async () => {
    stubs.frameOfDocument.mockResolvedValueOnce(undefined);
    expect(await failure(target(stateOf('click', { handle: 'zz99zz99.1' })))).toBe('unknown_handle');
  });

  it('names where an op that navigates takes the tab, and no other op gets a destination here', async () => {
    const nav = stateOf('navigate', { url: 'https://elsewhere.test/page' });
    await target(nav);
    expect(nav.target!.destination).toBe('https://elsewhere.test');
    const click = stateOf('click', { selector: 'a' });
    await target(click);
    expect(click.target!.destination).toBeUndefined();
    expect(stubs.destinationOfCall).toHaveBeenCalledTimes(1);
  });
});

describe('stage 3: consent', () => {
  const targeted = async (op: PublicOpName, args: Record<string, unknown>, settings = DEFAULT_SETTINGS) => {
    const state = stateOf(op, args, {}, settings);
    await target(state);
    return state;
  };

  it('asks read on the top origin for a read op, and lets a granted call through', async () => {
    await consent(await targeted('extract', { selector: '#x' }));
    expect(stubs.judge).toHaveBeenCalledWith({ capability: 'read', origin: 'https://top.test', tab: 1, top: true });
  });

  it('refuses what the person always denies, and ops the person switched off', async () => {
    stubs.judge.mockResolvedValueOnce({ kind: 'deny' });
    expect(await failure(consent(await targeted('extract', { selector: '#x' })))).toBe('permission_denied');
    expect(await failure(consent(await targeted('extract', { selector: '#x' }, { ...DEFAULT_SETTINGS, disabledTools: ['extract'] })))).toBe('operation_disabled');
  });

  it('judges navigate on its destination alone; a click, before it is sent, on the origin it acts in only', async () => {
    await consent(await targeted('navigate', { url: 'https://elsewhere.test/page' }));
    expect(stubs.judge.mock.calls.map((c) => c[0])).toEqual([{ capability: 'act', origin: 'https://elsewhere.test', tab: 1, top: true }]);
    stubs.judge.mockClear();
    const click = await targeted('click', { selector: 'a' });
    await consent(click);
    expect(stubs.judge.mock.calls.map((c) => [c[0].capability, c[0].origin])).toEqual([['act', 'https://top.test']]);
    // Where it leads is read by the page in the click's own exchange (stage 5).
    expect(stubs.sendToFrame).not.toHaveBeenCalled();
    expect(click.target!.destination).toBeUndefined();
  });

  it('shows exec consent the code an op runs, as the op map says', async () => {
    const state = await targeted('evaluate', { expression: 'document.title' }, { ...DEFAULT_SETTINGS, allowExec: true });
    await consent(state);
    expect(state.exec).toMatchObject({ origin: 'https://top.test', code: 'document.title' });
  });

  it('stops the call\'s clock while it waits on a prompt and resumes it with the budget it had left', async () => {
    stubs.judge.mockResolvedValueOnce({ kind: 'ask' });
    const state = await targeted('extract', { selector: '#x' });
    const before = state.clock.deadline;
    let wasSuspended = false;
    const now = Date.now();
    stubs.wait.mockImplementationOnce(async () => {
      await Promise.resolve();
      wasSuspended = state.clock.suspended;
      // The person takes 20 s to answer: the clock reads that much later from now on.
      vi.spyOn(Date, 'now').mockReturnValue(now + 20_000);
      return 'allow';
    });
    await consent(state);
    vi.restoreAllMocks();
    expect(wasSuspended).toBe(true);
    expect(state.clock.suspended).toBe(false);
    // The 10 s it had left start again after the answer.
    expect(state.clock.deadline - before).toBeGreaterThanOrEqual(19_900);
  });
});

describe('stage 4: document guard', () => {
  it('passes a call without a guard untouched, the expected document, and stops another with stale_document', async () => {
    await documentGuard(stateOf('snapshot', {}));
    expect(stubs.sendToFrame).not.toHaveBeenCalled();
    stubs.sendToFrame.mockResolvedValue({ value: { document: 'doc1' }, document: 'doc1' });
    await documentGuard(stateOf('snapshot', {}, { document: 'doc1' }));
    expect(await failure(documentGuard(stateOf('snapshot', {}, { document: 'doc0' })))).toBe('stale_document');
    stubs.sendToFrame.mockReset();
  });
});

describe('stage 5: dispatch', () => {
  it('runs a background op under the clock\'s current deadline and the op\'s slack', async () => {
    const state = stateOf('evaluate', { expression: '1' });
    await target(state);
    // The clock moved on (a prompt was answered): dispatch carries the resumed deadline, not the call's first one.
    const now = Date.now();
    state.clock.suspend(now + 60_000);
    vi.spyOn(Date, 'now').mockReturnValue(now + 30_000);
    state.clock.resume();
    vi.restoreAllMocks();
    expect(state.clock.deadline).toBeGreaterThan(state.call.deadline);
    expect(await dispatch(state)).toEqual({ ran: true });
    const [op, tab, args, options] = stubs.runInBackground.mock.calls[0]!;
    expect([op, tab, args]).toEqual(['evaluate', 1, { expression: '1' }]);
    expect(options).toMatchObject({ call: 7, budget: { deadline: state.clock.deadline, slack_ms: 5_000 }, redaction: { selectors: [], value_limit: DEFAULT_SETTINGS.valueLimit } });
  });

  it('sends a content op to its frame with the budget and the redaction policy, and opens the new tab a click names', async () => {
    stubs.sendToFrame.mockResolvedValue({ value: { dispatched: true, new_tab_url: 'https://top.test/next' }, document: 'doc1' });
    const state = stateOf('click', { selector: 'a', button: 'middle' });
    await target(state);
    const value = await dispatch(state);
    expect(value).toMatchObject({ new_tab_url: 'https://top.test/next', new_tab_session: 'inst-99' });
    const click = stubs.sendToFrame.mock.calls.find((c) => c[2] === 'click')!;
    expect(click[4]).toMatchObject({ call: 7, budget: { deadline: state.clock.deadline, slack_ms: 5_000 } });
    stubs.sendToFrame.mockReset();
  });

  it('names in a click\'s result the tabs and windows its page opened, watched from before the click is sent', async () => {
    const order: string[] = [];
    stubs.watchOpenedTabs.mockImplementation(() => {
      order.push('watch');
      return { ready: Promise.resolve(), collect: stubs.openedTabs, stop: vi.fn() };
    });
    stubs.sendToFrame.mockImplementation(async (...a: unknown[]) => {
      if (a[2] === 'click') order.push('click');
      return { value: { dispatched: true }, document: 'doc1' };
    });
    stubs.openedTabs.mockImplementationOnce(async () => {
      order.push('collect');
      return [{ url: 'https://top.test/signin', window: true, session: 'inst-12' }];
    });
    const state = stateOf('click', { selector: '#open' });
    await target(state);
    expect(await dispatch(state)).toEqual({ dispatched: true, opened_tabs: [{ url: 'https://top.test/signin', window: true, session: 'inst-12' }] });
    expect(order).toEqual(['watch', 'click', 'collect']);
    // None opened: the result has no such field; an op that opens no tabs is not watched.
    expect(await dispatch(state)).toEqual({ dispatched: true });
    stubs.watchOpenedTabs.mockClear();
    const typing = stateOf('type', { selector: '#f', text: 'x' });
    await target(typing);
    await dispatch(typing);
    expect(stubs.watchOpenedTabs).not.toHaveBeenCalled();
    stubs.sendToFrame.mockReset();
  });

  it('asks the page where a click leads; one that leads to another origin is judged there first, then sent again', async () => {
    stubs.sendToFrame.mockImplementation(async (...a: unknown[]) => {
      const options = a[4] as { leadsFrom?: string };
      if (options.leadsFrom !== undefined) throw new LeadsElsewhere('https://away.test');
      return { value: { dispatched: true }, document: 'doc1' };
    });
    const state = stateOf('click', { selector: 'a' });
    await target(state);
    await consent(state);
    stubs.judge.mockClear();
    expect(await dispatch(state)).toMatchObject({ dispatched: true });
    const sent = stubs.sendToFrame.mock.calls.filter((c) => c[2] === 'click').map((c) => (c[4] as { leadsFrom?: string }).leadsFrom);
    // First with the frame's origin to compare with; then, the destination allowed, without.
    expect(sent).toEqual(['https://top.test', undefined]);
    expect(stubs.judge.mock.calls.map((c) => [c[0].capability, c[0].origin])).toEqual([['act', 'https://away.test']]);
    expect(state.target!.destination).toBe('https://away.test');
    stubs.sendToFrame.mockReset();
  });

  it('refuses a click whose link leads to an origin the person always denies, and does not send it again', async () => {
    stubs.sendToFrame.mockImplementation(async () => {
      throw new LeadsElsewhere('https://away.test');
    });
    const state = stateOf('click', { selector: 'a' });
    await target(state);
    stubs.judge.mockImplementation(async (need) => ({ kind: need.origin === 'https://away.test' ? 'deny' : 'allow' }));
    expect(await failure(dispatch(state))).toBe('permission_denied');
    expect(stubs.sendToFrame.mock.calls.filter((c) => c[2] === 'click')).toHaveLength(1);
    stubs.judge.mockImplementation(async () => ({ kind: 'allow' }));
    stubs.sendToFrame.mockReset();
  });

  it('waits in every frame and answers with the first frame that sees the target', async () => {
    stubs.listFrames.mockResolvedValueOnce([
      { frameId: 0, parentFrameId: -1, url: 'https://top.test/' },
      { frameId: 4, parentFrameId: 0, url: 'https://frame.test/' },
    ]);
    stubs.sendToFrame.mockImplementation(async (...a: unknown[]) => {
      if (a[2] !== 'wait_for') return { value: {}, document: 'd' };
      if (a[1] === 4) return { value: { state: 'visible', handle: 'ff00ff00.1', elapsed_ms: 3 }, document: 'd4' };
      return new Promise(() => undefined);
    });
    const state = stateOf('wait_for', { selector: '#late' });
    await target(state);
    expect(await dispatch(state)).toEqual({ state: 'visible', handle: 'ff00ff00.1', elapsed_ms: 3 });
    stubs.sendToFrame.mockReset();
  });
});

describe('the every-frame decision', () => {
  const gone = (code: 'unsupported' | 'stale_document' | 'timeout' | 'permission_denied') => new OrielError(errorData(code, code));

  it('for a wait that things go: every frame that could be asked must succeed; the top frame answers', () => {
    expect(decideEveryFrame([{ frameId: 0, ok: true, value: 'top' }, { frameId: 2, ok: true, value: 'child' }], true)).toEqual({ ok: true, value: 'top' });
    expect(decideEveryFrame([{ frameId: 0, ok: false, err: gone('unsupported') }, { frameId: 2, ok: true, value: 'child' }], true)).toEqual({ ok: true, value: 'child' });
    const oneStill = decideEveryFrame([{ frameId: 0, ok: true, value: 'top' }, { frameId: 2, ok: false, err: gone('timeout') }], true);
    expect(oneStill.ok).toBe(false);
  });

  it('fails with the top frame\'s own error first, then another asked frame\'s, then the top frame\'s unreachability', () => {
    const top = gone('permission_denied');
    const child = gone('timeout');
    expect(decideEveryFrame([{ frameId: 0, ok: false, err: top }, { frameId: 2, ok: false, err: child }], false)).toEqual({ ok: false, err: top });
    const unreachable = gone('stale_document');
    expect(decideEveryFrame([{ frameId: 0, ok: false, err: unreachable }, { frameId: 2, ok: false, err: child }], false)).toEqual({ ok: false, err: child });
    expect(decideEveryFrame([{ frameId: 0, ok: false, err: unreachable }, { frameId: 2, ok: false, err: gone('unsupported') }], false)).toEqual({ ok: false, err: unreachable });
  });

  it('answers timeout when no frame could be asked at all', () => {
    const d = decideEveryFrame([], false);
    expect(d.ok).toBe(false);
    expect(!d.ok && d.err instanceof OrielError && d.err.data.code).toBe('timeout');
  });
});
