// Per-snapshot caches of computed style, role and accessible name. Created for one walk and dropped after it
// (the walker releases them in `finally`), so nothing stale survives into the next snapshot or action.
import { computeAccessibleName, getRole } from 'dom-accessibility-api';

export class WalkCache {
  private readonly styles = new Map<Element, CSSStyleDeclaration>();
  private readonly names = new Map<Element, string>();
  /** `getComputedStyle` through the cache; also handed to dom-accessibility-api so it shares the cache. */
  readonly style = (el: Element, pseudo?: string | null): CSSStyleDeclaration => {
    if (pseudo) return getComputedStyle(el, pseudo);
    let s = this.styles.get(el);
    if (s === undefined) this.styles.set(el, (s = getComputedStyle(el)));
    return s;
  };

  /** ARIA role per https://www.w3.org/TR/html-aam-1.0/ (dom-accessibility-api), with the gaps it leaves filled. */
  role(el: Element): string | null {
    return computeRole(el);
  }

  /** Accessible name per https://www.w3.org/TR/accname-1.2/ (dom-accessibility-api). */
  name(el: Element): string {
    let n = this.names.get(el);
    if (n === undefined) {
      n = computeAccessibleName(el, { getComputedStyle: this.style as typeof getComputedStyle, computedStyleSupportsPseudoElements: true });
      this.names.set(el, n);
    }
    return n;
  }

  clear(): void {
    this.styles.clear();
    this.names.clear();
  }
}

/** Input types dom-accessibility-api maps to no role, with the role browsers expose for them. */
const INPUT_ROLES: Record<string, string> = {
  password: 'textbox',
  date: 'textbox',
  'datetime-local': 'textbox',
  month: 'textbox',
  week: 'textbox',
  time: 'textbox',
  color: 'button',
  file: 'button',
};

const VALID_ROLE = /^[a-z]+$/;

export function computeRole(el: Element): string | null {
  const tag = el.localName;
  if (tag === 'input') {
    const type = (el as HTMLInputElement).type;
    if (type === 'hidden') return null;
    const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0];
    if (!explicit && INPUT_ROLES[type]) return INPUT_ROLES[type]!;
    if (!explicit && !['button', 'image', 'reset', 'submit', 'checkbox', 'radio', 'range', 'number', 'search'].includes(type)) {
      return el.hasAttribute('list') ? 'combobox' : 'textbox';
    }
  }
  // https://www.w3.org/TR/html-aam-1.0/#el-th — a th scoped to its row is a row header.
  if (tag === 'th' && !el.hasAttribute('role') && el.getAttribute('scope') === 'row') return 'rowheader';
  const role = getRole(el);
  if (role === null || !VALID_ROLE.test(role)) return null;
  return role;
}
