/**
 * Pure operations on an entity's widget tree: the white-label editor's content endpoints and the
 * generation worker (which appends generated widgets) use them. Nothing here reads the database
 * or throws HTTP errors: callers check the request first and these functions only rearrange.
 * Trees are never mutated; every function answers a new tree.
 *
 * Ids: content widget ids and element ids are unique within an entity (libs/content numbers
 * elements across the whole tree) and never change once given. New widgets and elements get
 * ids above the largest in the tree, so they cannot collide with anything the editor holds.
 */
import type { ContentElement, ContentWidget } from '../model';
import { withWidgetHtml } from '../render/html';

type Tree = readonly ContentWidget[];

const isNumber = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** Stored trees come from JSON: skip anything that is not an object. */
function elementsOf(widget: ContentWidget): ContentElement[] {
  return Array.isArray(widget.children)
    ? widget.children.filter((e) => typeof e === 'object' && e !== null)
    : [];
}

export function maxWidgetId(tree: Tree): number {
  return tree.reduce((max, w) => (isNumber(w.id) && w.id > max ? w.id : max), 0);
}

export function maxElementId(tree: Tree): number {
  let max = 0;
  for (const widget of tree) for (const e of elementsOf(widget)) if (isNumber(e.id) && e.id > max) max = e.id;
  return max;
}

/** The largest widget key in the tree, -1 for an empty one (keys start at 0). */
export function maxKey(tree: Tree): number {
  return tree.reduce((max, w) => (isNumber(w.key) && w.key > max ? w.key : max), -1);
}

/** Hands out ids above the largest one in use: 1 + max, 2 + max, … */
export function idsAfter(max: number): () => number {
  let next = max;
  return () => ++next;
}

/** `key` is the widget's 0-based position; rewritten after every change of order. */
export function withKeys(tree: Tree): ContentWidget[] {
  return tree.map((widget, key) => (widget.key === key ? widget : { ...widget, key }));
}

export function findWidget(tree: Tree, id: number): ContentWidget | undefined {
  return tree.find((w) => w.id === id);
}

/** Inserts a widget before the one at `position` (0-based; `tree.length` or more appends). */
export function insertWidget(tree: Tree, widget: ContentWidget, position: number): ContentWidget[] {
  const at = Math.max(0, Math.min(position, tree.length));
  return withKeys([...tree.slice(0, at), widget, ...tree.slice(at)]);
}

