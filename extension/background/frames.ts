// Talking to the content scripts of one tab: send an operation to a frame, list frames, find a document's frame.
// Counterpart: extension/content/index.iife.ts.
import { ContentResponseSchema } from '../../shared/protocol.js';
import { CONTENT_WIRE, workEnd, type CallBudget, type ContentCall } from '../../shared/call.js';
import { DocumentResult, OPS, specOf, type OpArgs, type OpResult, type RedactionPolicy, type SiteOpName } from '../../shared/ops.js';
import { errorData, OrielError } from '../../shared/errors.js';
import type { TrustedOffer } from '../../shared/trusted-input.js';
import { originOf } from '../consent/rules.js';
import { LeadsElsewhere } from './leads-elsewhere.js';

/** A frame's answer: the value (validated against the op's result schema) and the id of the document that produced it. */
export interface FrameReply<T = unknown> {
  value: T;
  document: string;
  /** The answer to {@link FrameCallOptions.thenRead}, when it was asked, read, and fits `snapshot.lines`' result. */
  thenRead?: OpResult<'snapshot.lines'>;
}

/** The operations a content script answers. */
export type ContentOpName = SiteOpName<'content'>;

/**
 * What the background knows of a document (by its id, the handle namespace): the frame that showed it last, and its
 * origin once its content script described it. A document keeps its origin for life (HTML "origin" of a Document), so
 * the origin never goes stale; only the frame may.
 */
interface KnownDocument {
  frame: number;
  origin?: string;
}
/** tab → document id → what is known of it. Rebuilt on demand after a restart. */
const documents = new Map<number, Map<string, KnownDocument>>();

/** What a content call carries besides the op and its arguments (shared/call.ts ContentCallSchema). */
export interface FrameCallOptions {
  /** The hub's call id, so a cancel can reach the frame; 0 (the default) for Oriel's own private calls. */
  call?: number;
  /** The user's redaction policy; every call made for an agent's operation carries it. */
  redaction?: RedactionPolicy;
  /** The call's budget: its absolute deadline and the slack its work leaves (shared/call.ts CallBudget). */
  budget?: CallBudget;
  /** Trusted input offered to this call (./trusted-input.ts). */
  input?: TrustedOffer;
  /** `snapshot.lines` to read in the frame once the op succeeded, in the same exchange (shared/call.ts `then_read`). */
  thenRead?: OpArgs<'snapshot.lines'>;
  /**
   * The origin of the frame an op that may follow a link or submit a form acts in: the op is not carried out when its
   * element leads to another http(s) origin, and the call fails with {@link LeadsElsewhere} (shared/call.ts `leads_from`).
   */
  leadsFrom?: string;
  /** The frame's address, when the caller has just read it (an acting call is never resent into another document). */
  frameUrl?: string | undefined;
}

/** How many times one message waits for a content script to be brought into its frame (./inject.ts). */
const MAX_ARRIVALS = 2;

/**
 * Brings Oriel's content script into frame `frameId` of `tab`, where a message found nobody listening, and resolves
 * true once it ran there (so the message is sent again); false when it cannot be brought (the tab is not shared, the
 * frame is gone, the browser refuses). May throw `timeout` at `until` (ms since the epoch; undefined: its own bound).
 * `again`: an injection already waited for left no script that answers.
 */
export type ContentBringer = (tab: number, frameId: number, until: number | undefined, again: boolean) => Promise<boolean>;

/** Set once at startup (./page-hooks.ts `startPageHooks`, with ./inject.ts `bringContentScript`); none until then. */
let bringContent: ContentBringer = async () => false;

/** Sets what {@link sendToFrame} calls when a frame has no content script (see {@link ContentBringer}). */
export function bringContentWith(bringer: ContentBringer): void {
  bringContent = bringer;
  chrome.webNavigation.onCommitted.addListener((d) => {
    const key = `${d.tabId}:${d.frameId}`;
    commits.delete(key); // re-inserted last: the oldest entries are the ones let go past the bound
    commits.set(key, (commits.get(key) ?? 0) + 1);
    if (commits.size > MAX_COMMIT_KEYS) commits.delete(commits.keys().next().value!);
  });
  chrome.tabs.onRemoved.addListener((tab) => {
    for (const key of commits.keys()) if (key.startsWith(`${tab}:`)) commits.delete(key);
  });
}

