// Snapshot operations of the content script (private protocol with extension/background/snapshot.ts):
//   snapshot.lines {flags, want, expect?} | {reading, want} → the next outline lines of this frame (LinesReply)
//   snapshot.hello {token}           → posts the token to the parent window, so the parent can place this frame
//   snapshot.resolve {handle}        → { status, tag? } (diagnostics and tests)
import type { WalkFlags } from '../../../shared/snapshot/index.js';
import type { ContentHandlers } from '../handlers.js';
import { announceToParent, awaitTokens, listenForChildFrames } from './frames.js';
import { continueReading, startReading } from './session.js';
import type { LinesLost, LinesReply } from '../../../shared/snapshot/reading.js';

listenForChildFrames();

/** Checks the walk flags the background sent, bounding each; redaction selectors are validated by the walker. */
export function parseFlags(raw: unknown): WalkFlags {
  const f = (raw ?? {}) as Partial<WalkFlags>;
  const num = (v: unknown, d: number, max: number) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.min(Math.floor(v), max) : d);
  const selectors = Array.isArray(f.redactSelectors) ? f.redactSelectors.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [];
  // Each selector is checked to parse when the walker builds its Redactor: an invalid one fails the walk.
  const flags: WalkFlags = {
    redactSelectors: selectors,
    // 0 is a real choice (show no values), so it is not replaced by the default.
    valueLimit: typeof f.valueLimit === 'number' && Number.isFinite(f.valueLimit) && f.valueLimit >= 0 ? Math.min(Math.floor(f.valueLimit), 100_000) : 200,
    nameLimit: num(f.nameLimit, 300, 10_000),
    textLimit: num(f.textLimit, 2000, 100_000),
    maxNodes: num(f.maxNodes, 100_000, 1_000_000),
    maxDepth: num(f.maxDepth, 40, 200),
  };
  if (typeof f.root === 'string') flags.root = f.root;
  if (f.inert === true) flags.inert = true;
  if (Array.isArray(f.inherit)) flags.inherit = f.inherit.filter((s): s is string => typeof s === 'string' && /^[a-z-]{1,20}$/.test(s)).slice(0, 8);
  if (f.lineRoles === true) flags.lineRoles = true;
  if (f.lineSearch === true) flags.lineSearch = true;
  if (f.fresh === true) flags.fresh = true;
  if (Array.isArray(f.urlParams)) flags.urlParams = f.urlParams.filter((s): s is string => typeof s === 'string' && s.length <= 200).slice(0, 200);
  return flags;
}


export const snapshotHandlers: ContentHandlers = {
  'snapshot.lines': async (args, ctx): Promise<LinesReply | LinesLost> => {
    if (args.reading !== undefined) {
      const r = continueReading(ctx.registry, args.reading);
      return r ? r.read(args.want, ctx.deadline) : { lost: true };
    }
    const flags = parseFlags(args.flags);
    await awaitTokens(args.expect ?? [], 300);
    const root = flags.root ? ctx.registry.require(flags.root) : document.documentElement;
    return startReading(flags, ctx.registry, root).read(args.want, ctx.deadline);
  },
  /** What a handle names in this document now: `ok` with the element's tag, or why not (no_snapshot, unknown_handle, detached). */
  'snapshot.resolve': (args, ctx) => {
    const r = ctx.registry.resolve(args.handle);
    return r.status === 'ok' ? { status: 'ok', tag: r.element.localName } : { status: r.status };
  },
  'snapshot.hello': (args) => ({ sent: announceToParent(args.token) }),
};
