// Small trees and templates for the unit tests of the pure content helpers.
import {
  SEED_WIDGETS,
  type ContentElement,
  type ContentWidget,
  type WidgetTemplate,
} from '@catalogue/content';
import { ValidationError } from '@catalogue/http';

export const TEMPLATES: WidgetTemplate[] = SEED_WIDGETS.map((w, i) => ({ ...w, id: i + 1 }));
export const SECTION = TEMPLATES.find((t) => t.type === 'section')!;

export const el = (
  id: number,
  parent_id: number,
  child_id: number,
  more: Partial<ContentElement> = {},
): ContentElement => ({
  id,
  parent_id,
  child_id,
  class: '',
  is_editable: true,
  tag: 'div',
  value: {},
  extension: [],
  ...more,
});

/** Widget 1: wrapper 1 > [2, 3 > [4]]; widget 2: wrapper 5 > [6]. */
export function tree(): ContentWidget[] {
  return [
    {
      id: 1,
      key: 0,
      widget_id: SECTION.id,
      html: '',
      is_original: true,
      children: [
        el(1, 0, 0, { tag: 'section', is_editable: false }),
        el(2, 1, 0, { tag: 'h2', class: 'ccs-section__heading', value: { default: 'Tom &amp; Jerry' } }),
        el(3, 1, 1, { class: 'ccs-section__text', value: { default: '<p>Hi</p>' } }),
        el(4, 3, 0, { tag: 'p', value: { default: 'inner' } }),
      ],
    },
    {
      id: 2,
      key: 1,
      widget_id: SECTION.id,
      html: '',
      is_original: true,
      children: [
        el(5, 0, 0, { tag: 'section', is_editable: false }),
        el(6, 5, 0, { value: { default: 'x' } }),
      ],
    },
  ];
}

/** The field errors of a ValidationError the call must throw. */
export function validationErrors(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.errors;
    throw err;
  }
  throw new Error('expected a ValidationError');
}
