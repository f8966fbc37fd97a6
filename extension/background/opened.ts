// Tabs and popups a shared tab opens (links with target=_blank, window.open, sign-in windows) become sessions of
// their own when the person allows it in the options (on by default), covering the opener's origin only.
// The hub lists them with their opener (broker/hub/sessions.ts); consent (./pipeline/consent.ts) keeps them to that origin.
import { readSettings } from '../settings.js';
import { isShared, originOf, setShared } from './sharing.js';

chrome.webNavigation.onCreatedNavigationTarget.addListener((details) => {
  void (async () => {
    if (!(await isShared(details.sourceTabId))) return;
    const settings = await readSettings().catch(() => undefined);
    if (!settings?.shareOpenedTabs) return;
    const source = await chrome.tabs.get(details.sourceTabId).catch(() => undefined);
    if (!source?.url) return;
    await setShared(details.tabId, true, { opener: details.sourceTabId, origin: originOf(source.url) });
  })();
});
