// Which element a pointer at a viewport point reaches, across shadow trees and slots: shared by the actions' hit test
// (./actions/actionability.ts) and the snapshot's `covered` state (./snapshot/geometry.ts).

/** The shadow-including parent: parent element, or the host when `n` is at the top of a shadow tree. */
export function composedParent(n: Element): Element | null {
  if (n.parentElement) return n.parentElement;
  const root = n.parentNode;
  return root instanceof ShadowRoot ? root.host : null;
}

/** Whether `inner` is `outer` or inside it, across shadow boundaries (https://dom.spec.whatwg.org/#concept-shadow-including-descendant). */
export function containsComposed(outer: Element, inner: Element): boolean {
  for (let n: Element | null = inner; n; n = composedParent(n)) if (n === outer) return true;
  return false;
}

/**
 * The parent in the flat tree, as rendering and event paths see it: a slotted node's slot, a shadow root's host,
 * else the DOM parent (https://dom.spec.whatwg.org/#get-the-parent).
 */
function flatParent(n: Node): Node | null {
  const slot = (n as Element | Text).assignedSlot;
  if (slot) return slot;
  const p = n.parentNode;
  return p instanceof ShadowRoot ? p.host : p;
}

/** Whether `node` renders inside `outer`: it is `outer`, a shadow-including descendant, or content slotted into it. */
export function flatContains(outer: Element, node: Node): boolean {
  for (let n: Node | null = node; n; n = flatParent(n)) if (n === outer) return true;
  return false;
}

/** The parent element in the flat tree (a slotted node's slot, a shadow root's host), or null at the top. */
export function flatParentElement(n: Node): Element | null {
  for (let p = flatParent(n); p; p = flatParent(p)) if (p instanceof Element) return p;
  return null;
}

/** The element a pointer event at `node` goes to: the node itself, or a text node's flat-tree parent element. */
function eventTarget(node: Node): Element | null {
  for (let n: Node | null = node; n; n = flatParent(n)) if (n instanceof Element) return n;
  return null;
}

type CaretDocument = Document & {
  caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node } | null;
  caretRangeFromPoint?: (x: number, y: number) => Range | null;
};

/** The text or element node under a point (https://drafts.csswg.org/cssom-view/#dom-document-caretpositionfrompoint). */
function nodeAtPoint(x: number, y: number): Node | null {
  const doc = document as CaretDocument;
  try {
    if (doc.caretPositionFromPoint) return doc.caretPositionFromPoint(x, y)?.offsetNode ?? null;
    return doc.caretRangeFromPoint?.(x, y)?.startContainer ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether a pointer at (x, y), where the hit test answered `hit`, reaches `target`, and if so the element its events
 * go to. The target is reached when the point lands on the target, its shadow-including descendants, or content
 * slotted into it. `elementFromPoint` answers in DOM-tree terms, so text a host slots into the target comes back as
 * the host itself: when `hit` is an ancestor of the target, the node under the point decides.
 */
export function pointReaches(target: Element, hit: Element, x: number, y: number): Element | null {
  const at = refine(hit, x, y);
  return flatContains(target, at) ? at : null;
}

/**
 * The element a person's pointer event at (x, y) would go to, given the hit test's answer: when the node under the
 * point is text slotted deeper than `hit` (into a slot inside `hit`'s shadow tree, or `hit`'s own text slotted into
 * a descendant's), its slot's side of the flat tree, as browsers target events on text.
 */
function refine(hit: Element, x: number, y: number): Element {
  const node = nodeAtPoint(x, y);
  if (!node || node === hit || node.nodeType !== Node.TEXT_NODE || !flatContains(hit, node)) return hit;
  return eventTarget(node) ?? hit;
}
