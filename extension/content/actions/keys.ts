// Key names and chords ("Enter", "Shift+Tab", "Control+K", "a") → the values of KeyboardEvent key, code, keyCode
// and modifiers a US keyboard gives (https://w3c.github.io/uievents-key/, https://w3c.github.io/uievents-code/).
// Used by press.ts and keyboard.ts.
import { orielError } from '../../../shared/errors.js';

/** One key of a chord, as KeyboardEvent fields. */
export interface KeySpec {
  /** KeyboardEvent.key, e.g. "Enter", "a", "A", " ". */
  key: string;
  /** KeyboardEvent.code, e.g. "Enter", "KeyA", "Space" ('' when unknown). */
  code: string;
  /** Legacy keyCode/which. */
  keyCode: number;
  /** The character the key types (for keypress and text insertion), when it types one. */
  text?: string;
}

/** A parsed chord: modifiers held, then one key. */
export interface Chord {
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  key: KeySpec;
  /** The chord as Oriel understood it, e.g. "Control+k". */
  label: string;
}

const MODIFIERS: Record<string, 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey'> = {
  control: 'ctrlKey',
  ctrl: 'ctrlKey',
  shift: 'shiftKey',
  alt: 'altKey',
  option: 'altKey',
  meta: 'metaKey',
  cmd: 'metaKey',
  command: 'metaKey',
  super: 'metaKey',
};

/** Modifier keys as KeySpecs, in the order they are pressed. */
export const MODIFIER_KEYS: ReadonlyArray<[keyof Pick<Chord, 'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey'>, KeySpec]> = [
  ['ctrlKey', { key: 'Control', code: 'ControlLeft', keyCode: 17 }],
  ['altKey', { key: 'Alt', code: 'AltLeft', keyCode: 18 }],
  ['shiftKey', { key: 'Shift', code: 'ShiftLeft', keyCode: 16 }],
  ['metaKey', { key: 'Meta', code: 'MetaLeft', keyCode: 91 }],
];

/** Named keys: canonical name → [code, keyCode]. */
const NAMED: Record<string, [string, number]> = {
  Enter: ['Enter', 13],
  Tab: ['Tab', 9],
  Escape: ['Escape', 27],
  Backspace: ['Backspace', 8],
  Delete: ['Delete', 46],
  Insert: ['Insert', 45],
  ArrowUp: ['ArrowUp', 38],
  ArrowDown: ['ArrowDown', 40],
  ArrowLeft: ['ArrowLeft', 37],
  ArrowRight: ['ArrowRight', 39],
  Home: ['Home', 36],
  End: ['End', 35],
  PageUp: ['PageUp', 33],
  PageDown: ['PageDown', 34],
  ContextMenu: ['ContextMenu', 93],
  CapsLock: ['CapsLock', 20],
};
for (let i = 1; i <= 12; i++) NAMED[`F${i}`] = [`F${i}`, 111 + i];

/** Other spellings agents use → canonical names. */
const ALIASES: Record<string, string> = {
  esc: 'Escape',
  return: 'Enter',
  del: 'Delete',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  pgup: 'PageUp',
  pgdn: 'PageDown',
  pagedown: 'PageDown',
  pageup: 'PageUp',
  space: ' ',
  spacebar: ' ',
  plus: '+',
};

