// The person's policy the broker applies (the upload folder), sent up as a `policy` event after every hello and
// whenever the options change. Counterpart: broker/hub/hub.ts (uploadFolder).
import { readSettings } from '../settings.js';
import { isGreeted, post } from './native.js';

/** Sends the current policy to the hub, if connected. An unreadable setting sends upload off. */
export async function sendPolicy(): Promise<void> {
  if (!isGreeted()) return;
  const settings = await readSettings().catch(() => undefined);
  post({ t: 'event', event: { kind: 'policy', upload_folder: settings?.uploadFolder || null } });
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && 'settings' in changes) void sendPolicy();
});