/** True when `order` names every widget of the tree exactly once. */
export function isPermutation(tree: Tree, order: readonly number[]): boolean {
  if (order.length !== tree.length) return false;
  const ids = new Set(tree.map((w) => w.id));
  const seen = new Set<number>();
  for (const id of order) {
    if (!ids.has(id) || seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}

/** The tree in the order of `order` (which must be a permutation, see {@link isPermutation}). */
export function reorderWidgets(tree: Tree, order: readonly number[]): ContentWidget[] {
  const byId = new Map(tree.map((w) => [w.id, w]));
  return withKeys(order.map((id) => byId.get(id)).filter((w): w is ContentWidget => w !== undefined));
}

/** The tree without the widget, or undefined when the tree has no widget with that id. */
export function removeWidget(tree: Tree, id: number): ContentWidget[] | undefined {
  if (!tree.some((w) => w.id === id)) return undefined;
  return withKeys(tree.filter((w) => w.id !== id));
}

const byOrder = (a: ContentElement, b: ContentElement): number =>
  (isNumber(a.child_id) ? a.child_id : 0) - (isNumber(b.child_id) ? b.child_id : 0) || a.id - b.id;

/** The elements directly under `parentId` (0 = top level) in display order. */
export function childrenOf(widget: ContentWidget, parentId: number): ContentElement[] {
  return elementsOf(widget)
    .filter((e) => e.parent_id === parentId)
    .sort(byOrder);
}

/** Ids of the element and everything below it (cycles in stored trees cannot loop). */
export function subtreeIds(widget: ContentWidget, rootId: number): Set<number> {
  const ids = new Set<number>([rootId]);
  const elements = elementsOf(widget);
  for (let grew = true; grew;) {
    grew = false;
    for (const e of elements) {
      if (!ids.has(e.id) && ids.has(e.parent_id)) {
        ids.add(e.id);
        grew = true;
      }
    }
  }
  return ids;
}

/**
 * Copies of `elements` with fresh ids; a parent inside the set is remapped to its copy, a parent
 * outside it is kept (so a copied subtree stays under the same parent, a copied widget at 0).
 */
export function relabel(elements: readonly ContentElement[], nextId: () => number): ContentElement[] {
  const fresh = new Map(elements.map((e) => [e.id, nextId()]));
  return elements.map((e) => ({
    ...e,
    id: fresh.get(e.id) ?? nextId(),
    parent_id: fresh.get(e.parent_id) ?? e.parent_id,
  }));
}

/** Siblings numbered 0…n in the given order (only `child_id` changes). */
function renumber(siblings: readonly ContentElement[]): Map<number, number> {
  return new Map(siblings.map((e, index) => [e.id, index]));
}

function applyOrder(elements: readonly ContentElement[], order: Map<number, number>): ContentElement[] {
  return elements.map((e) => {
    const childId = order.get(e.id);
    return childId === undefined || childId === e.child_id ? e : { ...e, child_id: childId };
  });
}

/**
 * The widget with the element at `index` under `parentId` duplicated (with its descendants,
 * fresh ids) right after it, or undefined when there is no such element.
 */
export function copyElement(
  widget: ContentWidget,
  parentId: number,
  index: number,
  nextId: () => number,
): ContentWidget | undefined {
  const siblings = childrenOf(widget, parentId);
  const original = siblings[index];
  if (original === undefined) return undefined;
  const ids = subtreeIds(widget, original.id);
  const elements = elementsOf(widget);
  const copies = relabel(
    elements.filter((e) => ids.has(e.id)),
    nextId,
  );
  const copyRoot = copies.find((e) => e.parent_id === parentId);
  const order = renumber([
    ...siblings.slice(0, index + 1),
    ...(copyRoot ? [copyRoot] : []),
    ...siblings.slice(index + 1),
  ]);
  return { ...widget, children: applyOrder([...elements, ...copies], order), is_original: false };
}

/** The widget without the element at `index` under `parentId` and its descendants, or undefined. */
export function removeElement(
  widget: ContentWidget,
  parentId: number,
  index: number,
): ContentWidget | undefined {
  const siblings = childrenOf(widget, parentId);
  const target = siblings[index];
  if (target === undefined) return undefined;
  const ids = subtreeIds(widget, target.id);
  const order = renumber(siblings.filter((e) => e.id !== target.id));
  const kept = elementsOf(widget).filter((e) => !ids.has(e.id));
  return { ...widget, children: applyOrder(kept, order), is_original: false };
}

/**
 * Copies of the source widgets for another entity's tree: fresh widget ids after `maxWidget`,
 * fresh element ids from `nextElementId`, everything else as it was.
 */
export function copyWidgets(source: Tree, maxWidget: number, nextElementId: () => number): ContentWidget[] {
  const nextWidgetId = idsAfter(maxWidget);
  return source.map((widget) => ({
    ...widget,
    id: nextWidgetId(),
    children: relabel(elementsOf(widget), nextElementId),
  }));
}

/**
 * Problems of an element list sent as a new widget's children: every parent must be in the list
 * (or 0) and every element reachable from the top level (no cycles). Keyed by element index.
 */
export function elementGraphProblems(
  elements: readonly Pick<ContentElement, 'id' | 'parent_id'>[],
): Map<number, string> {
  const problems = new Map<number, string>();
  const ids = new Set(elements.map((e) => e.id));
  const reachable = new Set<number>([0]);
  for (let grew = true; grew;) {
    grew = false;
    for (const e of elements) {
      if (!reachable.has(e.id) && reachable.has(e.parent_id)) {
        reachable.add(e.id);
        grew = true;
      }
    }
  }
  elements.forEach((e, index) => {
    if (e.parent_id !== 0 && !ids.has(e.parent_id))
      problems.set(index, 'parent_id must be 0 or the id of another element');
    else if (!reachable.has(e.id)) problems.set(index, 'parent_id must not form a cycle');
  });
  return problems;
}

/**
 * `existing` followed by `added`, renumbered so that nothing in the tree shares an id: widget ids
 * continue after the largest widget id, keys after the largest key, element ids after the largest
 * element id of the whole existing tree (parent references mapped along). The existing widgets
 * are returned untouched; each added widget's `html` is rendered again in `htmlLanguage`,
 * because it carries the widget id.
 */
export function appendWidgets(existing: Tree, added: Tree, htmlLanguage: string): ContentWidget[] {
  const nextWidgetId = idsAfter(maxWidgetId(existing));
  const nextKey = idsAfter(maxKey(existing));
  const nextElementId = idsAfter(maxElementId(existing));
  const renumbered = added.map((widget): ContentWidget => ({
    ...widget,
    id: nextWidgetId(),
    key: nextKey(),
    children: relabel(widget.children, nextElementId),
  }));
  return [...existing, ...withWidgetHtml(renumbered, htmlLanguage)];
}
