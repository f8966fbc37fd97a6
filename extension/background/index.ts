// Background entry (service worker in Chromium, event page in Firefox): reconciles state, keeps the native port,
// tracks shared tabs, keeps the permission prompts and answers the extension's own pages. Everything registers
// synchronously at top level so a restarted worker hears the event that woke it.
import '../zod-jitless.js'; // first: zod must be jitless before any schema is built
import { browserIdentity } from './identity.js';
import { startNative, sendTabs, sendTabsSoon, post, isConnected, type NativeHandlers } from './native.js';
import { runCall, cancelCall } from './pipeline/index.js';
import { answerPrompt, recheck } from './pipeline/consent.js';
import { giveTurn } from './pipeline/turns.js';
import { isShared, onSharingChanged, reconcileSharing, setShared, sharedTabIds } from './sharing.js';
import { forgetTab, sendToFrame } from './frames.js';
import { acceptPush, forgetPushes } from './push.js';
import { acceptDialogState } from './open-dialogs.js';
import { addSecretParams, forgetSecretParams } from './secret-params.js';
import { shownPage } from './shown-page.js';
import { sendPolicy } from './policy.js';
import './opened.js';
import './trail-watch.js';
import './csp.js';
import './downloads.js';
import './pdf-tab.js';
import { loadGrants, loadRules, onConsentChanged, revoke } from './grants.js';
import { onPromptsChanged, openPrompts, promptInfos, promptViews, withdrawAll, withdrawClient } from './prompts.js';
import { onAudited, readAudit } from './audit.js';
import { showWaiting } from './badge.js';
import { notifyPrompts, showPrompts } from './notify.js';
import type { Changed, PopupRequest, PopupState } from '../popup-messages.js';
import { listenSide, sendSide } from '../side-channel.js';
import { forgetSnapshots } from './snapshot.js';
import { acceptLifelines, requestLifeline } from './lifeline.js';
import { answerTrustedInput, refusal, watchTrustedInput } from './trusted-input.js';
import { CHROMIUM_BUILD } from '../build-target.js';
import { originOf } from '../consent/rules.js';
import { onLateBrowserStart, restoredSharedTabs, watchBrowserSession, browserSessionReady } from './session-mirror.js';
import { ensureContentScripts } from './inject.js';
import { startPageHooks } from './page-hooks.js';

watchBrowserSession();
acceptLifelines();
// Oriel's page-world script, into shared tabs' documents only.
startPageHooks();
// Trusted input's lifecycle (Chromium build only); its requests come through the side-channel listener below.
if (CHROMIUM_BUILD) watchTrustedInput();

chrome.tabs.onRemoved.addListener((tab) => {
  forgetTab(tab);
  forgetPushes(tab);
  forgetSecretParams(tab);
  forgetSnapshots(tab);
  void isShared(tab).then((shared) => (shared ? setShared(tab, false) : undefined));
});

chrome.tabs.onUpdated.addListener((tab, change) => {
  if (change.title === undefined && change.url === undefined && change.status === undefined) return;
  void isShared(tab).then((shared) => (shared ? sendTabsSoon() : undefined));
});

chrome.tabs.onActivated.addListener(() => void sendTabs());

chrome.webNavigation.onCommitted.addListener((details) => {
  if (details.frameId === 0) forgetTab(details.tabId);
});

chrome.webNavigation.onDOMContentLoaded.addListener((details) => {
  if (details.frameId !== 0) return;
  void isShared(details.tabId).then(async (shared) => {
    if (!shared) return;
    const reply = await sendToFrame(details.tabId, 0, 'document', {}).catch(() => undefined);
    if (reply) {
      const page = await shownPage(details.tabId, details.url, '');
      post({ t: 'event', event: { kind: 'document', tab: details.tabId, document: reply.document, url: page.url, ...(page.withheld && { withheld: true }) } });
      // The list carries the new origin's grants and title: the hub must not keep showing the old origin's meanwhile.
      sendTabsSoon();
    }
    requestLifeline(details.tabId, true);
  });
});

/** Tells the open extension pages that something they show changed (they ask again; the message carries no data). */
function broadcast(what: Changed['what']): void {
  sendSide('changed', { what }).catch(() => undefined);
}

onSharingChanged(() => void sendTabs());


onPromptsChanged(() => {
  const views = promptViews();
  void showWaiting(views.length);
  void notifyPrompts(views);
  post({ t: 'event', event: { kind: 'prompts', prompts: promptInfos() } });
  broadcast('prompts');
});

onConsentChanged(() => {
  void sendTabs();
  void recheck();
  broadcast('rules');
});

