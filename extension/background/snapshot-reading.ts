// One reading of a tab's outline, frame by frame: asks the content script of each frame for its next lines
// (extension/content/snapshot/session.ts), writes each iframe's line and puts the child frame's lines under it, and
// filters the stream. A reading is kept between pages, so a cursor continues it where it stopped.
import { OrielError } from '../../shared/errors.js';
import { LineFilter, lineOf, type FilterSpec, type Line, type SnapNode, type WalkFlags } from '../../shared/snapshot/index.js';
import type { OpArgs, OpResult, ReadyState } from '../../shared/ops.js';
import type { LinesReply } from '../../shared/snapshot/reading.js';
import { introduceFrames, listFrames, sendToFrame } from './frames.js';

/** Most characters asked of a frame at once (a whole outline for `since` comes in several answers). */
const MAX_WANT = 4_000_000;

/** The content reading a cursor continues is gone, or its place in the page is: the outline must be read afresh. */
export class LostPlace extends Error {}

/** One frame being read: where its lines go and how to ask for more. */
interface Level {
  frameId: number;
  /** The content script's reading, once started. */
  reading?: string;
  /** The document read in this frame (a different one later means the frame navigated). */
  document?: string;
  /** Added to the depth of this frame's lines. */
  depth: number;
  flags: WalkFlags;
  /** The iframe's line, written before the frame's first line once it is known whether the frame can be reached. */
  head?: { node: SnapNode; depth: number };
}

export class Reading {
  /** Lines read (and filtered) and not yet shown. */
  readonly ready: Line[] = [];
  readyChars = 0;
  /** Lines shown so far: the index of the next line of the outline. */
  shown = 0;
  readAll = false;
  /** The page changed while it was read; a modal was found after lines outside it were given. */
  changed = false;
  lateModal = false;
  /** A frame met custom elements whose ElementInternals could not be read (the page script came late or not at all). */
  internalsUnknown = false;
  /** Milliseconds the frames' content scripts spent on this reading (their own count). */
  contentMs = 0;
  /** The lines met an iframe (whose frame is read, or shown as not loaded). */
  metFrames = false;
  /** The top frame's document, URL and title (the page header). */
  top: { document: string; url: string; title: string; ready_state: ReadyState } = { document: '', url: '', title: '', ready_state: 'complete' };
  private readonly stack: Level[] = [];
  private readonly filter: LineFilter | undefined;
  private readonly visitedBy = new Map<number, number>();
  private readonly droppedBy = new Map<number, number>();
  private readonly seenFrames = new Set<number>();
  private frameOfToken = new Map<string, number>();
  private childTokens = new Map<number, string[]>();
  private started = false;

  constructor(
    readonly tab: number,
    /** The frame the outline starts in: the top frame, or the frame of the root element's document. */
    readonly startFrame: number,
    private readonly flags: WalkFlags,
    filter: FilterSpec | undefined,
  ) {
    this.filter = filter ? new LineFilter(filter) : undefined;
    this.seenFrames.add(startFrame);
    this.stack.push({ frameId: startFrame, depth: 0, flags });
  }

  get visited(): number {
    let v = 0;
    for (const n of this.visitedBy.values()) v += n;
    return v;
  }

  get dropped(): number {
    let v = 0;
    for (const n of this.droppedBy.values()) v += n;
    return v;
  }

  /**
   * Before the first lines: each child frame posts a token to its parent window, so the parent can tell which iframe
   * shows it (Chromium; Firefox answers with runtime.getFrameId), and the top frame's document is learnt.
   */
  async begin(): Promise<void> {
    if (this.started) return;
    this.started = true;
    // A frame without our content script is shown as an iframe that is not loaded.
    ({ frameOfToken: this.frameOfToken, childTokens: this.childTokens } = await introduceFrames(this.tab, await listFrames(this.tab)));
    if (this.startFrame !== 0) {
      const doc = (await sendToFrame(this.tab, 0, 'document', {})).value;
      this.top = { document: doc.document, url: doc.url, title: doc.title, ready_state: doc.ready_state };
    }
  }

  /**
   * Reads on until `room` characters of lines are ready, the outline ends, or `deadline` (ms since the epoch) is near.
   * @throws LostPlace when a frame's reading is gone; OrielError when the top frame cannot be read.
   */
  async fill(room: number, deadline: number, margin = 1_500): Promise<void> {
    await this.begin();
    while (!this.readAll && this.readyChars < room) {
      if (Date.now() > deadline - margin && this.ready.length > 0) return;
      await this.pull(this.wantFor(room), deadline);
    }
  }

  /**
   * What {@link fill}`(room)` would ask the start frame first, so the ask can travel with another message to that frame
   * (shared/call.ts `then_read`; its answer goes to {@link seed}). Only before the reading began.
   */
  firstAsk(room: number): OpArgs<'snapshot.lines'> {
    return { flags: { ...this.flags }, want: this.wantFor(room), expect: [] };
  }

