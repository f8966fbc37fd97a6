// Trusted input (docs/architecture.md, "Input"): pointer and key input dispatched through the DevTools protocol
// (chrome.debugger, Chromium only), so pages see events with isTrusted true and the browser does their default
// actions. The content script still checks and observes; it asks here, mid-action, for the dispatch.
// Counterpart: extension/content/actions/trusted.ts; messages in shared/trusted-input.ts.
import type { TrustedInputRequest, TrustedInputReply, TrustedOffer, TrustedStep } from '../../shared/trusted-input.js';
import { specOf, type OpName } from '../../shared/ops.js';
import { readSettings } from '../settings.js';
import { CHROMIUM_BUILD } from '../build-target.js';
import { isShared, onSharingChanged, sharedTabIds } from './sharing.js';

/** The DevTools protocol version Oriel speaks (https://chromedevtools.github.io/devtools-protocol/1-3/). */
const PROTOCOL_VERSION = '1.3';

/** Tabs Oriel's debugger session is attached to. */
const attached = new Set<number>();
/** Tabs whose session the person ended (cancelled the banner), with the words the next results' note gives. */
const stopped = new Map<number, string>();
/** Calls offered trusted input: call id → the tab and frame the call runs in (the only frame that may ask). */
const offers = new Map<number, { tab: number; frame: number }>();

/** Whether this browser gives extensions the DevTools protocol (the Chromium build; Firefox has no chrome.debugger). */
export function trustedInputExists(): boolean {
  return CHROMIUM_BUILD && typeof (chrome as { debugger?: { attach?: unknown } }).debugger?.attach === 'function';
}

/**
 * Offers trusted input to call `call` of op `op` running in `frame` of `tab`, when the person's option is on.
 * @returns the offer to put in the content call, or undefined when trusted input does not apply.
 */
export function offerTrustedInput(call: number, op: OpName, tab: number, frame: number, optionOn: boolean): TrustedOffer | undefined {
  if (!optionOn || !specOf(op).trusted_input || !trustedInputExists() || call === 0) return undefined;
  const why = stopped.get(tab);
  if (why) return { trusted: false, note: why };
  offers.set(call, { tab, frame });
  return { trusted: true };
}

/** Ends call `call`'s offer (it finished). */
export function withdrawTrustedInput(call: number): void {
  offers.delete(call);
}

/**
 * Answers a content script's request (side message `trusted_input`, validated on arrival: extension/side-channel.ts).
 * Accepted only from the frame of a shared tab that runs a call offered trusted input; anything else is refused with
 * `dispatched: 0`.
 */
export async function answerTrustedInput(request: TrustedInputRequest, sender: chrome.runtime.MessageSender): Promise<TrustedInputReply> {
  const offer = offers.get(request.call);
  if (!offer || offer.tab !== sender.tab?.id || offer.frame !== sender.frameId) return refusal('no call of this frame was offered trusted input');
  if (!(await isShared(offer.tab))) return refusal('the tab is no longer shared');
  return dispatchSteps(offer.tab, request.steps);
}

/** A refusal: nothing was dispatched, so the content script uses its own events. */
export function refusal(why: string): TrustedInputReply {
  return { ok: false, dispatched: 0, message: why };
}

/**
 * Attaches Oriel's debugger session to `tab` unless it is attached. A background that ran before this one may have
 * left its session attached: detaching succeeds only for Oriel's own session, so that one is replaced.
 */
async function attach(tab: number): Promise<void> {
  if (attached.has(tab)) return;
  try {
    await chrome.debugger.attach({ tabId: tab }, PROTOCOL_VERSION);
  } catch (err) {
    const ours = await chrome.debugger.detach({ tabId: tab }).then(() => true, () => false);
    if (!ours) throw err;
    await chrome.debugger.attach({ tabId: tab }, PROTOCOL_VERSION);
  }
  attached.add(tab);
}

/** Detaches from `tab` (best effort: it may be gone). */
async function detach(tab: number): Promise<void> {
  if (!attached.delete(tab)) return;
  await chrome.debugger.detach({ tabId: tab }).catch(() => undefined);
}

