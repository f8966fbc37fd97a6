// Who this browser profile is to the hub: product, version, a persistent random instance id, the extension id and the
// popup's address.
import type { BrowserInfo } from '../../shared/protocol.js';
import { mintNamespace } from '../../shared/ids.js';

/** Returns this profile's identity, minting the instance id on first use (kept in storage.local). */
export async function browserIdentity(): Promise<BrowserInfo> {
  const stored = (await chrome.storage.local.get('instance')).instance;
  let instance = typeof stored === 'string' && /^[a-z0-9]{4,12}$/.test(stored) ? stored : undefined;
  if (!instance) {
    instance = mintNamespace(6);
    await chrome.storage.local.set({ instance });
  }
  const ua = navigator.userAgent;
  const firefox = /Firefox\/([\d.]+)/.exec(ua);
  const chromeVersion = /Chrom(?:e|ium)\/([\d.]+)/.exec(ua);
  const name = firefox ? 'firefox' : /Edg\//.test(ua) ? 'edge' : 'chromium';
  const popup = chrome.runtime.getManifest().action?.default_popup;
  return {
    name,
    version: (firefox ?? chromeVersion)?.[1] ?? 'unknown',
    instance,
    extension_id: chrome.runtime.id,
    ...(popup && { popup_url: chrome.runtime.getURL(popup) }),
  };
}