/** The address frame `frameId` of `tab` shows now ('' when it is gone or unknown). */
async function frameUrl(tab: number, frameId: number): Promise<string> {
  return (await chrome.webNavigation.getFrame({ tabId: tab, frameId }).catch(() => null))?.url ?? '';
}

/** Documents committed per `tab:frame` since the background started (bounded): tells a frame that moved on. */
const commits = new Map<string, number>();
const MAX_COMMIT_KEYS = 4096;

/** Documents frame `frameId` of `tab` committed since the background started, as far as it was told (a change: it moved on). */
export function commitCount(tab: number, frameId: number): number {
  return commits.get(`${tab}:${frameId}`) ?? 0;
}

/** Whether a failed `tabs.sendMessage` found no listener in the frame (the same words in Chromium and Firefox). */
export function isNobodyListening(err: unknown): boolean {
  return /Receiving end does not exist/i.test(err instanceof Error ? err.message : String(err));
}

/**
 * Sends one operation to one frame's content script and unwraps its answer, typed and validated by the op map
 * (shared/ops.ts): `args` are the op's arguments, the value its result.
 * A frame of a shared tab whose document has no content script yet gets one first ({@link bringContentWith}), within
 * the call's budget: every message to a page waits for its script to be there.
 * @throws OrielError with the content script's error, `session_gone` when the tab is gone, `unsupported` when the
 *   frame cannot have Oriel's content script (browser-internal pages, error pages), `stale_document` when it is
 *   loading another document, `timeout` when the content script could not start there in time (a busy or blocked
 *   page), or `internal` when the answer does not fit the op's result schema; {@link LeadsElsewhere} (nothing done)
 *   when the call gave `leadsFrom` and its element leads to another origin.
 */
export async function sendToFrame<N extends ContentOpName>(tab: number, frameId: number, op: N, args: OpArgs<N>, options: FrameCallOptions = {}): Promise<FrameReply<OpResult<N>>> {
  const message: ContentCall = {
    oriel: CONTENT_WIRE,
    id: options.call ?? 0,
    op,
    args,
    ...(options.redaction && { redaction: options.redaction }),
    ...(options.budget && { budget: options.budget }),
    ...(options.input && { input: options.input }),
    ...(options.thenRead && { then_read: options.thenRead }),
    ...(options.leadsFrom !== undefined && { leads_from: options.leadsFrom }),
  };
  // An acting call is never resent into another document: the address its frame showed when it was first sent.
  const acting = specOf(op).capability === 'act' || specOf(op).capability === 'exec';
  const sentAt = acting ? (options.frameUrl ?? (await frameUrl(tab, frameId))) : undefined;
  let raw: unknown;
  for (let attempt = 0; ; attempt++) {
    const sentIn = commitCount(tab, frameId);
    try {
      raw = await chrome.tabs.sendMessage(tab, message, { frameId });
      break;
    } catch (err) {
      // Nobody listening: the document has no content script yet (being injected since it committed, or back from the
      // back/forward cache). Nothing received the message, so it goes again once the script is there; a second time
      // after a fresh injection, if the first one left no script that answers. Never into another document than the
      // one it was sent to: Firefox gives the same words when the document that held the call unloads under it, and
      // the call must then end with stale_document, not run again in the page that came next.
      const until = options.budget && workEnd(options.budget);
      const brought = attempt < MAX_ARRIVALS && isNobodyListening(err) && (await bringContent(tab, frameId, until, attempt > 0));
      const moved = commitCount(tab, frameId) !== sentIn || (acting && (await frameUrl(tab, frameId)) !== sentAt);
      if (brought && !moved) continue;
      if (isNobodyListening(err) && moved) {
        throw new OrielError(errorData('stale_document', 'The frame went on to another document while the call was under way; nothing more was done there. Take a new snapshot.', { refresh_required: true }));
      }
      throw await unreachable(tab, frameId, err);
    }
  }
  const parsed = ContentResponseSchema.safeParse(raw);
  if (!parsed.success) throw new OrielError(errorData('internal', 'The content script gave a malformed answer.'));
  const described = specOf(op).describes_document && parsed.data.ok ? DocumentResult.safeParse(parsed.data.value) : undefined;
  const origin = described?.success && described.data.document === parsed.data.document ? described.data.origin : undefined;
  noteDocument(tab, parsed.data.document, frameId, origin);
  if (!parsed.data.ok) {
    // Only a call that asked may be told so: any other answer of this shape is the error it carries.
    if (parsed.data.leads_to !== undefined && options.leadsFrom !== undefined) throw new LeadsElsewhere(parsed.data.leads_to);
    throw new OrielError(parsed.data.error);
  }
  const result = OPS[op].result.safeParse(parsed.data.value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new OrielError(errorData('internal', `The content script's answer to ${op} does not fit its result schema${issue ? ` (${issue.path.join('.')}: ${issue.message})` : ''}.`.slice(0, 500)));
  }
  // A reading that does not fit its schema is left out: the caller reads again by itself (and meets the error then).
  const read = parsed.data.then_read === undefined ? undefined : OPS['snapshot.lines'].result.safeParse(parsed.data.then_read);
  // The value as the page sent it: the schema has checked it, and fields it does not list still travel.
  return { value: parsed.data.value as OpResult<N>, document: parsed.data.document, ...(read?.success && { thenRead: parsed.data.then_read as OpResult<'snapshot.lines'> }) };
}

