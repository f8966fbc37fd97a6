// The snapshot operation in the background: asks every frame of the tab for its tree, stitches child frames in place
// under their iframe nodes, applies filters, marks what a modal makes inert, and cuts one page within the budget.
// Counterparts: extension/content/snapshot/index.ts (the walker), shared/snapshot (renderer, pagination).
import { errorData, OrielError } from '../../shared/errors.js';
import type { SnapshotArgs, SnapshotResult } from '../../shared/ops.js';
import {
  DEFAULT_BUDGET,
  HARD_CAP,
  decodeCursor,
  encodeCursor,
  filterFingerprint,
  filterTree,
  markInert,
  paginate,
  resumeIndex,
  toLines,
  type FrameTree,
  type SnapNode,
  type WalkFlags,
} from '../../shared/snapshot/index.js';
import { frameOfDocument, listFrames, sendToFrame } from './frames.js';
import { readSettings, type Settings } from '../settings.js';
import { secretParams } from './secret-params.js';
import { scrubUrl } from '../../shared/url-redaction.js';

/** A random token for the iframe ↔ frameId handshake (Chromium has no runtime.getFrameId). */
function frameToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return 'ft' + Array.from(bytes, (b) => (b % 36).toString(36)).join('');
}

/** The public arguments, mapped once to the walker's flags. Redaction comes only from the user's settings. */
function walkFlags(settings: Settings, root: string | undefined): WalkFlags {
  const flags: WalkFlags = {
    redactSelectors: settings.redactSelectors,
    valueLimit: settings.valueLimit,
    nameLimit: 300,
    textLimit: 2000,
    maxNodes: 100_000,
    maxDepth: 40,
  };
  if (root) flags.root = root;
  return flags;
}

