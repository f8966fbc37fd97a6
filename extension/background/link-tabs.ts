// A modified click on a link (middle, or Control, Meta or Shift held) opens it in a new tab for a person. Oriel's
// synthetic events cannot (extension/content/actions/click.ts keeps the tab where it is and reports the link), so the
// background opens it beside the tab and shares it as a tab the shared one opened (./opened.ts): only when the person
// lets opened tabs be shared, and only for http(s) links. Used by the pipeline's dispatch stage.
import type { Settings } from '../settings.js';
import { originOf } from '../consent/rules.js';
import { browserIdentity } from './identity.js';
import { setShared } from './sharing.js';

/**
 * Opens `url` in a new background tab next to `tab`, shared with `tab` as its opener, and returns its session id
 * (`<browser instance>-<tab id>`, docs/architecture.md "Sessions"); undefined when the settings or the URL do not
 * allow it, or the browser refused.
 */
export async function openLinkInNewTab(tab: number, url: string, settings: Settings): Promise<string | undefined> {
  if (!settings.shareOpenedTabs || !/^https?:/i.test(url)) return undefined;
  const source = await chrome.tabs.get(tab).catch(() => undefined);
  if (!source?.url) return undefined;
  // In the shared tab's window: without one, the browser picks the last focused window (a popup the page opened), where
  // the index means nothing and Chromium refuses the tab.
  const created = await chrome.tabs.create({ url, openerTabId: tab, windowId: source.windowId, active: false, index: source.index + 1 }).catch(() => undefined);
  if (created?.id === undefined) return undefined;
  await setShared(created.id, true, { opener: tab, origin: originOf(source.url) });
  return `${(await browserIdentity()).instance}-${created.id}`;
}
