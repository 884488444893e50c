import { withWidgetHtml, type ContentWidget } from '@catalogue/content';

const finite = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * `existing` followed by `added`, with the added widgets renumbered so that nothing in the tree
 * shares an id: widget ids continue after the largest widget id, keys after the largest key, and
 * element ids after the largest element id of the whole existing tree (parent references are
 * mapped along). The existing widgets are returned untouched; each added widget's `html` is
 * rendered again in `htmlLanguage`, because it carries the widget id. Pure.
 */
export function appendWidgets(
  existing: readonly ContentWidget[],
  added: readonly ContentWidget[],
  htmlLanguage: string,
): ContentWidget[] {
  let widgetId = 0;
  let key = -1;
  let elementId = 0;
  for (const widget of existing) {
    widgetId = Math.max(widgetId, finite(widget.id));
    key = Math.max(key, finite(widget.key));
    for (const element of Array.isArray(widget.children) ? widget.children : []) {
      elementId = Math.max(elementId, finite(element.id));
    }
  }
  const renumbered = added.map((widget): ContentWidget => {
    const ids = new Map<number, number>();
    for (const element of widget.children) ids.set(element.id, ++elementId);
    return {
      ...widget,
      id: ++widgetId,
      key: ++key,
      children: widget.children.map((element) => ({
        ...element,
        id: ids.get(element.id) ?? ++elementId,
        parent_id: element.parent_id === 0 ? 0 : (ids.get(element.parent_id) ?? element.parent_id),
      })),
    };
  });
  return [...existing, ...withWidgetHtml(renumbered, htmlLanguage)];
}
