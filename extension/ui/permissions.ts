// The options page's consent sections: what the person allowed or denied (remembered rules and this browser session's
// grants, each revocable), the tool policy (tools switched off, agents' code on or off, how long a prompt waits), and
// the exec audit log with its JSON export. Rules and the log come from the background (extension/background/index.ts);
// the policy is written to the settings, which the background reports to the hub.
import { OPS } from '../../shared/ops.js';
import { CAPABILITY_WORDS, describePlace, type Rule } from '../consent/rules.js';
import { auditOutcomeWords, auditVerb, type AuditEntry } from '../consent/audit.js';
import type { AuditReply, PopupRequest, RulesState } from '../popup-messages.js';
import { listenSide, sendSide } from '../side-channel.js';
import { DEFAULT_PROMPT_SECONDS, MAX_PROMPT_SECONDS, readSettings, writeSettings } from '../settings.js';
import { el, visible } from './show.js';

/** Audit entries shown on the page (the export has them all). */
const SHOWN_AUDIT = 100;

function ask<T>(request: PopupRequest): Promise<T> {
  return sendSide('page_request', request) as Promise<T>;
}

const when = (ms: number) => new Date(ms).toLocaleString();

function revokeButton(id: string): HTMLButtonElement {
  const b = el('button', 'Revoke');
  b.type = 'button';
  b.dataset.revoke = id;
  b.addEventListener('click', () => {
    b.disabled = true;
    void ask({ kind: 'revoke', id }).then(renderRules);
  });
  return b;
}

function ruleScope(rule: Rule): string {
  return rule.place.kind === 'origin' ? 'this site, remembered' : rule.place.kind === 'host' ? 'this host on any port, remembered' : 'every site, remembered';
}

async function renderRules(): Promise<void> {
  const state = await ask<RulesState>({ kind: 'rules' });
  const rows: HTMLElement[] = [];
  for (const r of [...state.rules].reverse()) {
    const tr = el('tr');
    Object.assign(tr.dataset, { id: r.id, site: describePlace(r.place), capability: r.capability, effect: r.effect, scope: r.place.kind });
    tr.append(el('td', describePlace(r.place)), el('td', CAPABILITY_WORDS[r.capability]), el('td', r.effect === 'allow' ? 'Allowed' : 'Denied', r.effect === 'deny' ? 'deny' : undefined));
    tr.append(el('td', ruleScope(r)), el('td', when(r.created)));
    const cell = el('td');
    cell.append(revokeButton(r.id));
    tr.append(cell);
    rows.push(tr);
  }
  for (const g of [...state.grants].reverse()) {
    const tr = el('tr');
    const scope = g.source === 'share' ? 'session' : g.code !== undefined ? 'code' : 'session';
    Object.assign(tr.dataset, { id: g.id, site: g.origin, capability: g.capability, effect: 'allow', scope, source: g.source });
    const what = el('td', CAPABILITY_WORDS[g.capability]);
    if (g.preview !== undefined) what.append(el('pre', visible(g.preview, 200, true)));
    const tab = el('td', g.source === 'share' ? 'while the tab is shared: ' : g.code !== undefined ? 'this exact code, in the tab ' : 'any code, in the tab ');
    tab.append(el('q', visible(g.title, 80)), ' ', el('span', '(title set by the page)', 'from-page'));
    tr.append(el('td', g.origin), what, el('td', 'Allowed'), tab, el('td', when(g.created)));
    const cell = el('td');
    cell.append(revokeButton(g.id));
    tr.append(cell);
    rows.push(tr);
  }
  document.querySelector('#rules tbody')!.replaceChildren(...rows);
  document.getElementById('no-rules')!.hidden = rows.length > 0;
  const waiting = document.getElementById('waiting')!;
  waiting.hidden = state.waiting === 0;
  document.getElementById('waiting-text')!.textContent = `${state.waiting} permission request${state.waiting === 1 ? '' : 's'} waiting for your answer.`;
}

document.getElementById('show-prompts')!.addEventListener('click', () => {
  void ask<{ how?: 'popup' | 'window' }>({ kind: 'show-prompts' }).then((r) => {
    if (r.how) document.getElementById('waiting')!.dataset.shown = r.how;
  });
});

// ---- Policy ----

const TOOL_NAMES = Object.entries(OPS)
  .filter(([, spec]) => spec.public)
  .map(([name]) => name);
