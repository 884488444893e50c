import {
  SEED_WIDGETS,
  type ContentElement,
  type ContentWidget,
  type LangMap,
  type WidgetTemplate,
} from '@catalogue/content';

/** The seeded widget catalogue with ids 1…n, as a seed inserting SEED_WIDGETS in order would store it. */
export const TEMPLATES: WidgetTemplate[] = SEED_WIDGETS.map((w, index) => ({ ...w, id: index + 1 }));

export function el(
  id: number,
  parent_id: number,
  tag: string,
  value: LangMap | string = {},
  more: Partial<ContentElement> = {},
): ContentElement {
  return {
    id,
    parent_id,
    child_id: id,
    class: '',
    is_editable: true,
    tag,
    value: typeof value === 'string' ? { default: value } : value,
    extension: [],
    ...more,
  };
}

export function widget(
  id: number,
  children: ContentElement[],
  more: Partial<ContentWidget> = {},
): ContentWidget {
  return { id, key: id - 1, widget_id: 1, children, html: '', is_original: true, ...more };
}

/** A section widget as fill builds it: wrapper, heading, text. */
export function section(
  id: number,
  firstElementId: number,
  heading: LangMap | string,
  text: LangMap | string,
) {
  const root = firstElementId;
  return widget(id, [
    el(root, 0, 'section', {}, { class: 'ccs-widget ccs-widget--section', is_editable: false }),
    el(root + 1, root, 'h2', heading, { class: 'ccs-section__heading' }),
    el(root + 2, root, 'div', text, { class: 'ccs-section__text' }),
  ]);
}