onAudited(() => broadcast('audit'));


// The background's one side-channel listener (shared/side-messages.ts): each message is checked for its sender and
// validated there. Only the extension's own pages (popup, options) may share tabs or answer prompts.
listenSide({
  // Page → hub: bridge messages from the content script of a tab's top frame, bounded in ./push.ts.
  page_push: { run: acceptPush, malformed: () => null },
  // A content script of a shared tab reports a dialog of the browser's own opened or closed (calls there end at once).
  dialog_state: { run: acceptDialogState, malformed: () => null },
  // A content script (any tab, shared or not) reports the secret fields a form is submitting.
  secret_params: {
    run: ({ names }, sender) => {
      if (sender.tab?.id !== undefined) void addSecretParams(sender.tab.id, names).catch(() => undefined);
      return null;
    },
  },
  // Content → background, mid-action: trusted input for a call the background offered it to (Chromium build only).
  // Chromium only: the Firefox build must not carry the debugger code behind it (the condition is a build constant).
  trusted_input: { run: CHROMIUM_BUILD ? answerTrustedInput : () => refusal('this browser has no trusted input'), malformed: refusal, failed: (err) => refusal(err instanceof Error ? err.message.slice(0, 200) : 'failed') },
  page_request: { run: answerPage, failed: (err) => ({ ok: false, error: err instanceof Error ? err.message : String(err) }) },
});

async function answerPage(request: PopupRequest): Promise<unknown> {
  switch (request.kind) {
    case 'state':
    case 'share':
      return popupState(request);
    case 'answer':
      return { ok: await answerPrompt(request.prompt, request.answer) };
    case 'revoke':
      return { ok: await revoke(request.id) };
    case 'rules': {
      const grants = await Promise.all(
        // Labelled with the title the grant was given under; a grant from before titles were kept shows the tab's
        // title only while the tab still shows the grant's origin (else it would name another site's page).
        (await loadGrants()).map(async (g) => {
          if (g.title !== undefined) return { ...g, title: g.title };
          const t = await chrome.tabs.get(g.tab).catch(() => undefined);
          return { ...g, title: t && originOf(t.url) === g.origin ? (t.title ?? '') : '' };
        }),
      );
      return { rules: await loadRules(), grants, waiting: openPrompts().length };
    }
    case 'audit':
      return { entries: await readAudit() };
    case 'show-prompts':
      return { ok: true, how: await showPrompts() };
  }
}

async function popupState(request: PopupRequest): Promise<PopupState> {
  if (request.kind === 'share') {
    // A tab that loaded before this extension was (re)installed has no content script yet.
    if (request.shared) await ensureContentScripts(request.tab);
    await setShared(request.tab, request.shared);
    requestLifeline(request.tab, request.shared);
  }
  const shared = new Set(await sharedTabIds());
  const tabs = await chrome.tabs.query({});
  return {
    connected: isConnected(),
    tabs: tabs
      // Web pages can be shared; a shared tab stays listed wherever it went, so the user can always unshare it.
      .filter((t) => t.id !== undefined && (/^(https?|file):/.test(t.url ?? '') || shared.has(t.id)))
      .map((t) => ({ tab: t.id!, title: t.title ?? '', url: t.url ?? '', shared: shared.has(t.id!), active: t.active, windowId: t.windowId })),
    prompts: promptViews(),
  };
}

// The browser said it has just started after the restore put back the last run's tabs: they are not shared in this one.
onLateBrowserStart((tabs) => void Promise.all(tabs.map((tab) => setShared(tab, false))));

void (async () => {
  // After an extension reload or update, sharing comes back from its copy, and its tabs get a content script again.
  await browserSessionReady();
  await Promise.all(restoredSharedTabs().map((tab) => ensureContentScripts(tab)));
  await reconcileSharing();
  // An answer from an agent's app: the consent stage checks again that it is bound to that client's waiting call.
  const answerInApp: NativeHandlers['answer'] = (m) => {
    void answerPrompt(m.prompt, m.answer, { kind: 'app', client: { id: m.client, name: m.via }, call: m.call }).then((ok) => {
      if (!ok) console.warn('[oriel] refused an answer from an agent\'s app: no such call waits on that prompt');
    });
  };
  startNative(await browserIdentity(), { call: runCall, cancel: cancelCall, turn: giveTurn, greeted: () => void sendPolicy(), clientGone: withdrawClient, answer: answerInApp, disconnected: withdrawAll });
  // A restarted background: every shared tab holds its lifeline again (they reconnect by themselves too).
  for (const tab of await sharedTabIds()) requestLifeline(tab, true);
})();