const allowExec = document.getElementById('allow-exec') as HTMLInputElement;
const promptSeconds = document.getElementById('prompt-seconds') as HTMLInputElement;
const policyResult = document.getElementById('policy-result')!;

async function savePolicy(patch: Parameters<typeof writeSettings>[0]): Promise<void> {
  try {
    await writeSettings(patch);
    policyResult.textContent = 'Saved.';
    policyResult.className = '';
  } catch {
    policyResult.textContent = 'Not saved: check the values.';
    policyResult.className = 'error';
  }
  await renderPolicy();
}

async function renderPolicy(): Promise<void> {
  const s = await readSettings().catch(() => undefined);
  const off = new Set(s?.disabledTools ?? []);
  const boxes = TOOL_NAMES.map((name) => {
    const label = el('label');
    const box = el('input');
    box.type = 'checkbox';
    box.dataset.tool = name;
    box.checked = !off.has(name);
    box.addEventListener('change', () => {
      const disabled = [...document.querySelectorAll<HTMLInputElement>('#tools input[data-tool]')].filter((b) => !b.checked).map((b) => b.dataset.tool!);
      void savePolicy({ disabledTools: disabled });
    });
    label.append(box, ` ${name} `, el('span', `(${OPS[name as keyof typeof OPS].capability})`, 'hint'));
    return label;
  });
  document.getElementById('tools')!.replaceChildren(...boxes);
  allowExec.checked = s?.allowExec ?? true;
  promptSeconds.value = String(s?.promptSeconds ?? DEFAULT_PROMPT_SECONDS);
}

allowExec.addEventListener('change', () => void savePolicy({ allowExec: allowExec.checked }));
promptSeconds.addEventListener('change', () => {
  const value = Number(promptSeconds.value);
  if (!Number.isInteger(value) || value < 1 || value > MAX_PROMPT_SECONDS) {
    policyResult.textContent = `Between 1 and ${MAX_PROMPT_SECONDS} seconds.`;
    policyResult.className = 'error';
    return;
  }
  void savePolicy({ promptSeconds: value });
});

// ---- Audit log ----

let audit: AuditEntry[] = [];

/** Where an answer was given, as the log says it: " (in the popup)", " (in mcp's app)", or nothing for uses. */
function answeredWhere(e: AuditEntry): string {
  if (e.source === 'popup') return ' (in the popup)';
  if (e.source === 'app') return ` (in ${visible(e.source_client ?? 'an agent', 80)}'s app)`;
  return '';
}

async function renderAudit(): Promise<void> {
  audit = (await ask<AuditReply>({ kind: 'audit' })).entries;
  document.getElementById('audit-count')!.textContent = `${audit.length} entr${audit.length === 1 ? 'y' : 'ies'}.`;
  const rows = audit
    .slice(-SHOWN_AUDIT)
    .reverse()
    .map((e) => {
      const tr = el('tr');
      Object.assign(tr.dataset, { kind: e.kind, tool: e.tool, outcome: e.outcome, ...(e.source && { source: e.source }) });
      const code = el('td');
      if (e.code !== undefined) code.append(el('pre', visible(e.code, 2000, true)));
      else if (e.operation !== undefined) code.append(el('pre', visible(e.operation, 2000, true)));
      // Words, not codes: what the person answered, or what happened to the code (a refused call's code never ran).
      tr.append(el('td', when(e.time)), el('td', auditVerb(e)), el('td', visible(e.client, 80)), el('td', visible(e.origin, 300)), el('td', e.tool), code, el('td', `${auditOutcomeWords(e)}${answeredWhere(e)}`));
      return tr;
    });
  document.querySelector('#audit-log tbody')!.replaceChildren(...rows);
}

document.getElementById('audit-export')!.addEventListener('click', () => {
  const blob = new Blob([JSON.stringify({ exported: new Date().toISOString(), entries: audit }, null, 2)], { type: 'application/json' });
  const link = el('a');
  link.href = URL.createObjectURL(blob);
  link.download = `oriel-audit-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
});

// Live: the background says what changed (no data); settings changed in another tab re-render the policy.
listenSide({
  changed: {
    run: ({ what }) => {
      if (what === 'audit') void renderAudit();
      else void renderRules();
      return null;
    },
  },
});
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && 'settings' in changes) void renderPolicy();
});

void renderRules();
void renderPolicy();
void renderAudit();
