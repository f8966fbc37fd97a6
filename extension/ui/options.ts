// The options page: the user's redaction selectors and value limit (an invalid selector is refused here, and a
// snapshot refuses to run with one rather than show unredacted content), user scripts for evaluate, the upload folder
// and sharing of opened tabs. Permissions, tool policy and the audit log: ./permissions.ts.
import '../zod-jitless.js'; // first: zod must be jitless before any schema is built
import { DEFAULT_SETTINGS, MAX_REDACT_SELECTORS, MAX_SELECTOR_CHARS, readSettings, writeSettings } from '../settings.js';
import './permissions.js';
import './ask-in-app.js';
import { CHROMIUM_BUILD } from '../build-target.js';
import { isDownloadFolderName } from '../../shared/downloads.js';

const selectors = document.getElementById('selectors') as HTMLTextAreaElement;
const limit = document.getElementById('limit') as HTMLInputElement;
const result = document.getElementById('result')!;

function invalidSelector(list: string[]): string | undefined {
  const probe = document.createDocumentFragment();
  for (const s of list) {
    try {
      probe.querySelector(s);
    } catch {
      return s;
    }
  }
  return undefined;
}

async function load(): Promise<void> {
  const s = await readSettings().catch(() => {
    result.textContent = 'The stored redaction list could not be read; enter it again and save.';
    result.className = 'error';
    return { ...DEFAULT_SETTINGS };
  });
  selectors.value = s.redactSelectors.join('\n');
  limit.value = String(s.valueLimit);
}

document.getElementById('form')!.addEventListener('submit', (event) => {
  event.preventDefault();
  const list = selectors.value.split('\n').map((l) => l.trim()).filter(Boolean);
  if (list.length > MAX_REDACT_SELECTORS || list.some((l) => l.length > MAX_SELECTOR_CHARS)) {
    result.textContent = `At most ${MAX_REDACT_SELECTORS} selectors of at most ${MAX_SELECTOR_CHARS} characters each.`;
    result.className = 'error';
    return;
  }
  const bad = invalidSelector(list);
  if (bad !== undefined) {
    result.textContent = `Not a valid CSS selector: ${bad}`;
    result.className = 'error';
    return;
  }
  void writeSettings({ redactSelectors: list, valueLimit: Number(limit.value) }).then(() => {
    result.textContent = 'Saved.';
    result.className = '';
    return load();
  });
});

void load();

// Agents' JavaScript (evaluate): whether Oriel may run code strings through the browser's user-scripts feature, which
// is how `evaluate` works on pages whose Content-Security-Policy forbids eval. The Firefox build declares `userScripts`
// as an optional permission, granted here; the Chromium build declares it at install and Chrome gates it behind the
// per-extension "Allow User Scripts" switch in chrome://extensions, which no extension page can flip.
const USER_SCRIPTS: chrome.permissions.Permissions = { permissions: ['userScripts'] };
const usState = document.getElementById('us-state')!;
const requestable = ((chrome.runtime.getManifest().optional_permissions ?? []) as string[]).includes('userScripts');

/** True when `userScripts.execute` is reachable (Chrome hides or throws on the namespace while the switch is off). */
function canExecuteUserScripts(): boolean {
  try {
    return typeof (chrome as unknown as { userScripts?: { execute?: unknown } }).userScripts?.execute === 'function';
  } catch {
    return false;
  }
}

function showState(state: 'on' | 'off' | 'old', text: string): void {
  usState.dataset.state = state;
  usState.textContent = text;
}

async function showUserScripts(): Promise<void> {
  if (!requestable) {
    if (canExecuteUserScripts()) showState('on', 'On: "Allow User Scripts" is switched on for Oriel.');
    else showState('off', 'Off: switch on "Allow User Scripts" on Oriel\'s page in chrome://extensions.');
    return;
  }
  if (!(await chrome.permissions.contains(USER_SCRIPTS))) {
    showState('off', 'Off: evaluate fails on pages that forbid eval.');
    return;
  }
  // Older Firefox versions grant the permission but have no userScripts.execute, which evaluate calls (Firefox 153+).
  if (canExecuteUserScripts()) showState('on', 'On: agents may run JavaScript on pages that forbid eval.');
  else showState('old', 'Allowed, but this Firefox lacks userScripts.execute: update to Firefox 153 or later.');
}

