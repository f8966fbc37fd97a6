// Tabs and popups a shared tab opens (links with target=_blank, window.open, sign-in windows) become sessions of
// their own when the person allows it in the options (on by default), covering the opener's origin only.
// The hub lists them with their opener (broker/hub/sessions.ts); their share grants that origin only (./sharing.ts), so
// consent (./pipeline/consent.ts) asks the person about any other.
import { readSettings } from '../settings.js';
import { originOf } from '../consent/rules.js';
import { isShared, setShared } from './sharing.js';

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
