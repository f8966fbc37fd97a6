// The content script's one redaction rule (docs/redaction.md): which elements hold secrets (password, one-time-code
// and card fields), which subtrees the user's selectors remove, the agent's selectors matched without seeing either,
// and the redacted text, markup and URLs of an element. Actions and the snapshot walker (./snapshot/) read the page
// through this module; the selector grammar gate is shared/selectors.ts.
import { orielError } from '../../shared/errors.js';
import type { RedactionPolicy } from '../../shared/ops.js';
import { vetSelector } from '../../shared/selectors.js';
import { scrubUrl } from '../../shared/url-redaction.js';
import { shadowRootOf } from './snapshot/dom.js';
import { HTML_NS, SECRET_CANDIDATES, judgeSecret } from './secret-rule.js';

/**
 * Fields once judged secret, kept secret for the element's life: a page that turns a password field into a text
 * field ("show password"), or drops its `autocomplete`, does not publish what it holds (docs/redaction.md,
 * "Secret for life"). The WeakSet answers membership; the WeakRefs let {@link secretFieldsIn} list them.
 */
const remembered = new WeakSet<Element>();
let rememberedRefs: Array<WeakRef<Element>> = [];
/** How many elements were ever remembered: a cache of what is secret is current while this and the DOM stand still. */
let rememberedCount = 0;

/** The count of elements remembered as secret so far (it only grows). */
export function rememberedVersion(): number {
  return rememberedCount;
}

/**
 * Keeps `el` secret for its life from now on: a field judged secret, or seen to stop being secret or to take a secret
 * field's place (./secret-watch.ts, or the early watcher before this script ran, ./early.iife.ts).
 */
export function rememberSecret(el: Element): void {
  if (remembered.has(el)) return;
  remembered.add(el);
  rememberedCount++;
  // Bounded by live elements: dead references are dropped whenever the list's length reaches a power of two.
  const n = rememberedRefs.length;
  if (n >= 64 && (n & (n - 1)) === 0) rememberedRefs = rememberedRefs.filter((r) => r.deref() !== undefined);
  rememberedRefs.push(new WeakRef(el));
}

/**
 * Whether `el` is a secret field: its value must never leave the page. Password inputs, any element whose
 * `autocomplete` names a secret token (form controls, but also a contenteditable region that declares one), inputs
 * whose `name` or `id` names a card number or security code, and every element this content script has ever judged
 * secret (or seen stop being secret or take a secret field's place, ./secret-watch.ts): once secret, secret for the
 * element's life.
 */
export function isSecretField(el: Element): boolean {
  if (remembered.has(el)) return true;
  if (!judgeSecret(el, (name) => el.getAttribute(name))) return false;
  rememberSecret(el);
  return true;
}

/**
 * The secret fields under `scope` (not inside its shadow trees, as `querySelectorAll`), in no particular order: the
 * ones the rule finds now and the remembered ones.
 */
export function secretFieldsIn(scope: ParentNode): Element[] {
  const out = Array.from(scope.querySelectorAll(SECRET_CANDIDATES)).filter(isSecretField);
  for (const ref of rememberedRefs) {
    const el = ref.deref();
    if (el && el !== scope && (scope as Node).contains(el) && !out.includes(el)) out.push(el);
  }
  return out;
}

/** The shadow-including parent: the parent element, or the host when `n` is at the top of a shadow tree. */
function composedParent(n: Element): Element | null {
  if (n.parentElement) return n.parentElement;
  const root = n.parentNode;
  return root && root.nodeType === Node.DOCUMENT_FRAGMENT_NODE && (root as ShadowRoot).host ? (root as ShadowRoot).host : null;
}

/** The redaction policy of one call: the secret-field rule plus the user's selectors, checked to be valid CSS. */
export class Redactor {
  /** Whether this frame itself sits inside a redacted iframe of a same-origin parent (computed on first use). */
  private frameHidden: boolean | undefined;

