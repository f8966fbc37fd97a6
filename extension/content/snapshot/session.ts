// Snapshot readings of this document: a walk that writes outline lines page by page and waits, between pages, where
// it stopped (extension/content/snapshot/walk.ts, emit.ts). The background asks for lines by the character; a cursor
// continues the same reading without walking the page again, as long as the place it stopped at is still there.
// Counterpart: extension/background/snapshot.ts.
import { internalsMissed } from '../internals.js';
import { type Line, type LineFields, type WalkFlags } from '../../../shared/snapshot/index.js';
import type { HandleRegistry } from '../registry.js';
import { isSecretField, rememberedVersion, secretFieldsIn } from '../redaction.js';
import { SECRET_ATTRIBUTES } from '../secret-rule.js';
import { computeRole } from './cache.js';
import { mutationCount } from './changes.js';
import { Emitter } from './emit.js';
import type { FrameStop, LinesReply } from '../../../shared/snapshot/reading.js';
import { frameRefOf } from './frames.js';
import { Walker, type WalkEnv } from './walk.js';

/** Readings kept per document (older ones are dropped; their cursors fall back to reading afresh). */
const MAX_READINGS = 3;
/** The least the walk goes on for between two looks at what is ready, in estimated characters (more walk than needed is wasted on a page that stops at the budget). */
const WALK_STEP_CHARS = 500;
/** Time kept free before the call's deadline, ms: the lines so far are returned, the rest continues by cursor. */
const DEADLINE_MARGIN_MS = 1500;

class Reading {
  readonly id = 'r' + Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => (b % 36).toString(36)).join('');
  private walker!: Walker;
  private emitter!: Emitter;
  private given = 0;
  private restarted = false;
  lateModal = false;
  /** The document's mutation count when the reading began (./changes.ts). */
  private readonly mutationsAtStart = mutationCount();

  constructor(
    private readonly flags: WalkFlags,
    private readonly registry: HandleRegistry,
    private readonly root: Element,
  ) {
    this.begin(prepass());
  }

  /** Whether the DOM changed since the reading began. */
  get changed(): boolean {
    return mutationCount() !== this.mutationsAtStart;
  }

  private begin(found: Prepass): void {
    const env: WalkEnv = { modal: found.modal, secretFields: () => prepass().secretFields };
    this.walker = new Walker(this.flags, this.registry, frameRefOf, env);
    this.walker.start(this.root);
    const fields: LineFields = { role: this.flags.lineRoles === true, search: this.flags.lineSearch === true };
    this.emitter = new Emitter(this.walker, fields);
  }

  /** Whether the walk can continue where it stopped (the page may have changed around it). */
  get intact(): boolean {
    return this.walker.intact();
  }

  /** Lines until `want` characters, an iframe, or the end; the walk goes on only as far as they need. */
  read(want: number, deadline: number | undefined): LinesReply {
    const t0 = performance.now();
    let lines: Line[] = [];
    let chars = 0;
    let stop: FrameStop | undefined;
    let done = false;
    for (;;) {
      const r = this.emitter.drain(want - chars);
      for (const l of r.lines) lines.push(l);
      chars += r.chars;
      if (r.stop) stop = r.stop;
      if (r.stop || r.done || chars >= want) {
        done = r.done;
        break;
      }
      if (deadline !== undefined && Date.now() > deadline - DEADLINE_MARGIN_MS && lines.length > 0) break;
      this.walker.walk(this.walker.chars + Math.max(want - chars, WALK_STEP_CHARS));
      if (this.walker.unexpectedModal && !this.restarted) {
        // A modal the document query did not find (inside a shadow root): read again knowing it, if nothing was given.
        this.restarted = true;
        if (this.given === 0) {
          this.begin({ ...prepass(), modal: true });
          lines = [];
          chars = 0;
        } else this.lateModal = true;
      }
    }
    this.given += lines.length;
    const reply: LinesReply = {
      reading: this.id,
      document: this.registry.namespace,
      url: location.href,
      title: document.title,
      ready_state: document.readyState,
      lines,
      done,
      visited: this.walker.visited,
      dropped: this.walker.dropped,
      changed: this.changed,
      lateModal: this.lateModal,
      ...(internalsMissed() && { internalsUnknown: true }),
      ms: Math.round((performance.now() - t0) * 10) / 10,
    };
    if (stop) reply.stop = stop;
    return reply;
  }

}

/** Readings of the document each registry names (a new document, a new registry: old readings are gone with it). */
const readings = new WeakMap<HandleRegistry, Map<string, Reading>>();

/** Starts a reading of `root` (the document element, or the element of a root handle). */
export function startReading(flags: WalkFlags, registry: HandleRegistry, root: Element): Reading {
  let map = readings.get(registry);
  if (!map) readings.set(registry, (map = new Map()));
  while (map.size >= MAX_READINGS) map.delete(map.keys().next().value!);
  const r = new Reading(flags, registry, root);
  map.set(r.id, r);
  return r;
}

