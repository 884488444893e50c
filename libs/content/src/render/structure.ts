/**
 * Rebuilds the hierarchy of a widget's flat element list and normalises what an element may be.
 * Only elements reachable from the top level (parent_id 0) are part of the widget: an element
 * whose parent is missing, or that sits in a parent cycle, is never rendered.
 */
import type { ContentElement, ContentWidget } from '../model';
import { cleanClass } from '../sanitize';

export interface ElementNode {
  element: ContentElement;
  tag: string;
  className: string;
  children: ElementNode[];
}

/** Tags an element may render as; anything else becomes a `div`. */
const ELEMENT_TAGS = new Set([
  'section',
  'div',
  'h2',
  'h3',
  'h4',
  'p',
  'span',
  'strong',
  'em',
  'ul',
  'ol',
  'li',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'figure',
  'figcaption',
  'blockquote',
  'cite',
  'details',
  'summary',
  'a',
  'img',
  'iframe',
  'hr',
  'br',
]);

/** Headings are kept inside the content's outline: the page owns its h1. */
const TAG_ALIASES: Record<string, string> = { h1: 'h2', h5: 'h4', h6: 'h4', b: 'strong', i: 'em' };

/** Elements that never render children (void elements, and iframes whose content is not shown). */
export const LEAF_TAGS = new Set(['img', 'hr', 'br', 'iframe']);
/** Elements whose value must stay phrasing content. */
export const PHRASING_TAGS = new Set(['h2', 'h3', 'h4', 'p', 'span', 'strong', 'em', 'cite', 'summary', 'a']);
export const CELL_TAGS = new Set(['th', 'td']);

export function normaliseTag(tag: unknown): string {
  const lower = typeof tag === 'string' ? tag.trim().toLowerCase() : '';
  const aliased = TAG_ALIASES[lower] ?? lower;
  return ELEMENT_TAGS.has(aliased) ? aliased : 'div';
}

/** Stored trees come from JSON: a missing or non-numeric order must not break the sort. */
const order = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? n : 0);
const byOrder = (a: ContentElement, b: ContentElement): number =>
  order(a.child_id) - order(b.child_id) || order(a.id) - order(b.id);

/** The widgets of a tree that are objects at all; anything else in a stored tree is ignored. */
export function widgetsOf(tree: readonly ContentWidget[]): ContentWidget[] {
  return Array.isArray(tree) ? tree.filter((w) => typeof w === 'object' && w !== null) : [];
}

export function elementForest(widget: ContentWidget): ElementNode[] {
  const elements = Array.isArray(widget.children) ? widget.children : [];
  const byParent = new Map<number, ContentElement[]>();
  for (const element of elements) {
    if (typeof element !== 'object' || element === null) continue;
    const siblings = byParent.get(element.parent_id) ?? [];
    siblings.push(element);
    byParent.set(element.parent_id, siblings);
  }
  const visited = new Set<ContentElement>();
  const build = (parentId: number): ElementNode[] =>
    [...(byParent.get(parentId) ?? [])].sort(byOrder).flatMap((element) => {
      // Duplicate ids could otherwise make one element its own descendant.
      if (visited.has(element)) return [];
      visited.add(element);
      const tag = normaliseTag(element.tag);
      const children = LEAF_TAGS.has(tag) || element.id === 0 ? [] : build(element.id);
      return [{ element, tag, className: cleanClass(element.class), children }];
    });
  return build(0);
}

/**
 * Tags whose opening closes the element it sits in, for the tags a tree renders (htmlparser2
 * 12's `openImpliesClose`, which sanitize-html 2.17.7 parses with): a `div` inside a `p` ends the
 * `p`, an `li` inside an `li` ends the first, a heading inside a heading ends the outer one, an
 * `a` inside an `a` ends the first. Where a tree nests like that, the output pass re-nests the
 * HTML it is given. Check this table again when sanitize-html moves to another htmlparser2.
 */
const HEADINGS = ['h2', 'h3', 'h4'];
const IMPLIED_CLOSE: Readonly<Record<string, readonly string[]>> = {
  tr: ['tr', 'th', 'td'],
  th: ['th'],
  td: ['thead', 'th', 'td'],
  li: ['li'],
  a: ['a'],
  tbody: ['thead', 'tbody'],
  tfoot: ['thead', 'tbody'],
  ...Object.fromEntries(HEADINGS.map((tag) => [tag, [...HEADINGS, 'p']])),
  ...Object.fromEntries(
    [
      'p',
      'blockquote',
      'details',
      'div',
      'figcaption',
      'figure',
      'hr',
      'ol',
      'pre',
      'section',
      'table',
      'ul',
    ].map((tag) => [tag, ['p']]),
  ),
};
/** Elements that some opening tag closes. */
const CLOSABLE = new Set(Object.values(IMPLIED_CLOSE).flat());

const hasMarkup = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Object.values(value).some((text) => typeof text === 'string' && text.includes('<'));

/**
 * True when no element of the widget can be closed early by what is rendered inside it: no
 * child whose tag closes it, and no value with markup inside a closable element (a `p`'s value
 * is phrasing-only, which closes nothing). Such a widget's HTML parses back into the same tree,
 * which is what lets the renderer skip the output pass for it.
 */
export function nestsPlainly(roots: readonly ElementNode[]): boolean {
  const plain = (node: ElementNode): boolean => {
    if (CLOSABLE.has(node.tag)) {
      if (node.tag !== 'p' && hasMarkup(node.element.value)) return false;
      if (node.children.some((child) => IMPLIED_CLOSE[child.tag]?.includes(node.tag))) return false;
    }
    return node.children.every(plain);
  };
  return roots.every(plain);
}
