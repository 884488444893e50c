import {
  type ContentWidget,
  childrenOf,
  copyElement,
  copyWidgets,
  elementGraphProblems,
  idsAfter,
  insertWidget,
  isPermutation,
  maxElementId,
  removeElement,
  removeWidget,
  reorderWidgets,
} from '@catalogue/content';
import { tree } from './content-trees';

function allIds(t: ContentWidget[]): number[] {
  return t.flatMap((w) => w.children.map((e) => e.id));
}

describe('tree operations (pure)', () => {
  test('when a widget is inserted at a position, then it lands there and keys are renumbered', () => {
    const added = { ...tree()[1]!, id: 9 };
    expect(insertWidget(tree(), added, 0).map((w) => [w.id, w.key])).toEqual([
      [9, 0],
      [1, 1],
      [2, 2],
    ]);
    expect(insertWidget(tree(), added, 2).map((w) => w.id)).toEqual([1, 2, 9]);
  });

  test('when ord is a permutation, then the widgets follow it; otherwise it is refused', () => {
    expect(isPermutation(tree(), [2, 1])).toBe(true);
    expect(isPermutation(tree(), [2])).toBe(false);
    expect(isPermutation(tree(), [2, 2])).toBe(false);
    expect(isPermutation(tree(), [2, 3])).toBe(false);
    expect(reorderWidgets(tree(), [2, 1]).map((w) => [w.id, w.key])).toEqual([
      [2, 0],
      [1, 1],
    ]);
  });

  test('when a widget is removed, then the rest keep their ids; an unknown id gives undefined', () => {
    expect(removeWidget(tree(), 1)?.map((w) => [w.id, w.key])).toEqual([[2, 0]]);
    expect(removeWidget(tree(), 7)).toBeUndefined();
  });

  test('when an element with descendants is copied, then the copy follows it with fresh ids and the same shape', () => {
    const t = tree();
    const copied = copyElement(t[0]!, 1, 1, idsAfter(maxElementId(t)))!;
    expect(childrenOf(copied, 1).map((e) => [e.id, e.child_id])).toEqual([
      [2, 0],
      [3, 1],
      [7, 2],
    ]);
    expect(childrenOf(copied, 7).map((e) => [e.id, e.value])).toEqual([[8, { default: 'inner' }]]);
    expect(copied.is_original).toBe(false);
    const ids = allIds([copied, t[1]!]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('when an element is copied before a later sibling, then the sibling moves after the copy', () => {
    const t = tree();
    const copied = copyElement(t[0]!, 1, 0, idsAfter(maxElementId(t)))!;
    expect(childrenOf(copied, 1).map((e) => e.id)).toEqual([2, 7, 3]);
  });

  test('when an element is removed, then its descendants go with it and siblings are renumbered', () => {
    const removed = removeElement(tree()[0]!, 1, 1)!;
    expect(removed.children.map((e) => e.id)).toEqual([1, 2]);
    const first = removeElement(tree()[0]!, 1, 0)!;
    expect(childrenOf(first, 1).map((e) => [e.id, e.child_id])).toEqual([[3, 0]]);
    expect(removeElement(tree()[0]!, 1, 5)).toBeUndefined();
  });

  test('when widgets are copied into another tree, then widget and element ids continue after its largest', () => {
    const target = [tree()[1]!];
    const copies = copyWidgets(tree(), 2, idsAfter(maxElementId(target)));
    expect(copies.map((w) => w.id)).toEqual([3, 4]);
    expect(allIds(copies)).toEqual([7, 8, 9, 10, 11, 12]);
    expect(copies[0]!.children.find((e) => e.id === 10)!.parent_id).toBe(9);
    expect(copies[0]!.children.find((e) => e.id === 7)!.parent_id).toBe(0);
  });

  test('when new elements point at a missing parent or form a cycle, then each is reported', () => {
    expect([
      ...elementGraphProblems([
        { id: 1, parent_id: 0 },
        { id: 2, parent_id: 1 },
      ]),
    ]).toEqual([]);
    expect([...elementGraphProblems([{ id: 1, parent_id: 9 }])].map(([i]) => i)).toEqual([0]);
    const cycle = elementGraphProblems([
      { id: 1, parent_id: 2 },
      { id: 2, parent_id: 1 },
      { id: 3, parent_id: 3 },
    ]);
    expect([...cycle.keys()]).toEqual([0, 1, 2]);
  });
});