/**
 * Why a frame did not answer, as the agent should hear it: the tab closed (`session_gone`), the frame is loading
 * another document (`stale_document`), or the frame cannot host Oriel (`unsupported`; `details.reason:
 * "unresponsive"` for a web page, which has most likely crashed or is stuck). `err` is what the browser said.
 */
export async function unreachable(tab: number, frameId: number, err: unknown): Promise<OrielError> {
  const tabNow = await chrome.tabs.get(tab).catch(() => undefined);
  if (!tabNow) return new OrielError(errorData('session_gone', 'The tab was closed.'));
  const message = err instanceof Error ? err.message : String(err);
  if (tabNow.status === 'loading' || /message port closed|context invalidated|back\/forward cache/i.test(message)) {
    return new OrielError(
      errorData('stale_document', 'The page navigated or reloaded while Oriel was working in it; the call did not complete. Take a new snapshot.', {
        details: { frame: frameId },
      }),
    );
  }
  // A web page is where Oriel runs: one that does not answer has most likely crashed or is stuck, and a reload helps.
  const url = frameId === 0 ? (tabNow.url ?? '') : await frameUrl(tab, frameId);
  if (/^https?:/i.test(url)) {
    return new OrielError(
      errorData(
        'unsupported',
        'The page in this frame does not answer Oriel, though it is a web page: it has probably crashed or is stuck (an endless script, a page too large or too deeply nested to lay out), unless the browser keeps extensions out of this site (its own web store). Reload it, or ask the user to look at the tab.',
        { next: 'navigate with action "reload", then snapshot', details: { frame: frameId, reason: 'unresponsive' } },
      ),
    );
  }
  return new OrielError(
    errorData('unsupported', 'This frame cannot be reached by Oriel (a browser page, or one the extension cannot run in).', { details: { frame: frameId } }),
  );
}

/** Records that `document` is shown in `frameId` of `tab`, and its origin when its content script just described it. */
export function noteDocument(tab: number, document: string, frameId: number, origin?: string): void {
  let docs = documents.get(tab);
  if (!docs) documents.set(tab, (docs = new Map()));
  docs.set(document, { frame: frameId, origin: origin ?? docs.get(document)?.origin });
}

/**
 * The origin of document `document` of `tab`, as its content script reported it, or undefined when Oriel has not asked
 * it yet. Which frame shows the document now is {@link frameOfDocument}'s question, not this one's.
 */
export function originOfDocument(tab: number, document: string): string | undefined {
  return documents.get(tab)?.get(document)?.origin;
}

