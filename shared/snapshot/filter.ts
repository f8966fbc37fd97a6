// Tree passes after stitching: filters (query, roles, interactive_only) and marking what an open modal makes inert.
import type { SnapNode } from './node.js';

export interface FilterSpec {
  query?: string;
  roles?: string[];
  interactiveOnly?: boolean;
}

/** Keeps nodes that match every given filter, with their ancestors (as context) — and nothing else. */
export function filterTree(nodes: SnapNode[], spec: FilterSpec): SnapNode[] {
  const query = spec.query?.trim().toLowerCase();
  const roles = spec.roles?.length ? new Set(spec.roles.map((r) => r.toLowerCase())) : undefined;
  if (!query && !roles && !spec.interactiveOnly) return nodes;
  const matches = (n: SnapNode): boolean =>
    (!roles || roles.has(n.role)) &&
    (!spec.interactiveOnly || n.act === 1) &&
    (!query || [n.name, n.value, n.url].some((t) => t !== undefined && t.toLowerCase().includes(query)));
  const visit = (list: SnapNode[]): SnapNode[] => {
    const out: SnapNode[] = [];
    for (const n of list) {
      const kids = n.children ? visit(n.children) : [];
      if (matches(n)) out.push({ ...n, children: kids.length ? kids : (query && !roles && !spec.interactiveOnly ? n.children : undefined) });
      else if (kids.length) out.push({ ...n, children: kids });
    }
    return out;
  };
  return visit(nodes);
}

/**
 * While a modal is open (`<dialog>` shown with showModal(), or `aria-modal="true"`), everything outside it cannot be
 * reached by a person: such interactive nodes get the `inert` state (https://html.spec.whatwg.org/multipage/interaction.html#modal-dialogs-and-inert-subtrees).
 */
export function markInert(nodes: SnapNode[]): void {
  const hasModal = (list: SnapNode[]): boolean => list.some((n) => n.states?.includes('modal') || (n.children && hasModal(n.children)));
  if (!hasModal(nodes)) return;
  const visit = (list: SnapNode[]) => {
    for (const n of list) {
      if (n.states?.includes('modal')) continue;
      if (n.act && !n.states?.includes('inert')) n.states = [...(n.states ?? []), 'inert'];
      if (n.children) visit(n.children);
    }
  };
  visit(nodes);
}

/** Counts nodes of a tree (every line-producing node, including text). */
export function countNodes(nodes: SnapNode[]): number {
  let c = 0;
  for (const n of nodes) c += 1 + (n.children ? countNodes(n.children) : 0);
  return c;
}
