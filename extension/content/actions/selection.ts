// The text selection a person's double or triple click makes, which synthetic mouse events do not make
// (https://w3c.github.io/uievents/#event-type-dblclick, "default action": select text). Used by ./pointer.ts.
import { deepActiveElement } from '../snapshot/dom.js';

type CaretDocument = Document & {
  caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null;
  caretRangeFromPoint?: (x: number, y: number) => Range | null;
};

/** The text node and offset under a viewport point (https://drafts.csswg.org/cssom-view/#dom-document-caretpositionfrompoint). */
function caretAt(x: number, y: number): { node: Text; offset: number } | undefined {
  const doc = document as CaretDocument;
  try {
    const p = doc.caretPositionFromPoint?.(x, y);
    const node = p ? p.offsetNode : doc.caretRangeFromPoint?.(x, y)?.startContainer;
    const offset = p ? p.offset : (doc.caretRangeFromPoint?.(x, y)?.startOffset ?? 0);
    return node instanceof Text ? { node, offset } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `el` is a text field whose value a click selects in (input types that hold text, and textarea). */
function textField(el: Element): HTMLInputElement | HTMLTextAreaElement | undefined {
  if (el instanceof HTMLTextAreaElement) return el;
  if (el instanceof HTMLInputElement && ['text', 'search', 'url', 'tel', 'email', 'number'].includes(el.type)) return el;
  return undefined;
}

/** The bounds of the word around `offset` in `text` (Unicode word segmentation, UAX #29). */
function wordAround(text: string, offset: number): [number, number] | undefined {
  for (const seg of new Intl.Segmenter(undefined, { granularity: 'word' }).segment(text)) {
    const end = seg.index + seg.segment.length;
    if (offset >= seg.index && offset < end && seg.isWordLike) return [seg.index, end];
    if (offset === end && seg.isWordLike) return [seg.index, end];
  }
  return undefined;
}

/**
 * Selects as a person's `count`-th click at (x, y) on `hit` does: a double click the word under the point, a triple
 * click the whole paragraph (the nearest block) — or, in a text field, all of its value (a field's own caret cannot be
 * read at a point in every browser, so a double click there selects the whole value too).
 */
export function selectByClicks(hit: Element, x: number, y: number, count: number): void {
  if (count < 2) return;
  const field = textField(hit) ?? (deepActiveElement() && textField(deepActiveElement()!));
  if (field && (field === hit || field.contains(hit))) {
    field.select();
    return;
  }
  const caret = caretAt(x, y);
  if (!caret || !hit.contains(caret.node)) return;
  const selection = getSelection();
  if (!selection) return;
  if (count === 2) {
    const word = wordAround(caret.node.data, caret.offset);
    if (word) selection.setBaseAndExtent(caret.node, word[0], caret.node, word[1]);
    return;
  }
  let block: Element | null = caret.node.parentElement;
  while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
  if (block) selection.selectAllChildren(block);
}
