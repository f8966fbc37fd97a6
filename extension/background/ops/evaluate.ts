// The `evaluate` operation: one expression in the top frame's main world. Prefers userScripts.execute (runs a code
// string regardless of the page's CSP, once the user allows it), else scripting.executeScript in the MAIN world
// (whose eval obeys the CSP) — only where the policy allows it, so a page never sees a violation (../csp.ts).
// MCP side: broker/mcp/tools/evaluate.ts.
import type { EvaluateArgs, EvaluateResult } from '../../../shared/ops.js';
import { orielError, type OrielError } from '../../../shared/errors.js';
import { evalAllowed } from '../csp.js';

const DEFAULT_MAX_CHARS = 20_000;
const DEFAULT_TIMEOUT_MS = 10_000;

/** What the page-side runner reports back. */
type Outcome =
  | { ok: true; type: string; json: string | null; truncated: boolean; chars: number }
  | { ok: false; kind: 'throw' | 'serialize' | 'timeout' | 'csp'; name: string; message: string };

/** Runs the expression; the consent stage (../pipeline/consent.ts) has checked the exec capability. */
export async function evaluate(tab: number, args: EvaluateArgs): Promise<EvaluateResult> {
  const { expression } = args;
  const max = args.max_chars ?? DEFAULT_MAX_CHARS;
  const timeoutMs = args.timeout_ms ?? DEFAULT_TIMEOUT_MS;

  const viaUserScripts = await tryUserScripts(tab, expression, max, timeoutMs);
  if (!viaUserScripts) {
    // Trying eval where the page's policy forbids it would fire a securitypolicyviolation (and a report to the site).
    const allowed = await evalAllowed(tab);
    if (allowed === false) throw unavailable();
    if (allowed === undefined) throw unavailable('Oriel cannot tell whether this page allows code from strings: it loaded before Oriel started. Reload the tab, or allow user scripts.');
  }
  const outcome = viaUserScripts ?? (await viaScripting(tab, expression, max, timeoutMs));
  const via = viaUserScripts ? 'userScripts' : 'scripting';
  if (!outcome.ok) {
    if (outcome.kind === 'csp') throw unavailable();
    throw pageError(outcome);
  }
  let value: unknown = null;
  if (outcome.json !== null) value = outcome.truncated ? outcome.json : JSON.parse(outcome.json);
  return { value, type: outcome.type, truncated: outcome.truncated, ...(outcome.truncated && { chars: outcome.chars }), via };
}

/** The error that says exactly what the user must switch on, per browser. */
function unavailable(why = "This page's Content-Security-Policy forbids evaluating code, and user scripts are not allowed for Oriel."): OrielError {
  const firefox = typeof (globalThis as { browser?: { runtime?: { getBrowserInfo?: unknown } } }).browser?.runtime?.getBrowserInfo === 'function';
  let what: string;
  if (firefox && userScriptsNamespace() !== undefined) {
    // Granted, but this Firefox predates userScripts.execute.
    what = 'Oriel may run user scripts, but this Firefox lacks userScripts.execute: update to Firefox 153 or later.';
  } else if (firefox) {
    what =
      `In Firefox open Oriel's options page (${chrome.runtime.getURL('extension/ui/options.html')}) and click "Allow running agents' JavaScript on pages that block it (evaluate)", ` +
      'or in about:addons → Oriel → Permissions turn on "Allow unverified third-party scripts to access your data".';
  } else {
    what =
      `In Chrome open chrome://extensions/?id=${chrome.runtime.id} (Oriel's details) and turn on "Allow User Scripts"; it applies at once ` +
      '(Chrome before 138: turn on "Developer mode" in chrome://extensions instead).';
  }
  return orielError('evaluate_unavailable', `${why} ${what} Then retry.`, {
    next: 'ask the user to enable user scripts for Oriel, or read the page with snapshot / extract instead',
  });
}

/** chrome.userScripts, or undefined when absent or refused (Chrome throws on access in some versions while it is off). */
function userScriptsNamespace(): { execute?: (i: unknown) => Promise<Array<{ result?: unknown; error?: unknown }>> } | undefined {
  try {
    return (chrome as unknown as { userScripts?: ReturnType<typeof userScriptsNamespace> }).userScripts;
  } catch {
    return undefined;
  }
}

function pageError(o: { kind: string; name: string; message: string }): OrielError {
  if (o.kind === 'timeout') return orielError('timeout', `The expression's promise did not settle in time. ${o.message}`.slice(0, 1000));
  if (o.kind === 'serialize') return orielError('page_error', `The value cannot be turned into JSON (${o.message.slice(0, 300)}). Return plain data, e.g. map elements to their text.`);
  const hint = o.name === 'SyntaxError' ? ' evaluate takes one expression; wrap statements in (() => { … })().' : '';
  const message = o.message.slice(0, 1500);
  const stop = hint && !/[.!?]$/.test(message) ? '.' : '';
  return orielError('page_error', `The page threw ${o.name}: ${message}${stop}${hint}`, { details: { name: o.name.slice(0, 100) } });
}

/**
 * Runs in the page: takes the expression's thunk — `given` on the user-script path, where the expression is already
 * code; else compiled here from `expression` with the Function constructor, which the page's CSP may forbid (reported
 * as `csp`) — awaits it (bounded by `timeoutMs`), then serialises the value to JSON of at most `max` characters.
 * Self-contained: scripting.executeScript injects it as `func`, the user-script path by source. The Function
 * constructor here is the only one Oriel ships, and runs only once the user turned `evaluate` on (docs/install.md).
 */
