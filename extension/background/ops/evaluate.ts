// The `evaluate` operation: one expression in the top frame's main world. Prefers userScripts.execute (runs a code
// string regardless of the page's CSP, once the user allows it), else scripting.executeScript in the MAIN world
// (whose eval obeys the CSP) — only where the policy allows it, so a page never sees a violation (../csp.ts).
// MCP side: broker/mcp/tools/evaluate.ts.
import type { EvaluateArgs, EvaluateResult } from '../../../shared/ops.js';
import { orielError, type OrielError } from '../../../shared/errors.js';
import { evalAllowed } from '../csp.js';
import { unreachable } from '../frames.js';
import { EVALUATE_KIT, EVALUATE_KIT_VERSION, type EvaluateKit } from '../../../shared/page-channel.js';

const DEFAULT_MAX_CHARS = 20_000;
const DEFAULT_TIMEOUT_MS = 10_000;

/** What the page-side runner reports back. */
type Outcome =
  | { ok: true; type: string; json: string | null; truncated: boolean; chars: number }
  | { ok: false; kind: 'throw' | 'serialize' | 'timeout' | 'compile'; name: string; message: string };

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
    // CSP refusals are EvalError in Chromium and Firefox ("call to Function() blocked by CSP").
    if (outcome.kind === 'compile' && (outcome.name === 'EvalError' || /Content Security Policy|unsafe-eval|blocked by CSP/i.test(outcome.message))) throw unavailable();
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

/** Which page-script channel the runner asks for built-ins (shared/page-channel.ts); passed in, as the runner imports nothing. */
const KIT_CHANNEL = { event: EVALUATE_KIT, version: EVALUATE_KIT_VERSION } as const;

/**
 * Runs in the page: takes the expression's thunk — `given` on the user-script path, where the expression is already
 * code; else compiled here from `expression` with the Function constructor, which the page's CSP may forbid (reported
 * as `compile`, an EvalError) — awaits it (bounded by `timeoutMs`), then writes the value as JSON, of which it returns
 * at most `max` characters and the whole length.
 *
 * It uses none of the page's built-ins as the page may have left them: it asks Oriel's page script for those it took
 * when it arrived (`channel`, ../../main/evaluate-kit.ts), and only where none answers takes them as they are now.
 * The JSON is written here, not by `JSON.stringify`, which a page may replace; as `JSON.stringify` writes it
 * (ECMA-262 SerializeJSONProperty), except that a `toJSON` the page put on `Object.prototype` or `Array.prototype`
 * (which every object or array would inherit) is not called. Self-contained: scripting.executeScript injects it as
 * `func`, the user-script path by source. The Function constructor here is the only one Oriel ships, and runs only
 * once the user turned `evaluate` on (docs/install.md).
 */
