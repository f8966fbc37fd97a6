// The `wait_for` page operation: wait, driven by DOM mutations and animation/transition ends (no polling loop), until
// a handle, selector or text is visible, hidden, attached or detached. MCP side: broker/mcp/tools/read.ts.
import { WaitForArgs, type WaitForResult } from '../../../shared/ops.js';
import { orielError } from '../../../shared/errors.js';
import { workMs, type ContentContext, type ContentHandler } from '../handlers.js';
import { Redactor } from '../redaction.js';
import { isVisible } from './actionability.js';
import { anyShadowRoot } from './shadow.js';
import { clip, requireHandle, selectAll } from './target.js';
import { findText } from './text.js';

type State = 'visible' | 'hidden' | 'attached' | 'detached';

/** Events after which visibility may differ without any DOM mutation. */
const RECHECK_EVENTS = ['transitionend', 'transitioncancel', 'animationend', 'animationcancel', 'resize', 'load'] as const;

/** A probe's verdict: done (with the element found, if any), or not yet. */
type Probe = { done: true; element?: Element } | { done: false };

export const waitFor: ContentHandler<'wait_for'> = async (args, ctx) => {
  const redactor = ctx.redactor();
  const given = [args.handle, args.selector, args.text].filter((v) => v !== undefined).length;
  if (given !== 1) throw orielError('invalid_argument', 'Give wait_for exactly one of "handle", "selector" or "text".');
  const state: State = args.state ?? 'visible';
  const timeoutMs = workMs(ctx);
  const started = performance.now();
  const probe = makeProbe(args, state, ctx, redactor);
  const first = probe();
  const found = first.done ? first : await watch(probe, timeoutMs, ctx.signal, describe(args, state));
  const result: WaitForResult = { state, elapsed_ms: Math.round(performance.now() - started) };
  if (found.done && found.element?.isConnected) result.handle = ctx.registry.handleFor(found.element);
  return result;
};

function describe(args: WaitForArgs, state: State): string {
  const what = args.handle !== undefined ? `element ${args.handle}` : args.selector !== undefined ? `selector "${clip(args.selector, 200)}"` : `text "${clip(args.text ?? '', 100)}"`;
  return `${what} to be ${state}`;
}

/**
 * Builds the synchronous check for the requested target and state. Selector and text targets never see what the
 * user's redaction removes (nor text inside secret fields), so waiting cannot become a way to read it.
 */
function makeProbe(args: WaitForArgs, state: State, ctx: ContentContext, redactor: Redactor): () => Probe {
  if (args.handle !== undefined) {
    const handle = args.handle;
    return () => {
      const r = ctx.registry.resolve(handle);
      if (r.status === 'detached' || r.status === 'changed') {
        if (state === 'detached' || state === 'hidden') return { done: true };
        // A removed (or reused) element never comes back: waiting longer cannot help.
        requireHandle(handle, ctx);
      }
      const el = requireHandle(handle, ctx);
      if (redactor.isHidden(el)) throw orielError('permission_denied', `Element ${handle} is in a redacted part of the page.`);
      return judge([el], state);
    };
  }
  if (args.selector !== undefined) {
    const selector = args.selector;
    return () => judge(selectAll(selector, redactor), state);
  }
  const text = args.text!;
  return () => judge(findText(text, 50, redactor), state);
}

/** visible/attached: some candidate qualifies (the first that does is returned); hidden/detached: none does. */
function judge(candidates: Element[], state: State): Probe {
  switch (state) {
    case 'attached':
      return candidates.length > 0 ? { done: true, element: candidates[0]! } : { done: false };
    case 'detached':
      return candidates.length === 0 ? { done: true } : { done: false };
    case 'visible': {
      const el = candidates.find(isVisible);
      return el ? { done: true, element: el } : { done: false };
    }
    case 'hidden':
      return candidates.some(isVisible) ? { done: false } : { done: true, ...(candidates[0] ? { element: candidates[0] } : {}) };
  }
}

/**
 * Re-runs `probe` after each batch of DOM mutations (in the document and its open shadow roots) and after events
 * that change visibility without mutating the DOM, until it is done, the deadline passes, or the call is cancelled.
 */
function watch(probe: () => Probe, timeoutMs: number, signal: AbortSignal, what: string): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const options: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true };
    let finished = false;
    const finish = (outcome: { ok: Probe } | { err: unknown }) => {
      if (finished) return;
      finished = true;
      observer.disconnect();
      clearTimeout(timer);
      for (const e of RECHECK_EVENTS) window.removeEventListener(e, onEvent, true);
      signal.removeEventListener('abort', onAbort);
      if ('ok' in outcome) resolve(outcome.ok);
      else reject(outcome.err);
    };
    const recheck = (records?: MutationRecord[]) => {
      if (finished) return;
      try {
        for (const r of Array.isArray(records) ? records : []) for (const added of Array.from(r.addedNodes)) observeShadowRoots(observer, options, added);
        const p = probe();
        if (p.done) finish({ ok: p });
      } catch (err) {
        finish({ err });
      }
    };
    const onEvent = () => recheck();
    const observer = new MutationObserver(recheck);
    observer.observe(document, options);
    observeShadowRoots(observer, options, document);
    for (const e of RECHECK_EVENTS) window.addEventListener(e, onEvent, { capture: true, passive: true });
    const onAbort = () => finish({ err: orielError('cancelled', `Stopped waiting for ${what}: the call was cancelled.`) });
    signal.addEventListener('abort', onAbort);
    const timer = setTimeout(
      () => finish({ err: orielError('timeout', `Waited ${timeoutMs} ms for ${what}; it did not happen. Take a snapshot to see the page as it is.`, { next: 'snapshot' }) }),
      timeoutMs,
    );
  });
}

/** MutationObservers do not see into shadow trees: observe every shadow root (open or closed) under `root`. */
function observeShadowRoots(observer: MutationObserver, options: MutationObserverInit, root: Node): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let n: Node | null = root; n; n = walker.nextNode()) {
    const sr = n instanceof Element ? anyShadowRoot(n) : null;
    if (sr) {
      observer.observe(sr, options);
      observeShadowRoots(observer, options, sr);
    }
  }
}