/** The reading `id` of this document, when it is still kept and its place in the page is still there. */
export function continueReading(registry: HandleRegistry, id: string): Reading | undefined {
  const r = readings.get(registry)?.get(id);
  return r && r.intact ? r : undefined;
}

/** What one look over the document finds before a reading starts. */
interface Prepass {
  /** An open modal dialog shows: controls outside it are inert. */
  modal: boolean;
  /** The document has secret fields (then their values are collected, to be scrubbed from what is written). */
  secretFields: boolean;
}

/**
 * One query over the document, repeated only after the DOM changed (not its shadow trees; the walk notes what it meets
 * there): secret fields (password inputs, and `autocomplete` tokens ../redaction.ts calls secret), and open modal
 * dialogs — a
 * `<dialog>` opened with showModal() (`:modal`), or an element with role dialog or alertdialog and
 * `aria-modal="true"` (https://w3c.github.io/aria/#aria-modal). Everything outside a modal is inert
 * (https://html.spec.whatwg.org/multipage/interaction.html#modal-dialogs-and-inert-subtrees).
 */
function prepass(): Prepass {
  const now = prepassChanges();
  if (!candidates || candidates.mutations !== now) {
    let found: Element[] | undefined;
    try {
      found = Array.from(document.querySelectorAll('input[type="password" i], [autocomplete], dialog, [aria-modal="true"]'));
    } catch {
      found = undefined;
    }
    candidates = { mutations: now, found };
  }
  if (!candidates.found) return { modal: false, secretFields: true };
  const out: Prepass = { modal: false, secretFields: false };
  for (const el of candidates.found) {
    if (!out.secretFields && isSecretField(el)) out.secretFields = true;
    if (!out.modal && el.isConnected && isModal(el)) out.modal = true;
  }
  // Fields remembered as secret (../redaction.ts) may no longer match the query.
  if (!out.secretFields) {
    const version = rememberedVersion();
    if (!remembered || remembered.mutations !== now || remembered.version !== version) {
      remembered = { mutations: now, version, any: secretFieldsIn(document).length > 0 };
    }
    out.secretFields = remembered.any;
  }
  return out;
}

/**
 * Whether the document holds a secret field, remembered ones included, as last found: a query over the whole document,
 * repeated only after an element came or went, an attribute the rule reads changed, or another field was remembered as
 * secret (attributes are all that make a field secret, and a remembered one stays secret).
 */
let remembered: { mutations: number; version: number; any: boolean } | undefined;

/**
 * The elements the last look found, kept while no element comes or goes and none of the attributes the query and the
 * secret-field rule read changes ({@link prepassChanges}): whether a dialog is modal now, and whether a field is secret,
 * are judged from them afresh each time.
 */
let candidates: { mutations: number; found: Element[] | undefined } | undefined;

/** The attributes the prepass query and the secret-field rule (../secret-rule.ts) read. */
const PREPASS_ATTRIBUTES = [...new Set([...SECRET_ATTRIBUTES, 'aria-modal'])];
let prepassObserver: MutationObserver | undefined;
let prepassCount = 0;

/** Whether a record can change what the prepass finds: an element added or removed, or an attribute it reads. */
function prepassRelevant(r: MutationRecord): boolean {
  if (r.type === 'attributes') return true;
  for (const list of [r.addedNodes, r.removedNodes]) for (const n of Array.from(list)) if (n.nodeType === Node.ELEMENT_NODE) return true;
  return false;
}

/**
 * A count that moves whenever what the prepass finds in the document may differ: elements added or removed, or a
 * change of an attribute the query or the secret-field rule reads (text, classes and other attributes leave it alone).
 * Observed in the content script's world; not inside shadow trees, where the document query does not look either.
 */
function prepassChanges(): number {
  if (!prepassObserver) {
    prepassObserver = new MutationObserver((records) => {
      if (records.some(prepassRelevant)) prepassCount++;
    });
    prepassObserver.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: PREPASS_ATTRIBUTES });
    return ++prepassCount;
  }
  if (prepassObserver.takeRecords().some(prepassRelevant)) prepassCount++;
  return prepassCount;
}

function isModal(el: Element): boolean {
  const dialog = el.localName === 'dialog';
  if (dialog ? !matchesModal(el) && el.getAttribute('aria-modal') !== 'true' : el.getAttribute('aria-modal') !== 'true') return false;
  if (!dialog) {
    const role = computeRole(el);
    if (role !== 'dialog' && role !== 'alertdialog') return false;
  }
  const check = (el as Element & { checkVisibility?: () => boolean }).checkVisibility;
  return check ? check.call(el) : true;
}

function matchesModal(el: Element): boolean {
  try {
    return el.matches(':modal');
  } catch {
    return false;
  }
}