async function runInPage(
  given: (() => unknown) | null,
  expression: string,
  max: number,
  timeoutMs: number,
  channel: { event: string; version: number },
): Promise<Outcome> {
  const win = window;
  /** The built-ins as the page has them now: for a document without Oriel's page script (same shape as its kit). */
  const currentKit = (): EvaluateKit => {
    const set = win.setTimeout;
    const clear = win.clearTimeout;
    const apply = Reflect.apply;
    return {
      version: channel.version,
      isArray: Array.isArray,
      keys: Object.keys,
      getPrototypeOf: Object.getPrototypeOf,
      apply,
      slice: String.prototype.slice,
      charCodeAt: String.prototype.charCodeAt,
      objectPrototype: Object.prototype,
      arrayPrototype: Array.prototype,
      unbox: [
        [Number.prototype, Number.prototype.valueOf],
        [String.prototype, String.prototype.valueOf],
        [Boolean.prototype, Boolean.prototype.valueOf],
      ],
      Promise,
      setTimeout: (run: () => void, ms: number) => apply(set, win, [run, ms]),
      clearTimeout: (id: unknown) => void apply(clear, win, [id]),
      String,
    };
  };
  const asked: { kit?: EvaluateKit } = {};
  try {
    win.dispatchEvent(new CustomEvent(channel.event, { detail: asked }));
  } catch {
    // The page broke events: no answer, so the built-ins as they are now.
  }
  const offered = asked.kit;
  const kit = typeof offered === 'object' && offered !== null && offered.version === channel.version ? offered : currentKit();
  const { apply, slice, charCodeAt, isArray, keys, getPrototypeOf, objectPrototype, arrayPrototype, unbox } = kit;
  const cut = (text: string, n: number) => (text.length > n ? (apply(slice, text, [0, n]) as string) : text);
  const describe = (e: unknown) => ({
    name: cut(kit.String((e as { name?: unknown } | null)?.name ?? 'Error'), 100),
    message: cut(kit.String((e as { message?: unknown } | null)?.message ?? e), 2000),
  });

  let thunk = given;
  if (!thunk) {
    try {
      thunk = new Function(`return (\n${expression}\n);`) as () => unknown;
    } catch (e) {
      // The page's CSP refused (an EvalError in Chromium and Firefox), or the expression does not parse.
      return { ok: false, kind: 'compile', ...describe(e) };
    }
  }
  const run = thunk;
  const timedOut = {};
  let value: unknown;
  try {
    value = await new kit.Promise<unknown>((resolve, reject) => {
      const timer = kit.setTimeout(() => reject(timedOut), timeoutMs);
      // Awaited, never `.then`: the page may have replaced `Promise.prototype.then`, which `await` does not look up.
      void (async () => {
        try {
          resolve(await run());
        } catch (e) {
          reject(e);
        } finally {
          kit.clearTimeout(timer);
        }
      })();
    });
  } catch (e) {
    if (e === timedOut) return { ok: false, kind: 'timeout', name: 'TimeoutError', message: `Waited ${timeoutMs} ms.` };
    return { ok: false, kind: 'throw', ...describe(e) };
  }

  // ---- The value as JSON: `out` holds its start (grown only while shorter than max), `chars` counts the whole. ----
  let out = '';
  let chars = 0;
  const put = (piece: string) => {
    chars += piece.length;
    if (out.length <= max) out += piece;
  };
  /** Escapes JSON gives by name (ECMA-262 QuoteJSONString); other characters below U+0020 and lone surrogates as \\uXXXX. */
  const named = { __proto__: null, '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' } as unknown as Record<string, string | undefined>;
  const escape = (c: string) => {
    const known = named[c];
    if (known !== undefined) return known;
    const hex = '0123456789abcdef';
    const code = apply(charCodeAt, c, [0]) as number;
    return `\\u${hex[(code >> 12) & 15]}${hex[(code >> 8) & 15]}${hex[(code >> 4) & 15]}${hex[code & 15]}`;
  };
  /** Whether the character at `i` of `s` must be escaped; its index and whether it pairs with the next (a surrogate pair, kept). */
  const needsEscape = (s: string, i: number): 0 | 1 | 2 => {
    const c = s[i]!;
    if (c >= ' ' && c !== '"' && c !== '\\' && (c < '\ud800' || c > '\udfff')) return 0;
    if (c >= '\ud800' && c <= '\udbff' && i + 1 < s.length && s[i + 1]! >= '\udc00' && s[i + 1]! <= '\udfff') return 2;
    return 1;
  };
  /** Writes string `s` quoted; plain text is compared character by character, calling nothing of the page's. */
  const putString = (s: string) => {
    const n = s.length;
    let extra = 0;
    for (let i = 0; i < n; i++) {
      const need = needsEscape(s, i);
      if (need === 2) i++;
      else if (need === 1) extra += escape(s[i]!).length - 1;
    }
    if (out.length > max) {
      chars += n + 2 + extra;
      return;
    }
    if (extra === 0) {
      put(`"${s}"`);
      return;
    }
    let text = '"';
    let from = 0;
    for (let i = 0; i < n; i++) {
      const need = needsEscape(s, i);
      if (need === 2) i++;
      else if (need === 1) {
        text += (apply(slice, s, [from, i]) as string) + escape(s[i]!);
        from = i + 1;
      }
    }
    put(`${text}${apply(slice, s, [from, n]) as string}"`);
  };
  const objectToJson = (objectPrototype as { toJSON?: unknown }).toJSON;
  const arrayToJson = (arrayPrototype as { toJSON?: unknown }).toJSON;
  /** The value JSON writes for `v` under `key`: after its own `toJSON` (not one the page added for every object) and unboxed. */
  const jsonValueOf = (key: string, v: unknown): unknown => {
    if (v !== null && (typeof v === 'object' || typeof v === 'function' || typeof v === 'bigint')) {
      const toJson = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJson === 'function' && toJson !== objectToJson && toJson !== arrayToJson) v = apply(toJson as (k: string) => unknown, v, [key]);
    }
    if (typeof v === 'object' && v !== null) {
      const proto = getPrototypeOf(v);
      for (let i = 0; i < unbox.length; i++) if (unbox[i]![0] === proto) return apply(unbox[i]![1], v, []);
    }
    return v;
  };
  /** Whether a resolved value has a JSON form (undefined, functions and symbols do not: left out, or null in arrays). */
  const hasJson = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || typeof v === 'object';
  /** The objects being written, outermost first: meeting one again is a cycle, which JSON cannot write. */
  const open: object[] = [];
  const write = (v: unknown): void => {
    if (v === null) return put('null');
    switch (typeof v) {
      case 'string':
        return putString(v);
      case 'number':
        // Finite numbers as ECMAScript writes them (no call: a primitive's conversion); NaN and the infinities as null.
        return put(v === v && v !== Infinity && v !== -Infinity ? `${v}` : 'null');
      case 'boolean':
        return put(v ? 'true' : 'false');
      case 'bigint':
        throw { name: 'TypeError', message: 'a BigInt has no JSON form; convert it with String() or Number() first' };
      default:
        break;
    }
    const o = v as Record<string, unknown>;
    for (let i = 0; i < open.length; i++) if (open[i] === o) throw { name: 'TypeError', message: 'the value is cyclic: an object contains itself' };
    open[open.length] = o;
    if (isArray(o)) {
      put('[');
      const n = (o as unknown as { length: number }).length;
      for (let i = 0; i < n; i++) {
        if (i > 0) put(',');
        const item = jsonValueOf(`${i}`, o[i]);
        if (hasJson(item)) write(item);
        else put('null');
      }
      put(']');
    } else {
      put('{');
      const names = keys(o);
      let first = true;
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!;
        const item = jsonValueOf(name, o[name]);
        if (!hasJson(item)) continue;
        if (!first) put(',');
        first = false;
        putString(name);
        put(':');
        write(item);
      }
      put('}');
    }
    open.length = open.length - 1;
  };

  const type = value === null ? 'null' : isArray(value) ? 'array' : typeof value;
  try {
    const top = jsonValueOf('', value);
    if (!hasJson(top)) return { ok: true, type, json: null, truncated: false, chars: 0 };
    write(top);
  } catch (e) {
    return { ok: false, kind: 'serialize', ...describe(e) };
  }
  return { ok: true, type, json: cut(out, max), truncated: chars > max, chars };
}