document.getElementById(requestable ? 'us-firefox' : 'us-chromium')!.hidden = false;
document.getElementById('us-allow')!.addEventListener('click', () => {
  // Firefox honours permissions.request only while handling the click (a user gesture): call it before any await.
  chrome.permissions.request(USER_SCRIPTS).then(
    () => showUserScripts(),
    (err: unknown) => showState('off', `Not allowed: ${err instanceof Error ? err.message : String(err)}`),
  );
});
document.getElementById('us-revoke')!.addEventListener('click', () => {
  void chrome.permissions.remove(USER_SCRIPTS).then(() => showUserScripts());
});
document.getElementById('us-open')!.addEventListener('click', () => {
  void chrome.tabs.create({ url: `chrome://extensions/?id=${chrome.runtime.id}` });
});
// Granted or withdrawn elsewhere (about:addons), or the Chrome switch flipped in another tab: show the state again.
chrome.permissions.onAdded.addListener(() => void showUserScripts());
chrome.permissions.onRemoved.addListener(() => void showUserScripts());
window.addEventListener('focus', () => void showUserScripts());
document.addEventListener('visibilitychange', () => void showUserScripts());
void showUserScripts();

// Agents' hands: sharing what shared tabs open, and the upload folder.
const shareOpened = document.getElementById('share-opened') as HTMLInputElement;
const uploadFolder = document.getElementById('upload-folder') as HTMLInputElement;
const uploadResult = document.getElementById('upload-result')!;
void readSettings().then(
  (s) => {
    shareOpened.checked = s.shareOpenedTabs;
    uploadFolder.value = s.uploadFolder;
  },
  () => undefined,
);
shareOpened.addEventListener('change', () => void writeSettings({ shareOpenedTabs: shareOpened.checked }));
document.getElementById('upload-form')!.addEventListener('submit', (event) => {
  event.preventDefault();
  const folder = uploadFolder.value.trim();
  // The broker checks the folder when it reads from it; here only the shape: a full path, or nothing.
  if (folder !== '' && !/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(folder)) {
    uploadResult.textContent = 'Give the full path of a folder (or leave it empty to turn upload off).';
    uploadResult.className = 'error';
    return;
  }
  void writeSettings({ uploadFolder: folder }).then(() => {
    uploadResult.textContent = folder ? 'Saved.' : 'Saved: upload is off.';
    uploadResult.className = '';
  });
});

// Agents' downloads: one folder name inside the browser's downloads folder (extensions can save nowhere else).
const downloadFolder = document.getElementById('download-folder') as HTMLInputElement;
const downloadResult = document.getElementById('download-result')!;
void readSettings().then((s) => (downloadFolder.value = s.downloadFolder), () => undefined);
document.getElementById('download-form')!.addEventListener('submit', (event) => {
  event.preventDefault();
  const folder = downloadFolder.value.trim();
  if (folder !== '' && !isDownloadFolderName(folder)) {
    downloadResult.textContent = 'Give one folder name (letters, digits, space, . _ -; no slashes), or leave it empty to turn agents\' downloads off.';
    downloadResult.className = 'error';
    return;
  }
  void writeSettings({ downloadFolder: folder }).then(() => {
    downloadResult.textContent = folder ? 'Saved.' : 'Saved: agents\' downloads are off.';
    downloadResult.className = '';
  });
});

// Trusted input: shown in the Chromium build, where the browser gives extensions its debugging interface
// (`chrome.debugger`, declared at install); Firefox has none, and its build leaves this out. Unticking turns it off; the background then detaches.
const trustedBox = document.getElementById('trusted-input') as HTMLInputElement;
const trustedResult = document.getElementById('trusted-result')!;
if (CHROMIUM_BUILD && typeof (chrome as unknown as { debugger?: { attach?: unknown } }).debugger?.attach === 'function') {
  document.getElementById('trusted')!.hidden = false;
  void readSettings().then((s) => (trustedBox.checked = s.trustedInput), () => undefined);
  trustedBox.addEventListener('change', () => {
    const on = trustedBox.checked;
    void writeSettings({ trustedInput: on }).then(
      () => (trustedResult.textContent = on ? 'On.' : "Off: Oriel sends its own events."),
      (err: unknown) => (trustedResult.textContent = `Not saved: ${err instanceof Error ? err.message : String(err)}`),
    );
  });
}