function runInPage(given: (() => unknown) | null, expression: string, max: number, timeoutMs: number): Promise<Outcome> {
  const describe = (e: unknown) => ({
    name: String((e as { name?: unknown } | null)?.name ?? 'Error').slice(0, 100),
    message: String((e as { message?: unknown } | null)?.message ?? e).slice(0, 2000),
  });
  let thunk = given;
  if (!thunk) {
    try {
      thunk = new Function(`return (\n${expression}\n);`) as () => unknown;
    } catch (e) {
      const { name, message } = describe(e);
      // CSP refusals are EvalError in Chromium and Firefox ("call to Function() blocked by CSP").
      if (name === 'EvalError' || /Content Security Policy|unsafe-eval|blocked by CSP/i.test(message)) {
        return Promise.resolve({ ok: false, kind: 'csp', name, message: message.slice(0, 500) });
      }
      return Promise.resolve({ ok: false, kind: 'throw', name, message });
    }
  }
  const run = thunk;
  return new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(() => reject(Object.assign(new Error(`Waited ${timeoutMs} ms.`), { oriel: 'timeout' })), timeoutMs);
    Promise.resolve()
      .then(run)
      .then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (e) => {
          clearTimeout(timer);
          reject(e);
        },
      );
  }).then(
    (v): Outcome => {
      const type = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
      let json: string | undefined;
      try {
        json = JSON.stringify(v);
      } catch (e) {
        return { ok: false, kind: 'serialize', ...describe(e) };
      }
      if (json === undefined) return { ok: true, type, json: null, truncated: false, chars: 0 };
      if (json.length > max) return { ok: true, type, json: json.slice(0, max), truncated: true, chars: json.length };
      return { ok: true, type, json, truncated: false, chars: json.length };
    },
    (e): Outcome => {
      if ((e as { oriel?: string } | null)?.oriel === 'timeout') return { ok: false, kind: 'timeout', ...describe(e) };
      return { ok: false, kind: 'throw', ...describe(e) };
    },
  );
}

async function viaScripting(tab: number, expression: string, max: number, timeoutMs: number): Promise<Outcome> {
  try {
    const [first] = await chrome.scripting.executeScript({
      target: { tabId: tab, frameIds: [0] },
      world: 'MAIN',
      func: runInPage,
      args: [null, expression, max, timeoutMs],
    });
    return (first?.result as Outcome | undefined) ?? { ok: false, kind: 'throw', name: 'Error', message: 'The page gave no result (it may be navigating).' };
  } catch (err) {
    throw injectionFailed(err);
  }
}

/** userScripts.execute when the browser has it and the user allowed it; undefined otherwise. */
async function tryUserScripts(tab: number, expression: string, max: number, timeoutMs: number): Promise<Outcome | undefined> {
  // Absent without the permission (Firefox) or while "Allow User Scripts" is off (Chrome); no execute before Firefox 153.
  const api = userScriptsNamespace();
  if (typeof api?.execute !== 'function') return undefined;
  // The expression becomes the body of an arrow function inside the runner call: no eval, so no CSP check.
  const code = `(${runInPage.toString()})(async () => (\n${expression}\n), '', ${JSON.stringify(max)}, ${JSON.stringify(timeoutMs)})`;
  try {
    const [first] = await api.execute({ target: { tabId: tab, frameIds: [0] }, world: 'MAIN', injectImmediately: true, js: [{ code }] });
    if (first?.error) return { ok: false, kind: 'throw', ...injectionError(first.error) };
    return (first?.result as Outcome | undefined) ?? { ok: false, kind: 'throw', name: 'SyntaxError', message: 'The expression did not compile.' };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/user ?scripts|not allowed|permission/i.test(message)) return undefined;
    if (/SyntaxError|Unexpected|unexpected/i.test(message)) return { ok: false, kind: 'throw', name: 'SyntaxError', message };
    throw injectionFailed(err);
  }
}

/**
 * The `error` of a user script that failed to run: Firefox passes the thrown error object (a syntax error in the
 * expression lands here); Chrome declares it a string and, for a syntax error, reports nothing and no result.
 */
function injectionError(e: unknown): { name: string; message: string } {
  if (typeof e === 'string') {
    const m = /^(?:Uncaught )?([A-Za-z]*Error): ([\s\S]*)$/.exec(e);
    return m ? { name: m[1]!, message: m[2]! } : { name: 'Error', message: e };
  }
  const o = (typeof e === 'object' && e !== null ? e : {}) as { name?: unknown; message?: unknown };
  const message = typeof o.message === 'string' ? o.message : String(e);
  const name = typeof o.name === 'string' && o.name ? o.name : /SyntaxError/.test(message) ? 'SyntaxError' : 'Error';
  return { name, message };
}

function injectionFailed(err: unknown): OrielError {
  const message = err instanceof Error ? err.message : String(err);
  if (/No tab with id|Invalid tab ID/i.test(message)) return orielError('session_gone', 'The tab was closed.');
  return orielError('unsupported', `Oriel cannot run code in this page (${message.slice(0, 200)}). Browser pages and some protected sites forbid extensions.`);
}
