// Background of the snapshot test rig: runs the real background snapshot code on request of the rig control page
// (relayed by relay.ts). Test-only; the shipped extension has no such entry point.
import { snapshotTab } from '../../../extension/background/snapshot.js';
import { listFrames, sendToFrame } from '../../../extension/background/frames.js';
import { OrielError } from '../../../shared/errors.js';
import type { SnapshotArgs } from '../../../shared/ops.js';

async function tabOf(urlPart: string): Promise<number> {
  const tabs = await chrome.tabs.query({});
  const tab = tabs.find((t) => t.url?.includes(urlPart));
  if (tab?.id === undefined) throw new Error(`no tab with ${urlPart}`);
  return tab.id;
}

const rig: Record<string, (...a: never[]) => Promise<unknown>> = {
  snapshot: async (urlPart: string, args: SnapshotArgs = {}) => snapshotTab(await tabOf(urlPart), args),
  send: async (urlPart: string, frameId: number, op: string, args: Record<string, unknown>) => sendToFrame(await tabOf(urlPart), frameId, op, args),
  frames: async (urlPart: string) => listFrames(await tabOf(urlPart)),
  settings: (s: unknown) => chrome.storage.local.set({ settings: s }),
};

chrome.runtime.onMessage.addListener((m: { rig?: string; args?: unknown[] }, _sender, sendResponse) => {
  const fn = m.rig ? rig[m.rig] : undefined;
  if (!fn) return false;
  (fn as (...a: unknown[]) => Promise<unknown>)(...(m.args ?? []))
    .then((value) => sendResponse({ value: value ?? null }))
    .catch((err: unknown) => sendResponse({ error: err instanceof OrielError ? err.data : { code: 'internal', message: String(err) } }));
  return true;
});
