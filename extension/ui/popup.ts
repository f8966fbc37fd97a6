// The toolbar popup: "Share this tab" for the current tab, and every web tab with its sharing switch.
import type { PopupRequest, PopupState } from '../popup-messages.js';

async function ask(request: PopupRequest): Promise<PopupState> {
  return (await chrome.runtime.sendMessage(request)) as PopupState;
}

function row(tab: PopupState['tabs'][number], label: string | undefined): HTMLElement {
  const el = document.createElement('label');
  el.className = `tab${tab.shared ? ' shared' : ''}`;
  el.dataset.tab = String(tab.tab);
  el.dataset.url = tab.url;
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.checked = tab.shared;
  box.setAttribute('aria-label', `${label ?? 'Share'}: ${tab.title}`);
  box.addEventListener('change', () => void ask({ kind: 'share', tab: tab.tab, shared: box.checked }).then(render));
  const text = document.createElement('span');
  text.className = 'title';
  text.textContent = label ? `${label} — ${tab.title}` : tab.title;
  const url = document.createElement('span');
  url.className = 'url';
  url.textContent = tab.url;
  text.append(url);
  el.append(box, text);
  return el;
}

async function currentTabId(): Promise<number | undefined> {
  const [active] = await chrome.tabs.query({ active: true, currentWindow: true });
  return active?.id;
}

let shown = '';

async function render(state?: PopupState): Promise<void> {
  const s = state ?? (await ask({ kind: 'state' }));
  const current = await currentTabId();
  // Rebuild only when something visible changed, so a switch is not replaced under the user's pointer.
  const key = JSON.stringify([s, current]);
  if (key === shown) return;
  shown = key;
  const status = document.getElementById('status')!;
  status.textContent = s.connected ? 'Connected to the Oriel broker.' : 'Not connected to the broker: run "oriel install", then "oriel doctor".';
  status.className = `status${s.connected ? '' : ' off'}`;
  const here = s.tabs.find((t) => t.tab === current);
  document.getElementById('this')!.replaceChildren(...(here ? [row(here, 'Share this tab')] : []));
  document.getElementById('shared')!.replaceChildren(...s.tabs.filter((t) => t.shared && t.tab !== current).map((t) => row(t, undefined)));
  document.getElementById('others')!.replaceChildren(...s.tabs.filter((t) => !t.shared && t.tab !== current).map((t) => row(t, undefined)));
}

// Keep the list live while the popup is open: tabs open, close, change title or URL, or get shared elsewhere.
let pending: ReturnType<typeof setTimeout> | undefined;
function rerender(): void {
  clearTimeout(pending);
  pending = setTimeout(() => void render(), 50);
}
chrome.tabs.onCreated.addListener(rerender);
chrome.tabs.onRemoved.addListener(rerender);
chrome.tabs.onUpdated.addListener(rerender);
chrome.tabs.onActivated.addListener(rerender);
chrome.storage.onChanged.addListener((_changes, area) => {
  if (area === 'session') rerender();
});

void render();