  /** Secret fields whose values are hidden from Oriel's own reads while {@link shield} is up, with what was hidden. */
  private readonly shielded: Array<{ el: Element; keys: string[] }> = [];

  private constructor(
    /** The user's selectors, each matched on its own (joined with commas, an unterminated one would swallow the next). */
    readonly selectors: readonly string[],
    readonly valueLimit: number,
    /** Query parameters whose values are scrubbed from URLs: names of secret fields this tab's GET forms submitted. */
    readonly urlParams: ReadonlySet<string> = new Set(),
  ) {}

  /** The policy from its parts (the snapshot walker has them as walk flags); invalid user selectors throw. */
  static fromPolicy(policy: RedactionPolicy): Redactor {
    const selectors = policy.selectors.filter((s) => s.trim() !== '');
    for (const s of selectors) {
      try {
        document.createDocumentFragment().querySelector(s);
      } catch {
        throw orielError(
          'invalid_argument',
          `The redaction selector ${JSON.stringify(s.slice(0, 200))} in Oriel's options is not valid CSS, so Oriel does not read or act in this page. Ask the user to fix it in the Oriel options page.`,
          { next: 'ask the user to fix the redaction selector in the Oriel options' },
        );
      }
    }
    return new Redactor(selectors, policy.value_limit, new Set(policy.url_params ?? []));
  }

  /** Whether `el` itself matches one of the user's selectors. */
  matchesUser(el: Element): boolean {
    for (const s of this.selectors) if (el.matches(s)) return true;
    return false;
  }

  /**
   * Whether `el` is removed by the user's selectors: it or a shadow-including ancestor matches one, or this whole
   * frame is shown by an iframe that is removed in its (same-origin) parent. Such elements do not exist for agents.
   */
  isRemoved(el: Element): boolean {
    if (this.selectors.length === 0) return false;
    for (let n: Element | null = el; n; n = composedParent(n)) if (this.matchesUser(n)) return true;
    return this.frameRemoved();
  }

  /** Whether reading `el` is refused: it is removed, a secret field, or inside one (text of a secret contenteditable). */
  isRedacted(el: Element): boolean {
    for (let n: Element | null = el; n; n = composedParent(n)) if (isSecretField(n)) return true;
    return this.isRemoved(el);
  }

  /** Whether `el` is inside a secret field (an option of a secret select, the content of a secret contenteditable). */
  insideSecret(el: Element): boolean {
    for (let n = composedParent(el); n; n = composedParent(n)) if (isSecretField(n)) return true;
    return false;
  }

  /**
   * Whether `el` does not exist for agents: removed by the user's selectors, or inside a secret field. A secret field
   * itself exists (it can be typed into); only what it holds is hidden.
   */
  isHidden(el: Element): boolean {
    return this.isRemoved(el) || this.insideSecret(el);
  }

  /**
   * Every element an agent's `selector` matches under `scope`, as if redacted content were absent
   * (docs/redaction.md, "Selectors"): the grammar is checked by {@link vetSelector}; constructs whose answer could
   * depend on a redacted neighbour are refused when the page has one (a fact the snapshot shows anyway); hidden
   * elements never match; selection-state pseudo-classes never match a secret field. Shadow roots are not searched.
   * @throws OrielError `invalid_argument` for refused or invalid selectors.
   */
  select(selector: string, scope: ParentNode = document): Element[] {
    const vetted = vetSelector(selector);
    if (vetted.siblings || vetted.ofType) this.checkNeighbours(vetted.siblings, vetted.ofType);
    let found: NodeListOf<Element>;
    try {
      found = scope.querySelectorAll(vetted.css);
    } catch {
      throw orielError('invalid_argument', `"${selector.length > 200 ? selector.slice(0, 199) + '…' : selector}" is not a valid CSS selector in this browser. Prefer a handle from a snapshot.`);
    }
    const out: Element[] = [];
    for (const el of Array.from(found)) {
      if (this.isHidden(el)) continue;
      if (vetted.state && isSecretField(el)) continue;
      out.push(el);
    }
    return out;
  }

