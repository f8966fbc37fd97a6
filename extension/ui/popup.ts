// The toolbar popup (also opened as a small window when a notification is clicked where the browser cannot open the
// popup): permission requests waiting for the person, "Share this tab" for the current tab, and every web tab with its
// sharing switch. Everything shown comes from the background (extension/background/index.ts); strings from pages and
// agents are shown as text, bounded and labelled.
import '../zod-jitless.js'; // first: zod must be jitless before any schema is built
import type { Answer } from '../consent/rules.js';
import { CAPABILITY_WORDS, answerLabel } from '../consent/rules.js';
import type { PopupRequest, PopupState, PromptView } from '../popup-messages.js';
import { listenSide, sendSide } from '../side-channel.js';
import { el, visible } from './show.js';

if (new URLSearchParams(location.search).has('window')) document.body.classList.add('window');

async function ask(request: PopupRequest): Promise<PopupState> {
  return (await sendSide('page_request', request)) as PopupState;
}

function row(tab: PopupState['tabs'][number], label: string | undefined): HTMLElement {
  const node = document.createElement('label');
  node.className = `tab${tab.shared ? ' shared' : ''}`;
  node.dataset.tab = String(tab.tab);
  node.dataset.url = tab.url;
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.checked = tab.shared;
  // Titles and URLs are the pages' words: shown escaped, so bidi controls cannot reorder what the person reads.
  const title = visible(tab.title, 200);
  box.setAttribute('aria-label', `${label ?? 'Share'}: ${title}`);
  box.addEventListener('change', () => void ask({ kind: 'share', tab: tab.tab, shared: box.checked }).then(render));
  const text = el('span', label ? `${label} — ${title}` : title, 'title');
  text.append(el('span', visible(tab.url, 300), 'url'));
  node.append(box, text);
  return node;
}

/** "in a frame of X inside Y" / "on X" / "on a page with an opaque origin". */
function where(p: PromptView): string {
  const origin = p.origin === 'null' ? 'a page with an opaque origin (a sandboxed frame, data: or local file)' : p.origin;
  return p.frame ? `in a frame of ${origin}, inside ${p.frame.inside}` : `on ${origin}`;
}

/** Seconds left to answer, for the countdown. */
function secondsLeft(p: PromptView): number {
  return Math.max(0, Math.round((p.until - Date.now()) / 1000));
}

/** One prompt card: who asks, for what, where; the code or operation for exec; the tab titles, labelled as the page's. */
function promptCard(p: PromptView): HTMLElement {
  const card = el('article', undefined, 'prompt');
  card.dataset.prompt = p.id;
  card.dataset.capability = p.capability;
  card.dataset.origin = p.origin;
  card.setAttribute('aria-label', `Permission request: ${p.capability} on ${p.origin}`);
  const head = el('p');
  const agents = p.agents.map((a) => visible(a, 80)).join(', ') || 'An agent';
  const what = p.detail?.kind === 'operation' ? 'run an operation the page offers' : p.detail?.kind === 'code' ? 'run its own code' : CAPABILITY_WORDS[p.capability];
  head.append(el('strong', agents, 'agent'), ` wants to `, el('strong', what, 'what'), ` ${where(p)}.`);
  card.append(head);
  const meta = el('p', `${p.tools.join(', ')} · ${p.calls} call${p.calls === 1 ? '' : 's'} waiting · `, 'meta');
  const left = el('span', `${secondsLeft(p)} s left to answer`, 'left');
  meta.append(left);
  card.append(meta);
  for (const title of p.pages) {
    const page = el('p', 'Tab: ', 'meta page');
    page.append(el('q', visible(title, 120)), ' ', el('span', '(title set by the page)', 'from-page'));
    card.append(page);
  }
  if (p.detail?.kind === 'code') {
    card.append(el('p', 'Code the agent wants to run in the page:'));
    card.append(el('pre', visible(p.detail.code, 4000, true), 'code'));
    if (p.detail.chars > p.detail.code.length) card.append(el('p', `(${p.detail.chars - p.detail.code.length} more characters not shown)`, 'meta'));
  } else if (p.detail?.kind === 'operation') {
    const op = el('p', 'Page operation ');
    op.append(el('code', visible(p.detail.name, 200)), ' ', el('span', '(named by the page)', 'from-page'), ' with the arguments:');
    card.append(op, el('pre', visible(p.detail.args, 4000, true), 'code'));
  }
  if (p.origin === 'null') card.append(el('p', 'An opaque origin cannot be remembered: this answer counts once.', 'meta'));
  const answers = el('div', undefined, 'answers');
  for (const answer of p.answers) answers.append(answerButton(p, answer, answers));
  card.append(answers);
  return card;
}

function answerButton(p: PromptView, answer: Answer, group: HTMLElement): HTMLButtonElement {
  const button = el('button', answerLabel(answer, p.capability, p.detail?.kind === 'operation'), answer.startsWith('deny') ? 'deny' : 'allow');
  button.type = 'button';
  button.dataset.answer = answer;
  button.addEventListener('click', () => {
    for (const b of group.querySelectorAll('button')) b.disabled = true;
    void ask({ kind: 'answer', prompt: p.id, answer }).then(() => render());
  });
  return button;
}

async function currentTabId(): Promise<number | undefined> {
  const [active] = await chrome.tabs.query({ active: true, currentWindow: true });
  return active?.id;
}

let shown = '';
let shownPrompts = '';
let prompts: PromptView[] = [];

async function render(state?: PopupState): Promise<void> {
  const s = state ?? (await ask({ kind: 'state' }));
  const current = await currentTabId();
  // Rebuild only what changed, so a switch or an answer button is not replaced under the user's pointer (the tab list
  // changes whenever a tab loads; the prompts only when one comes, goes or gains a waiting call).
  const promptsKey = JSON.stringify(s.prompts);
  if (promptsKey !== shownPrompts) {
    shownPrompts = promptsKey;
    prompts = s.prompts;
    document.getElementById('prompts')!.hidden = prompts.length === 0;
    document.getElementById('prompt-list')!.replaceChildren(...prompts.map(promptCard));
  }
  const key = JSON.stringify([s.connected, s.tabs, current]);
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

// Keep the list live while the popup is open: tabs open, close, change title or URL, or get shared elsewhere; prompts
// come and go.
// Changes are coalesced but never postponed: a page that changes its title every few milliseconds must not keep
// the popup (and the permission prompts in it) from rendering.
let pending: ReturnType<typeof setTimeout> | undefined;
function rerender(): void {
  if (pending !== undefined) return;
  pending = setTimeout(() => {
    pending = undefined;
    void render();
  }, 50);
}
chrome.tabs.onCreated.addListener(rerender);
chrome.tabs.onRemoved.addListener(rerender);
chrome.tabs.onUpdated.addListener(rerender);
chrome.tabs.onActivated.addListener(rerender);
chrome.storage.onChanged.addListener((_changes, area) => {
  if (area === 'session') rerender();
});
// The popup's one side-channel listener: the background says what changed (no data).
listenSide({
  changed: {
    run: () => {
      rerender();
      return null;
    },
  },
});
// The countdown of each prompt, without rebuilding the cards.
setInterval(() => {
  for (const p of prompts) {
    const left = document.querySelector(`article[data-prompt="${CSS.escape(p.id)}"] .left`);
    if (left) left.textContent = `${secondsLeft(p)} s left to answer`;
  }
}, 1000);

void render();
