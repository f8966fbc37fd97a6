// The extension's side channels at run time: send a side message of the one map (shared/side-messages.ts) and answer
// them, with one listener per context (background, popup, options page) that checks who sent each message and
// validates it on arrival. Page calls travel apart (extension/background/frames.ts ⇄ extension/content/index.iife.ts).
import { readSide, SIDE_MESSAGES, sideMessage, type SideName, type SideParams, type SideReply, type SideSender } from '../shared/side-messages.js';

/**
 * How one context answers side message `N`: `run` with the validated params and the browser's sender; `malformed`
 * (optional) answers a message whose params did not validate, `failed` (optional) one whose `run` threw. Without them
 * such a message gets no answer (the sender's promise then settles as the browser decides).
 */
export interface SideHandler<N extends SideName> {
  run(params: SideParams<N>, sender: chrome.runtime.MessageSender): SideReply<N> | Promise<SideReply<N>>;
  malformed?(why: string): SideReply<N>;
  failed?(err: unknown): SideReply<N>;
}

/** The side messages one context answers, by name. */
export type SideHandlers = { [N in SideName]?: SideHandler<N> };

/**
 * Sends side message `name` and returns the reply, validated against the map.
 * @throws Error when nothing answers (no receiver, the extension reloading) or the reply does not fit its schema.
 */
export async function sendSide<N extends SideName>(name: N, params: SideParams<N>): Promise<SideReply<N>> {
  const raw: unknown = await chrome.runtime.sendMessage(sideMessage(name, params));
  const reply = SIDE_MESSAGES[name].reply.safeParse(raw ?? null);
  if (!reply.success) throw new Error(`the answer to ${name} does not fit its schema`);
  return reply.data as SideReply<N>;
}

/**
 * Whether `sender` is who may send a message marked `from`: our own extension always; a content script runs in a tab
 * (extension pages run at the extension's own URLs, content scripts at web URLs). Web pages cannot message the
 * extension at all (no externally_connectable).
 */
export function sentBy(from: SideSender, sender: chrome.runtime.MessageSender): boolean {
  if (sender.id !== chrome.runtime.id) return false;
  switch (from) {
    case 'content':
      return sender.tab?.id !== undefined && !isExtensionUrl(sender.url);
    case 'extension_page':
      return isExtensionUrl(sender.url);
    case 'background':
      return true;
  }
}

function isExtensionUrl(url: string | undefined): boolean {
  return url !== undefined && url.startsWith(chrome.runtime.getURL(''));
}

/**
 * Installs this context's one side-channel listener. Messages it has no handler for (another context's, page calls)
 * are left alone, as are those from a sender the map does not name for them.
 */
export function listenSide(handlers: SideHandlers): void {
  chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
    const message = readSide(raw);
    if (!message) return false;
    const handler = handlers[message.name] as SideHandler<SideName> | undefined;
    if (!handler || !sentBy(SIDE_MESSAGES[message.name].from, sender)) return false;
    if (!message.ok) {
      if (!handler.malformed) return false;
      sendResponse(handler.malformed(message.message));
      return false;
    }
    // The params were validated against the map's schema for this very name.
    void Promise.resolve()
      .then(() => handler.run(message.params as never, sender))
      .then(sendResponse, (err: unknown) => sendResponse(handler.failed ? handler.failed(err) : undefined));
    return true;
  });
}
