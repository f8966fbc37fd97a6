// The person's policy the broker applies (the tools switched off, the upload folder, the apps that may ask), sent up as a `policy` event after
// every hello and whenever the options change. Counterpart: broker/hub/hub.ts (disabledTools, uploadFolder).
import { disabledTools, readSettings } from '../settings.js';
import { isGreeted, post } from './native.js';

/**
 * Sends the current policy to the hub, if connected. Unreadable settings send upload off and no tool off (the
 * background itself then refuses every call, as it cannot read the person's policy).
 */
export async function sendPolicy(): Promise<void> {
  if (!isGreeted()) return;
  const settings = await readSettings().catch(() => undefined);
  post({ t: 'event', event: { kind: 'policy', disabled: settings ? disabledTools(settings) : [], upload_folder: settings?.uploadFolder || null, ask_in_app: settings?.askInApp ?? [] } });
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && 'settings' in changes) void sendPolicy();
});