async function viaScripting(tab: number, expression: string, max: number, timeoutMs: number): Promise<Outcome> {
  const before = await documentOf(tab);
  let first: chrome.scripting.InjectionResult<unknown> | undefined;
  try {
    [first] = await chrome.scripting.executeScript({
      target: { tabId: tab, frameIds: [0] },
      world: 'MAIN',
      func: runInPage,
      args: [null, expression, max, timeoutMs, KIT_CHANNEL],
    });
  } catch (err) {
    throw await injectionFailed(tab, err);
  }
  if (first?.result !== undefined && first.result !== null) return first.result as Outcome;
  // The runner always answers: no answer means the document went away under it (navigated, or its renderer died).
  throw (await whyNoResult(tab, before)) ?? orielError('internal', 'The page answered evaluate with nothing, though it is still there.');
}

/** userScripts.execute when the browser has it and the user allowed it; undefined otherwise. */
async function tryUserScripts(tab: number, expression: string, max: number, timeoutMs: number): Promise<Outcome | undefined> {
  // Absent without the permission (Firefox) or while "Allow User Scripts" is off (Chrome); no execute before Firefox 153.
  const api = userScriptsNamespace();
  if (typeof api?.execute !== 'function') return undefined;
  // The expression becomes the body of an arrow function inside the runner call: no eval, so no CSP check. The broker
  // checks that expressions parse in this form or the Function constructor's (broker/mcp/tools/evaluate.ts, FORMS).
  const code = `(${runInPage.toString()})(async () => (\n${expression}\n), '', ${JSON.stringify(max)}, ${JSON.stringify(timeoutMs)}, ${JSON.stringify(KIT_CHANNEL)})`;
  const before = await documentOf(tab);
  let first: { result?: unknown; error?: unknown } | undefined;
  try {
    [first] = await api.execute({ target: { tabId: tab, frameIds: [0] }, world: 'MAIN', injectImmediately: true, js: [{ code }] });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/SyntaxError|Unexpected|unexpected/i.test(message)) return { ok: false, kind: 'throw', name: 'SyntaxError', message };
    // A page the browser cannot reach says "permission" too (Chromium: "… must request permission to access the respective host").
    if (!HOST_UNREACHABLE.test(message) && /user ?scripts|not allowed|permission/i.test(message)) return undefined;
    throw await injectionFailed(tab, err);
  }
  if (first?.error) return { ok: false, kind: 'throw', ...injectionError(first.error) };
  if (first?.result !== undefined && first.result !== null) return first.result as Outcome;
  // Chromium reports a syntax error in a user script as nothing at all, and so does a document that went away under
  // it: a page that is still the same and still answers had the syntax error.
  const gone = await whyNoResult(tab, before);
  if (gone) throw gone;
  return { ok: false, kind: 'throw', name: 'SyntaxError', message: 'The expression did not compile.' };
}