/** Forgets a tab's documents (tab closed or unshared, or its top frame committed a new document). */
export function forgetTab(tab: number): void {
  documents.delete(tab);
}

/** Frames of a tab: id, parent id (-1 for the top frame) and URL. */
export async function listFrames(tab: number): Promise<Array<{ frameId: number; parentFrameId: number; url: string }>> {
  const frames = (await chrome.webNavigation.getAllFrames({ tabId: tab })) ?? [];
  return frames.map((f) => ({ frameId: f.frameId, parentFrameId: f.parentFrameId, url: f.url }));
}

/** Which child frame shows which iframe: each token a child posted to its parent window, and the tokens by parent. */
export interface FrameIntroductions {
  frameOfToken: Map<string, number>;
  childTokens: Map<number, string[]>;
}

/**
 * Asks every child frame of `tab` (of `frames`) to post a fresh random token to its parent window, so that the
 * parent's content script can tell which of its iframes shows which frame (Chromium has no runtime.getFrameId). A
 * frame without Oriel's content script is left out.
 */
export async function introduceFrames(tab: number, frames: ReadonlyArray<{ frameId: number; parentFrameId: number }>): Promise<FrameIntroductions> {
  const out: FrameIntroductions = { frameOfToken: new Map(), childTokens: new Map() };
  await Promise.all(
    frames
      .filter((f) => f.frameId !== 0)
      .map(async (f) => {
        const bytes = crypto.getRandomValues(new Uint8Array(12));
        const token = 'ft' + Array.from(bytes, (b) => (b % 36).toString(36)).join('');
        try {
          const r = await sendToFrame(tab, f.frameId, 'snapshot.hello', { token });
          if (r.value.sent) {
            out.frameOfToken.set(token, f.frameId);
            out.childTokens.set(f.parentFrameId, [...(out.childTokens.get(f.parentFrameId) ?? []), token]);
          }
        } catch {
          /* no content script in that frame */
        }
      }),
  );
  return out;
}

/**
 * The frame of `tab` that shows document `document`, or undefined when no frame of this tab does (the handle is from
 * a previous page or another tab). Uses the cache first, then asks every frame (after a service-worker restart).
 */
export async function frameOfDocument(tab: number, document: string): Promise<number | undefined> {
  const cached = documents.get(tab)?.get(document)?.frame;
  if (cached !== undefined) return cached;
  const frames = await listFrames(tab);
  await Promise.all(frames.map((f) => sendToFrame(tab, f.frameId, 'document', {}).catch(() => undefined)));
  return documents.get(tab)?.get(document)?.frame;
}

/**
 * The origin of the document frame `frameId` of `tab` shows, as that document has it: opaque ("null") for sandboxed
 * frames and data: URLs even when the URL says otherwise. A frame Oriel cannot reach is judged by its URL; an
 * about:blank or about:srcdoc frame there takes its parent's origin, which created it
 * (https://html.spec.whatwg.org/multipage/document-sequences.html#determining-the-origin).
 */
export async function frameOrigin(tab: number, frameId: number): Promise<string> {
  return (await frameOriginOrError(tab, frameId)).origin;
}

/**
 * {@link frameOrigin}, and whether Oriel's content script answered in that frame. A loaded frame without it shows no
 * page Oriel can work in: the browser's own error page after a failed load, or a page extensions may not touch.
 */
export async function frameOriginOrError(tab: number, frameId: number): Promise<{ origin: string; reachable: boolean }> {
  const reply = await sendToFrame(tab, frameId, 'document', {}).catch(() => undefined);
  const parsed = DocumentResult.safeParse(reply?.value);
  if (parsed.success) return { origin: parsed.data.origin, reachable: true };
  const info = await chrome.webNavigation.getFrame({ tabId: tab, frameId }).catch(() => null);
  if (info && /^about:(blank|srcdoc)/.test(info.url) && info.parentFrameId >= 0) return { ...(await frameOriginOrError(tab, info.parentFrameId)), reachable: false };
  return { origin: originOf(info?.url), reachable: false };
}