  /**
   * Refuses sibling combinators when a removed subtree or a secret field has a later sibling (the combinator would
   * test it), and `*-of-type` when a removed subtree has any sibling (its tag would be counted).
   */
  private checkNeighbours(siblings: boolean, ofType: boolean): void {
    const risky = (el: Element) => (siblings && el.nextElementSibling !== null) || (ofType && (el.nextElementSibling !== null || el.previousElementSibling !== null));
    let found = false;
    for (const s of this.selectors) {
      for (const el of Array.from(document.querySelectorAll(s))) if (risky(el)) found = true;
    }
    if (siblings && !found) {
      for (const el of secretFieldsIn(document)) if (el.nextElementSibling) found = true;
    }
    if (!found) return;
    throw orielError(
      'invalid_argument',
      `This page has redacted parts next to other elements, and a selector with ${siblings ? '"+" or "~"' : 'a *-of-type pseudo-class'} would test them. Take a snapshot and use a handle, or a selector without it.`,
      { next: 'snapshot, then use the handle' },
    );
  }

  /** `s` with the values of secret query parameters removed (shared/url-redaction.ts); other text is left as it is. */
  scrubUrl(s: string): string {
    return this.urlParams.size === 0 ? s : scrubUrl(s, this.urlParams);
  }

  /**
   * Hides the values of the secret fields under `root` (a document or shadow root) from Oriel's own reads until
   * {@link unshield}: while up, such a field answers `value` "", `selectedOptions` [] and (a secret contenteditable)
   * `textContent` "". Accessible names embed a control's value (https://www.w3.org/TR/accname-1.2/#comp_embedded_control);
   * with the shield up they embed nothing, whatever the field holds. The properties live on the content script's own
   * view of each element (Chromium's isolated world, Firefox's Xray wrapper), so the page never sees them.
   */
  shield(root: Document | ShadowRoot): void {
    for (const el of secretFieldsIn(root)) {
      if (this.shielded.some((s) => s.el === el)) continue;
      const keys: string[] = [];
      const hide = (key: string, value: unknown) => {
        if (Object.hasOwn(el, key)) return;
        Object.defineProperty(el, key, { value, configurable: true });
        keys.push(key);
      };
      if (el.localName === 'input' || el.localName === 'textarea') hide('value', '');
      else if (el.localName === 'select') {
        hide('value', '');
        hide('selectedOptions', []);
      } else hide('textContent', '');
      this.shielded.push({ el, keys });
    }
  }

  /** Takes down every {@link shield}. */
  unshield(): void {
    for (const { el, keys } of this.shielded.splice(0)) for (const k of keys) delete (el as unknown as Record<string, unknown>)[k];
  }

  private frameRemoved(): boolean {
    if (this.frameHidden !== undefined) return this.frameHidden;
    let hidden = false;
    try {
      // Same-origin parents expose the iframe element; a cross-origin parent answers null.
      for (let w: Window | null = window; w && w !== w.parent && !hidden; w = w.parent) {
        const frame = w.frameElement;
        if (!frame) break;
        for (let n: Element | null = frame; n && !hidden; n = composedParent(n)) hidden = this.matchesUser(n);
      }
    } catch {
      // A parent that refuses access is cross-origin: nothing more is known here.
    }
    return (this.frameHidden = hidden);
  }

  /**
   * Whether anything under `el` (its shadow trees included) is removed or secret, so its text or markup is assembled
   * piece by piece (light DOM only) instead of read whole.
   */
  hasRedactedInside(el: Element): boolean {
    // Shadow trees count too: rendered text (innerText) includes what they show.
    const scopes: Array<Element | ShadowRoot> = [el];
    for (let i = 0; i < scopes.length; i++) {
      const scope = scopes[i]!;
      for (const s of this.selectors) if (scope.querySelector(s)) return true;
      if (secretFieldsIn(scope).length > 0) return true;
      const hosts = Array.from(scope.querySelectorAll('*'));
      if (scope instanceof Element) hosts.push(scope);
      for (const h of hosts) {
        const root = shadowRootOf(h);
        if (root) scopes.push(root);
      }
    }
    return false;
  }