/** US-layout punctuation: character → [code, keyCode, shifted?]. */
const PUNCTUATION: Record<string, [string, number, boolean]> = {
  ' ': ['Space', 32, false], '-': ['Minus', 189, false], '_': ['Minus', 189, true], '=': ['Equal', 187, false], '+': ['Equal', 187, true],
  '[': ['BracketLeft', 219, false], '{': ['BracketLeft', 219, true], ']': ['BracketRight', 221, false], '}': ['BracketRight', 221, true],
  '\\': ['Backslash', 220, false], '|': ['Backslash', 220, true], ';': ['Semicolon', 186, false], ':': ['Semicolon', 186, true],
  "'": ['Quote', 222, false], '"': ['Quote', 222, true], ',': ['Comma', 188, false], '<': ['Comma', 188, true],
  '.': ['Period', 190, false], '>': ['Period', 190, true], '/': ['Slash', 191, false], '?': ['Slash', 191, true],
  '`': ['Backquote', 192, false], '~': ['Backquote', 192, true], '!': ['Digit1', 49, true], '@': ['Digit2', 50, true],
  '#': ['Digit3', 51, true], $: ['Digit4', 52, true], '%': ['Digit5', 53, true], '^': ['Digit6', 54, true], '&': ['Digit7', 55, true],
  '*': ['Digit8', 56, true], '(': ['Digit9', 57, true], ')': ['Digit0', 48, true],
};

/** The KeySpec of one character as typed (a letter's case is its own; shift is implied by the character). */
export function charKey(ch: string): KeySpec {
  if (ch === '\n' || ch === '\r') return { key: 'Enter', code: 'Enter', keyCode: 13 };
  if (ch === '\t') return { key: 'Tab', code: 'Tab', keyCode: 9 };
  if (/^[a-z]$/i.test(ch)) return { key: ch, code: `Key${ch.toUpperCase()}`, keyCode: ch.toUpperCase().charCodeAt(0), text: ch };
  if (/^[0-9]$/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch };
  const p = PUNCTUATION[ch];
  if (p) return { key: ch, code: p[0], keyCode: p[1], text: ch };
  return { key: ch, code: '', keyCode: 0, text: ch };
}

/** A named key's spec, e.g. "PageUp". */
export function namedKey(name: string): KeySpec | undefined {
  const n = NAMED[name];
  return n ? { key: name, code: n[0], keyCode: n[1] } : undefined;
}

/**
 * Parses "Enter", "shift+tab", "Control+K", "Meta+a", "+" or "Control++".
 * @throws invalid_argument naming the part it does not know.
 */
export function parseChord(input: string): Chord {
  const parts = input === '+' ? ['+'] : input.endsWith('++') ? [...input.slice(0, -2).split('+'), '+'] : input.split('+');
  const chord: Omit<Chord, 'key' | 'label'> = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
  const last = parts.pop()!.trim();
  for (const raw of parts) {
    const m = MODIFIERS[raw.trim().toLowerCase()];
    if (!m) throw orielError('invalid_argument', `"${raw.slice(0, 30)}" is not a modifier (use Control, Shift, Alt or Meta, e.g. "Control+K").`);
    chord[m] = true;
  }
  let key: KeySpec | undefined;
  const alias = ALIASES[last.toLowerCase()];
  const name = alias ?? Object.keys(NAMED).find((k) => k.toLowerCase() === last.toLowerCase());
  if (name !== undefined && name.length > 1) key = namedKey(name);
  else if (name !== undefined) key = charKey(name);
  else if ([...last].length === 1) {
    // With Control, Alt or Meta a letter stays lower case unless Shift is held, as a keyboard reports it.
    const ch = /^[a-z]$/i.test(last) ? (chord.shiftKey ? last.toUpperCase() : chord.ctrlKey || chord.metaKey || chord.altKey ? last.toLowerCase() : last) : last;
    key = charKey(ch);
  }
  if (!key) throw orielError('invalid_argument', `Unknown key "${last.slice(0, 30)}". Use a key name (Enter, Tab, Escape, ArrowDown, PageUp, Home, Backspace, F2…) or one character.`);
  // A character key with Control, Alt or Meta types nothing.
  if (chord.ctrlKey || chord.altKey || chord.metaKey) delete key.text;
  const mods = MODIFIER_KEYS.filter(([m]) => chord[m]).map(([, k]) => k.key);
  return { ...chord, key, label: [...mods, key.key === ' ' ? 'Space' : key.key].join('+') };
}