export async function snapshotTab(tab: number, args: SnapshotArgs): Promise<SnapshotResult> {
  const settings = await readSettings();
  const budget = Math.min(args.max_chars ?? DEFAULT_BUDGET, HARD_CAP);
  const filters = filterFingerprint([args.root ?? null, args.query ?? null, args.roles ?? null, args.interactive_only ?? false]);
  const cursor = args.cursor === undefined ? undefined : decodeCursor(args.cursor);
  if (args.cursor !== undefined && (!cursor || cursor.filters !== filters)) {
    throw new OrielError(errorData('invalid_argument', 'This cursor does not belong to a snapshot with these arguments. Call snapshot again with the same root, query, roles and interactive_only as the snapshot that returned the cursor, or without a cursor.', { next: 'snapshot' }));
  }

  // Which frame to start in: the top frame, or the frame whose document issued the root handle.
  const frames = await listFrames(tab);
  let startFrame = 0;
  if (args.root) {
    const ns = args.root.slice(0, args.root.indexOf('.'));
    const f = await frameOfDocument(tab, ns);
    if (f === undefined) {
      throw new OrielError(errorData('unknown_handle', `Handle ${args.root} was not issued by any document now shown in this tab (it is from a previous page, another tab, or made up). Take a new snapshot.`));
    }
    startFrame = f;
  }

  // Handshake: each child frame posts a token to its parent window so the parent can tell which iframe shows it.
  const tokenOf = new Map<number, string>();
  const frameOfToken = new Map<string, number>();
  const childTokens = new Map<number, string[]>();
  await Promise.all(
    frames
      .filter((f) => f.frameId !== 0)
      .map(async (f) => {
        const token = frameToken();
        try {
          const r = await sendToFrame(tab, f.frameId, 'snapshot.hello', { token });
          if ((r.value as { sent?: boolean })?.sent) {
            tokenOf.set(f.frameId, token);
            frameOfToken.set(token, f.frameId);
            const list = childTokens.get(f.parentFrameId) ?? [];
            list.push(token);
            childTokens.set(f.parentFrameId, list);
          }
        } catch {
          /* a frame without our content script: shown as an empty iframe */
        }
      }),
  );

  // Walk the start frame, then the frames its tree references, level by level.
  const trees = new Map<number, FrameTree>();
  const walk = async (frameId: number, root?: string): Promise<void> => {
    const reply = await sendToFrame(tab, frameId, 'snapshot.walk', { flags: walkFlags(settings, root), expect: childTokens.get(frameId) ?? [] });
    trees.set(frameId, reply.value as FrameTree);
  };
  await walk(startFrame, args.root);
  let pending = [startFrame];
  /** iframe placeholders seen: without any, the top tree is used as it is (stitching copies every node). */
  let placeholders = 0;
  while (pending.length) {
    const next: number[] = [];
    for (const id of pending) {
      for (const ref of frameRefs(trees.get(id)!.nodes)) {
        placeholders++;
        const child = typeof ref === 'number' ? ref : frameOfToken.get(ref);
        if (child !== undefined && !trees.has(child) && child !== id) next.push(child);
      }
    }
    const unique = [...new Set(next)];
    await Promise.all(
      unique.map((id) =>
        walk(id).catch((err: unknown) => {
          // Redaction failures fail the whole snapshot; an unreachable frame just stays empty.
          if (err instanceof OrielError && err.data.code === 'invalid_argument') throw err;
        }),
      ),
    );
    pending = unique.filter((id) => trees.has(id));
  }

  // Stitch: replace each iframe's reference by the child frame's nodes.
  const top = trees.get(startFrame)!;
  let visited = 0;
  let dropped = 0;
  for (const t of trees.values()) {
    visited += t.visited;
    dropped += t.dropped;
  }
  const seen = new Set<number>([startFrame]);
  const stitch = (nodes: SnapNode[]): SnapNode[] =>
    nodes.map((n) => {
      if (n.frame !== undefined) {
        const id = typeof n.frame === 'number' ? n.frame : frameOfToken.get(n.frame);
        const { frame: _f, ...rest } = n;
        const child = id !== undefined && !seen.has(id) ? trees.get(id) : undefined;
        if (!child) return { ...rest, states: [...(rest.states ?? []), 'not-loaded'] };
        seen.add(id!);
        return { ...rest, children: stitch(child.nodes) };
      }
      return n.children ? { ...n, children: stitch(n.children) } : n;
    });
  let nodes = placeholders ? stitch(top.nodes) : top.nodes;
  // Link URLs resolve against the page's own URL (`#top`), which a GET form may have filled with secret values.
  const urlParams = await secretParams(tab);
  if (urlParams.length) scrubLinks(nodes, urlParams);
  markInert(nodes);
  const filterSpec: Parameters<typeof filterTree>[1] = {};
  if (args.query) filterSpec.query = args.query;
  if (args.roles) filterSpec.roles = args.roles;
  if (args.interactive_only) filterSpec.interactiveOnly = true;
  nodes = filterTree(nodes, filterSpec);

  const lines = toLines(nodes);
  const start = cursor ? resumeIndex(lines, cursor) : 0;
  const main = trees.get(0) ?? top;
  const url = urlParams.length ? scrubUrl(main.url, urlParams) : main.url;
  const meta = { title: main.title, url, document: main.document, visited, dropped };
  const page = paginate(lines, start, budget, meta, filters);
  const result: SnapshotResult = {
    document: main.document,
    url,
    title: main.title,
    text: page.text,
    coverage: { visited, shown: page.shown, omitted: lines.length - page.shown + dropped, truncated: page.cursor !== undefined || dropped > 0 },
  };
  if (page.cursor) result.cursor = encodeCursor(page.cursor);
  return result;
}

/** Removes the values of secret query parameters from every link URL in the tree. */
function scrubLinks(nodes: SnapNode[], names: readonly string[]): void {
  for (const n of nodes) {
    if (n.url !== undefined) n.url = scrubUrl(n.url, names);
    if (n.children) scrubLinks(n.children, names);
  }
}

function frameRefs(nodes: SnapNode[], out: Array<number | string> = []): Array<number | string> {
  for (const n of nodes) {
    if (n.frame !== undefined) out.push(n.frame);
    if (n.children) frameRefs(n.children, out);
  }
  return out;
}