/** Which document the top frame of `tab` shows: Chromium's document id, else (Firefox) its URL. */
async function documentOf(tab: number): Promise<string | undefined> {
  const frame = await chrome.webNavigation.getFrame({ tabId: tab, frameId: 0 }).catch(() => null);
  return (frame as { documentId?: string } | null)?.documentId ?? frame?.url;
}

/**
 * Why an injection into `tab` gave nothing back, `before` being {@link documentOf} the tab when it was made: the tab
 * closed (`session_gone`), its page navigated meanwhile (`stale_document`), or the page does not answer (crashed or
 * stuck: ../frames.ts `unreachable`). Undefined when the same page is there and answers.
 */
async function whyNoResult(tab: number, before: string | undefined): Promise<OrielError | undefined> {
  const tabNow = await chrome.tabs.get(tab).catch(() => undefined);
  if (!tabNow) return orielError('session_gone', 'The tab was closed.');
  if (tabNow.status === 'loading' || (await documentOf(tab)) !== before) {
    return orielError('stale_document', 'The page navigated or reloaded while the expression ran, so its value is lost. Take a new snapshot, then run it again if it is still needed.');
  }
  return (await pageAnswers(tab)) ? undefined : unreachable(tab, 0, new Error('The page gave no result.'));
}

/** What Chromium says when it cannot inject into a web page whose host Oriel may access: its renderer is gone (crashed, or ended by the person). */
const HOST_UNREACHABLE = /Cannot access contents of the page/i;

/** How long a page gets to show it is alive after an injection gave nothing back, ms. */
const ALIVE_PROBE_MS = 1_000;

/** Whether the top frame of `tab` runs a script at all (in the isolated world, reading nothing), within {@link ALIVE_PROBE_MS}. */
async function pageAnswers(tab: number): Promise<boolean> {
  const probe = chrome.scripting.executeScript({ target: { tabId: tab, frameIds: [0] }, func: () => true }).then(
    ([r]) => r?.result === true,
    () => false,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ALIVE_PROBE_MS)));
  try {
    return await Promise.race([probe, late]);
  } finally {
    clearTimeout(timer);
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

/**
 * Why the browser would not run the code in `tab`: closed (`session_gone`); for a web page Chromium cannot reach, which
 * it words as a missing host permission, most likely crashed or stuck (../frames.ts `unreachable`: `unsupported`,
 * `details.reason: "unresponsive"`, next a reload); else a page extensions may not touch.
 */
async function injectionFailed(tab: number, err: unknown): Promise<OrielError> {
  const message = err instanceof Error ? err.message : String(err);
  if (/No tab with id|Invalid tab ID/i.test(message)) return orielError('session_gone', 'The tab was closed.');
  if (HOST_UNREACHABLE.test(message)) return unreachable(tab, 0, err);
  return orielError('unsupported', `Oriel cannot run code in this page (${message.slice(0, 200)}). Browser pages and some protected sites forbid extensions.`);
}
