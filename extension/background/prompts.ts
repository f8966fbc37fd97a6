// Permission prompts waiting for the person: calls that wait on the same question share one prompt, each with its own
// budget. Nothing here decides — the consent stage (./pipeline/consent.ts) opens prompts and settles them; the popup
// shows them (extension/ui/popup.ts) through the views below. Pages never see any of this: it lives in the background
// and reaches only the extension's own pages.
import type { Caller } from '../../shared/call.js';
import type { PromptInfo } from '../../shared/protocol.js';
import type { Need } from '../consent/rules.js';
import type { PromptView } from '../popup-messages.js';

/** How a wait ends (`busy`: too many prompts or waiting calls already, so this one was not asked). */
export type PromptOutcome = 'allow' | 'deny' | 'timeout' | 'cancelled' | 'busy';

/** One call waiting on a prompt. */
export interface Waiter {
  call: number;
  client: Caller;
  /** The Oriel session (shared tab) it runs in. */
  session: string;
  /** The tool (operation) it wants to run. */
  op: string;
  /** The shared tab's title (page content) when the call began. */
  title: string;
  /** When its own prompt budget ends, ms since the Unix epoch. */
  until: number;
}

interface Pending extends Waiter {
  timer: ReturnType<typeof setTimeout>;
  settle(outcome: PromptOutcome): void;
}

/** A question put to the person, and the calls waiting on its answer. */
export interface Prompt {
  id: string;
  key: string;
  need: Need;
  /** What the popup shows besides capability and origin (code, operation, frame). */
  view: Pick<PromptView, 'detail' | 'frame' | 'answers'>;
  since: number;
  waiters: Pending[];
}

/** Most prompts open at once; calls beyond it are refused at once rather than pile up unseen. */
const MAX_PROMPTS = 50;
/** Most calls waiting on one prompt. */
const MAX_WAITERS = 200;

const prompts = new Map<string, Prompt>();
const listeners = new Set<() => void>();

/** Calls `listener` whenever a prompt opens, closes, or gains or loses a waiting call. */
export function onPromptsChanged(listener: () => void): void {
  listeners.add(listener);
}

function changed(): void {
  for (const l of listeners) l();
}

/**
 * The key under which calls share a prompt: the capability and the origin — for exec also the tab and the exact code
 * (the person answers about one expression), and for opaque origins the tab (each opaque origin is unique).
 */
function promptKey(need: Need): string {
  const parts: Array<string | number> = [need.capability, need.origin];
  if (need.capability === 'exec') parts.push(need.tab, need.code ?? '');
  else if (need.origin === 'null') parts.push(need.tab);
  return JSON.stringify(parts);
}

/**
 * Waits for the person's answer to `need` on behalf of one call, sharing an open prompt with the same key. Settles
 * `timeout` at `waiter.until`, `cancelled` when `signal` aborts, else with the answer given through {@link settle}.
 * Settles `busy` at once when {@link MAX_PROMPTS} other prompts are open, or this one has {@link MAX_WAITERS} calls.
 */
export function wait(need: Need, view: Prompt['view'], waiter: Waiter, signal: AbortSignal): Promise<PromptOutcome> {
  const key = promptKey(need);
  let prompt = prompts.get(key);
  if (!prompt) {
    if (prompts.size >= MAX_PROMPTS) return Promise.resolve('busy');
    prompt = { id: crypto.randomUUID(), key, need, view, since: Date.now(), waiters: [] };
    prompts.set(key, prompt);
  }
  if (prompt.waiters.length >= MAX_WAITERS) return Promise.resolve('busy');
  const open = prompt;
  return new Promise<PromptOutcome>((resolve) => {
    const onAbort = () => entry.settle('cancelled');
    const entry: Pending = {
      ...waiter,
      timer: setTimeout(() => entry.settle('timeout'), Math.max(0, waiter.until - Date.now())),
      settle: (outcome) => {
        clearTimeout(entry.timer);
        signal.removeEventListener('abort', onAbort);
        open.waiters = open.waiters.filter((w) => w !== entry);
        if (open.waiters.length === 0 && prompts.get(open.key) === open) prompts.delete(open.key);
        resolve(outcome);
        changed();
      },
    };
    open.waiters.push(entry);
    if (signal.aborted) entry.settle('cancelled');
    else signal.addEventListener('abort', onAbort, { once: true });
    changed();
  });
}

/** Settles every call waiting on prompt `id` with `outcome`. Returns the prompt, or undefined if it is gone. */
export function settle(id: string, outcome: PromptOutcome): Prompt | undefined {
  const prompt = [...prompts.values()].find((p) => p.id === id);
  if (!prompt) return undefined;
  for (const w of [...prompt.waiters]) w.settle(outcome);
  return prompt;
}

/**
 * Settles, on prompt `id`, only the calls of client `clientId` with `outcome` (an answer given in that client's app
 * speaks for its own calls only). Returns how many it settled.
 */
export function settleClient(id: string, clientId: string, outcome: PromptOutcome): number {
  const prompt = [...prompts.values()].find((p) => p.id === id);
  if (!prompt) return 0;
  const own = prompt.waiters.filter((w) => w.client.id === clientId);
  for (const w of own) w.settle(outcome);
  return own.length;
}

/** The open prompt call `call` waits on for `need`, if any. */
export function promptOf(need: Need, call: number): Prompt | undefined {
  const prompt = prompts.get(promptKey(need));
  return prompt?.waiters.some((w) => w.call === call) ? prompt : undefined;
}

/** The prompts open now, oldest first. */
export function openPrompts(): Prompt[] {
  return [...prompts.values()];
}

/** The hub is gone: no waiting call can be answered any more, so every prompt is withdrawn. */
export function withdrawAll(): void {
  for (const p of openPrompts()) for (const w of [...p.waiters]) w.settle('cancelled');
}

/** A client left: the calls it made stop waiting (and prompts no one waits on any more close). */
export function withdrawClient(clientId: string): void {
  for (const p of openPrompts()) for (const w of [...p.waiters]) if (w.client.id === clientId) w.settle('cancelled');
}

/** Bounds a string for display: at most `max` characters, with how many were left out. */
function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The prompts as the popup shows them. Page content (titles) stays data; the popup escapes and labels it. */
export function promptViews(): PromptView[] {
  return openPrompts().map((p) => ({
    id: p.id,
    capability: p.need.capability,
    origin: p.need.origin,
    agents: [...new Set(p.waiters.map((w) => bounded(w.client.name || 'an MCP client', 80)))].slice(0, 10),
    tools: [...new Set(p.waiters.map((w) => w.op))].slice(0, 10),
    pages: [...new Set(p.waiters.map((w) => bounded(w.title, 120)))].slice(0, 5),
    calls: p.waiters.length,
    since: p.since,
    until: Math.min(...p.waiters.map((w) => w.until)),
    ...p.view,
  }));
}

/** The prompts as the hub reports them (`oriel status`). */
export function promptInfos(): PromptInfo[] {
  return openPrompts().map((p) => ({
    id: p.id,
    capability: p.need.capability,
    origin: p.need.origin.slice(0, 300),
    clients: [...new Set(p.waiters.map((w) => w.client.name.slice(0, 200)))].slice(0, 50),
    calls: p.waiters.length,
    since: p.since,
  }));
}