/** Sends one DevTools protocol command to `tab`'s session. */
function send(tab: number, method: string, params: Record<string, unknown>): Promise<unknown> {
  return chrome.debugger.sendCommand({ tabId: tab }, method, params);
}

/** Carries the steps out in order; stops at the first the browser refuses and says how many went through. */
async function dispatchSteps(tab: number, steps: TrustedStep[]): Promise<TrustedInputReply> {
  try {
    await attach(tab);
  } catch (err) {
    return { ok: false, dispatched: 0, message: `the browser did not let Oriel attach its debugger to the tab (${errorText(err)}); DevTools open on the tab prevents it` };
  }
  let done = 0;
  try {
    for (const step of steps) {
      await dispatchStep(tab, step);
      done++;
    }
    return { ok: true };
  } catch (err) {
    return { ok: false, dispatched: done, message: `trusted input stopped: ${errorText(err)}` };
  }
}

/** The DevTools protocol's `buttons` bit of each mouse button. */
const BUTTON_BITS = { left: 1, right: 2, middle: 4 } as const;

async function dispatchStep(tab: number, step: TrustedStep): Promise<void> {
  switch (step.kind) {
    case 'mouse': {
      const at = { x: step.x, y: step.y, modifiers: step.modifiers ?? 0 };
      await send(tab, 'Input.dispatchMouseEvent', { type: 'mouseMoved', ...at, button: 'none', buttons: 0 });
      if (step.type === 'move') return;
      // Each press of a multiple click carries its count, as the browser counts a person's (Input.dispatchMouseEvent's
      // `clickCount`; `buttons` bits: left 1, right 2, middle 4).
      const button = step.button ?? 'left';
      const buttons = BUTTON_BITS[button];
      for (let clickCount = 1; clickCount <= (step.count ?? 1); clickCount++) {
        await send(tab, 'Input.dispatchMouseEvent', { type: 'mousePressed', ...at, button, buttons, clickCount });
        await send(tab, 'Input.dispatchMouseEvent', { type: 'mouseReleased', ...at, button, buttons: 0, clickCount });
      }
      return;
    }
    case 'key': {
      // A key that types sends `keyDown` with its text (the browser fires keypress and inserts it); others `rawKeyDown`.
      const down = step.text !== undefined ? 'keyDown' : 'rawKeyDown';
      await send(tab, 'Input.dispatchKeyEvent', {
        type: step.type === 'down' ? down : 'keyUp',
        key: step.key,
        code: step.code,
        windowsVirtualKeyCode: step.keyCode,
        modifiers: step.modifiers,
        ...(step.type === 'down' && step.text !== undefined && { text: step.text, unmodifiedText: step.text }),
      });
      return;
    }
    case 'text':
      await send(tab, 'Input.insertText', { text: step.text });
  }
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 200);
}

/** Registers the request listener and the lifecycle: detach on unsharing and when the option goes off; notice the person ending a session. */
export function watchTrustedInput(): void {
  if (!trustedInputExists()) return;
  chrome.debugger.onDetach.addListener((source, reason) => {
    if (source.tabId === undefined) return;
    attached.delete(source.tabId);
    if (reason === 'canceled_by_user') {
      stopped.set(source.tabId, "trusted input is off for this tab until it is shared again: the person cancelled the browser's debugging banner, so Oriel used its own events");
    }
  });
  onSharingChanged(() => {
    void sharedTabIds().then((shared) => {
      const now = new Set(shared);
      for (const tab of [...attached]) if (!now.has(tab)) void detach(tab);
      for (const tab of [...stopped.keys()]) if (!now.has(tab)) stopped.delete(tab);
    });
  });
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !('settings' in changes)) return;
    void readSettings().then(
      (s) => {
        if (!s.trustedInput) for (const tab of [...attached]) void detach(tab);
      },
      () => undefined,
    );
  });
  chrome.tabs.onRemoved.addListener((tab) => {
    attached.delete(tab);
    stopped.delete(tab);
  });
}
