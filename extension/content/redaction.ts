// The content script's one redaction rule (SPEC §3): which elements hold secrets (password, one-time-code and card
// fields), which subtrees the user's selectors remove, and the redacted text and markup of an element. Actions read
// the page only through this module; the snapshot walker (./snapshot/) is to use the same rule.
import { orielError } from '../../shared/errors.js';
import type { RedactionPolicy } from '../../shared/ops.js';

/**
 * `autocomplete` tokens whose fields are secret (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#autofill-field):
 * current and new passwords, one-time codes, and every payment-card field (`cc-*`). Tokens are whitespace-separated
 * and may follow section/shipping/billing tokens, so each token is tested on its own.
 */
const SECRET_TOKEN = /^(current-password|new-password|one-time-code|cc-[a-z0-9-]*)$/;

/** The HTML namespace: a `<input>` in SVG or MathML is not a form control. */
const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * Whether `el` is a secret field: its value must never leave the page. Password inputs, and any element whose
 * `autocomplete` names a secret token (form controls, but also a contenteditable region that declares one).
 */
export function isSecretField(el: Element): boolean {
  if (el.localName === 'input' && el.namespaceURI === HTML_NS && (el as HTMLInputElement).type === 'password') return true;
  const auto = el.getAttribute('autocomplete');
  if (!auto) return false;
  return auto.toLowerCase().split(/\s+/).some((t) => SECRET_TOKEN.test(t));
}

/** The shadow-including parent: the parent element, or the host when `n` is at the top of a shadow tree. */
function composedParent(n: Element): Element | null {
  if (n.parentElement) return n.parentElement;
  const root = n.parentNode;
  return root && root.nodeType === Node.DOCUMENT_FRAGMENT_NODE && (root as ShadowRoot).host ? (root as ShadowRoot).host : null;
}

/** Decodes CSS escapes (`\61`, `\a `, `\u`) so that an escaped name reads as the name it means. */
function decodeCssEscapes(s: string): string {
  return s.replace(/\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\\([\s\S])/g, (_, hex: string | undefined, ch: string | undefined) => {
    if (hex === undefined) return ch ?? '';
    const cp = parseInt(hex, 16);
    // https://drafts.csswg.org/css-syntax-3/#consume-escaped-code-point
    return cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? '\ufffd' : String.fromCodePoint(cp);
  });
}

/**
 * An attribute selector on `value`, in any of its spellings: `[value`, `[ VALUE`, `[*|value`, `[ns|value`,
 * after escapes are decoded (`[v\61lue`) and comments removed (a comment may sit between `[` and the name).
 */
const VALUE_ATTRIBUTE = /\[\s*(?:(?:\*|[-\w]*)\s*\|\s*)?value(?![-\w])/i;

/**
 * Refuses selectors that test the `value` attribute. Frameworks mirror a field's value into that attribute, so a
 * selector such as `input[value^="a"]` would let an agent read a password one character at a time through whether
 * it matches. Acting on a field needs no such selector: the snapshot gives it a handle.
 */
export function checkSelector(selector: string): void {
  const plain = decodeCssEscapes(selector).replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '');
  if (VALUE_ATTRIBUTE.test(plain)) {
    throw orielError(
      'invalid_argument',
      'Selectors may not test the "value" attribute (it can hold what a person typed, passwords included). Take a snapshot and use the field\'s handle instead.',
      { next: 'snapshot, then use the handle' },
    );
  }
}

/** The redaction policy of one call: the secret-field rule plus the user's selectors, checked to be valid CSS. */
export class Redactor {
  /** Whether this frame itself sits inside a redacted iframe of a same-origin parent (computed on first use). */
  private frameHidden: boolean | undefined;

  private constructor(
    /** The user's selectors, each matched on its own (joined with commas, an unterminated one would swallow the next). */
    readonly selectors: readonly string[],
    readonly valueLimit: number,
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
    return new Redactor(selectors, policy.value_limit);
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

  /** Whether anything under `el` (light DOM) is removed or secret, so its text or markup needs redacting. */
  hasRedactedInside(el: Element): boolean {
    for (const s of this.selectors) if (el.querySelector(s)) return true;
    for (const f of Array.from(el.querySelectorAll('input, [autocomplete]'))) if (isSecretField(f)) return true;
    return false;
  }

  /**
   * The values of this document's secret fields (two characters or more), for {@link scrub}: a page may echo a
   * password or card number in ordinary text, as the snapshot also assumes.
   */
  secretValues(): string[] {
    const out = new Set<string>();
    for (const el of Array.from(document.querySelectorAll('input, textarea, select, [autocomplete]'))) {
      if (!isSecretField(el)) continue;
      const values =
        el.localName === 'select'
          ? Array.from((el as HTMLSelectElement).selectedOptions, (o) => o.label)
          : [(el as HTMLInputElement).value, el.getAttribute('value') ?? '', (el as HTMLTextAreaElement).defaultValue ?? ''];
      for (const v of values) if (typeof v === 'string' && v.trim().length >= 2) out.add(v.trim());
    }
    return [...out].sort((a, b) => b.length - a.length);
  }

  /** Replaces every occurrence of a secret value in `s` by a marker. */
  scrub(s: string, secrets: string[] = this.secretValues()): string {
    for (const sec of secrets) if (s.includes(sec)) s = s.split(sec).join('[redacted]');
    return s;
  }

  /**
   * The text of `el` with removed subtrees and secret fields left out, secret values scrubbed. `rendered` follows
   * `innerText` (CSS decides what shows and where lines break); otherwise `textContent`.
   */
  text(el: Element, rendered: boolean): string {
    let t: string;
    if (!this.hasRedactedInside(el)) t = rendered && isHtml(el) ? (el as HTMLElement).innerText : (el.textContent ?? '');
    else t = rendered ? this.renderedText(el) : this.rawText(el);
    return this.scrub(t);
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
    return this.scrub(outer ? copy.outerHTML : copy.innerHTML);
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
