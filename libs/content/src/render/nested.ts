import type { ContentWidget, NestedNode } from '../model';
import { elementForest, widgetsOf, type ElementNode } from './structure';

const toNode = (node: ElementNode): NestedNode => ({
  id: node.element.id,
  class: node.className,
  tag: node.tag,
  children: node.children.map(toNode),
});

/** The structure of each widget (language independent): one array of top-level nodes per widget. */
export function renderNested(tree: readonly ContentWidget[]): NestedNode[][] {
  return widgetsOf(tree).map((widget) => elementForest(widget).map(toNode));
}

/** {@link renderNested} from a forest already built. */
export function nestedFromForest(forest: ReadonlyArray<{ roots: ElementNode[] }>): NestedNode[][] {
  return forest.map((w) => w.roots.map(toNode));
}