  /**
   * Takes `reply` (the start frame's answer to {@link firstAsk}) as this reading's first answer, in place of asking.
   * False, and nothing taken, when the reading already began or starts in a child frame (whose reading also asks the
   * top frame for its document), the reading was lost, or the lines reached an iframe: the
   * frames must be introduced before such a reading (./frames.ts `introduceFrames`), so it is read afresh by
   * {@link fill}.
   */
  seed(reply: OpResult<'snapshot.lines'>): boolean {
    if (this.started || this.startFrame !== 0 || 'lost' in reply || reply.stop) return false;
    this.started = true;
    this.absorb(this.stack[0]!, reply);
    return true;
  }

  /** Characters of lines to ask a frame for when `room` are wanted (a filter drops most lines: ask for more). */
  private wantFor(room: number): number {
    return Math.min(Math.max(room - this.readyChars, 2_000) * (this.filter ? 8 : 1), MAX_WANT);
  }

  /** Takes the first `n` ready lines (they are shown). */
  take(n: number): Line[] {
    const out = this.ready.splice(0, n);
    for (const l of out) this.readyChars -= l.d + l.t.length + 1;
    this.shown += out.length;
    return out;
  }

  /** Drops ready lines up to index `to` of the outline (a cursor read afresh resumes there). */
  skipTo(to: number): void {
    this.take(Math.max(0, Math.min(this.ready.length, to - this.shown)));
  }

  private put(line: Line): void {
    const before = this.ready.length;
    if (this.filter) this.filter.push(line, this.ready);
    else this.ready.push(line);
    for (let i = before; i < this.ready.length; i++) this.readyChars += this.ready[i]!.d + this.ready[i]!.t.length + 1;
  }

  /** The line of an iframe, at its depth, with `not-loaded` when its frame cannot be read. */
  private frameLine(head: { node: SnapNode; depth: number }, loaded: boolean): Line {
    const node: SnapNode = loaded ? head.node : { ...head.node, states: [...(head.node.states ?? []), 'not-loaded'] };
    return lineOf(node, head.depth, { role: this.flags.lineRoles === true, search: this.flags.lineSearch === true }, []).line;
  }

  private async pull(want: number, deadline: number): Promise<void> {
    const level = this.stack[this.stack.length - 1];
    if (!level) {
      this.readAll = true;
      return;
    }
    const args: OpArgs<'snapshot.lines'> = level.reading
      ? { reading: level.reading, want }
      : { flags: { ...level.flags }, want, expect: this.childTokens.get(level.frameId) ?? [] };
    let reply: OpResult<'snapshot.lines'>;
    try {
      reply = (await sendToFrame(this.tab, level.frameId, 'snapshot.lines', args, { budget: { deadline, slack_ms: 0 } })).value;
    } catch (err) {
      // A redaction setting that cannot be applied fails the snapshot; a child frame that cannot be read is shown so.
      if (err instanceof OrielError && err.data.code === 'invalid_argument') throw err;
      if (this.stack.length === 1) throw err;
      if (level.head) this.put(this.frameLine(level.head, false));
      else this.changed = true;
      this.stack.pop();
      return;
    }
    if ('lost' in reply) throw new LostPlace();
    this.absorb(level, reply);
  }

  /** Puts a frame's answer in place: its lines, and the iframe it stopped at (read next) or its end. */
  private absorb(level: Level, reply: LinesReply): void {
    if (level.document !== undefined && reply.document !== level.document) throw new LostPlace();
    level.document = reply.document;
    level.reading = reply.reading;
    if (level.frameId === 0 && this.startFrame === 0) this.top = { document: reply.document, url: reply.url, title: reply.title, ready_state: reply.ready_state };
    if (level.head) {
      this.put(this.frameLine(level.head, true));
      level.head = undefined;
    }
    this.visitedBy.set(level.frameId, reply.visited);
    this.droppedBy.set(level.frameId, reply.dropped);
    if (reply.changed) this.changed = true;
    if (typeof reply.ms === 'number') this.contentMs += reply.ms;
    if (reply.lateModal) this.lateModal = true;
    if (reply.internalsUnknown) this.internalsUnknown = true;
    for (const l of reply.lines) this.put(level.depth ? { ...l, d: l.d + level.depth } : l);
    if (reply.done) this.stack.pop();
    if (reply.stop) {
      this.metFrames = true;
      const s = reply.stop;
      const child = typeof s.ref === 'number' ? s.ref : this.frameOfToken.get(s.ref);
      const head = { node: s.node, depth: s.depth + level.depth };
      if (child === undefined || this.seenFrames.has(child)) this.put(this.frameLine(head, false));
      else {
        this.seenFrames.add(child);
        const flags: WalkFlags = { ...this.flags, inert: s.inert || level.flags.inert === true, inherit: s.inherit };
        delete flags.root;
        this.stack.push({ frameId: child, depth: head.depth + 1, flags, head });
      }
    }
  }
}