  /**
   * The text of `el` with removed subtrees and secret fields left out. `rendered` follows
   * `innerText` (CSS decides what shows and where lines break); otherwise `textContent`.
   */
  text(el: Element, rendered: boolean): string {
    let t: string;
    if (!this.hasRedactedInside(el)) t = rendered && isHtml(el) ? (el as HTMLElement).innerText : (el.textContent ?? '');
    else t = rendered ? this.renderedText(el) : this.rawText(el);
    return t;
  }

  private rawText(node: Node): string {
    let out = '';
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE || child.nodeType === Node.CDATA_SECTION_NODE) out += (child as CharacterData).data;
      else if (child.nodeType === Node.ELEMENT_NODE && !this.skip(child as Element)) out += this.rawText(child);
    }
    return out;
  }

  /**
   * `innerText` of `el` without the redacted parts: children with nothing redacted inside keep their exact
   * `innerText`; the rest is assembled child by child, with block boxes on lines of their own.
   */
  private renderedText(el: Element): string {
    let out = '';
    for (const child of Array.from(el.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) {
        out += (child as Text).data.replace(/\s+/g, ' ');
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const c = child as Element;
      if (this.skip(c)) continue;
      if (c.localName === 'br') {
        out += '\n';
        continue;
      }
      const display = getComputedStyle(c).display;
      if (display === 'none') continue;
      const inner = this.hasRedactedInside(c) ? this.renderedText(c) : isHtml(c) ? (c as HTMLElement).innerText : (c.textContent ?? '');
      out += display === 'contents' || display.startsWith('inline') ? inner : `\n${inner}\n`;
    }
    return out.replace(/[ \t]*\n[ \t]*/g, '\n').replace(/\n{3,}/g, '\n\n');
  }

  /** Children left out of text and markup: removed subtrees, and the contents of secret fields. */
  private skip(el: Element): boolean {
    return this.matchesUser(el) || isSecretField(el);
  }

  /**
   * `innerHTML` / `outerHTML` of `el` with each removed subtree replaced by a `<!--redacted-->` comment and every
   * secret field emptied (no `value` attribute, no children). Serialised from a copy in an inert document, so no page
   * script (custom element constructors) runs and no image loads.
   */
  markup(el: Element, outer: boolean): string {
    const inert = document.implementation.createHTMLDocument('');
    const copy = inert.importNode(el, true);
    this.redactCopy(el, copy, inert);
    return outer ? copy.outerHTML : copy.innerHTML;
  }

  /** Walks the original and its copy in step (selectors must be matched where the element really is). */
  private redactCopy(orig: Node, copy: Node, inert: Document): void {
    const o = Array.from(orig.childNodes);
    const c = Array.from(copy.childNodes);
    for (let i = 0; i < o.length && i < c.length; i++) {
      if (o[i]!.nodeType !== Node.ELEMENT_NODE) continue;
      const oe = o[i] as Element;
      const ce = c[i] as Element;
      if (this.matchesUser(oe)) ce.replaceWith(inert.createComment('redacted'));
      else if (isSecretField(oe)) {
        ce.removeAttribute('value');
        ce.replaceChildren();
      } else {
        this.redactCopy(oe, ce, inert);
        if (oe.localName === 'template') this.redactCopy((oe as HTMLTemplateElement).content, (ce as HTMLTemplateElement).content, inert);
      }
    }
  }
}

function isHtml(el: Element): boolean {
  return el.namespaceURI === HTML_NS && 'innerText' in el;
}
