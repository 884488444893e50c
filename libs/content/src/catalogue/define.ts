/** Small helpers that keep the widget definitions readable. */
import { WIDGET_SAMPLES } from './samples';
import type { FieldFormat, FieldSpec, TemplateNode, WidgetDefinition } from './types';

export const spec = (role: string, format: FieldFormat, max_length: number, hint: string): FieldSpec => ({
  role,
  format,
  max_length,
  hint,
});

export const heading = (max = 120): FieldSpec =>
  spec('heading', 'text', max, 'Heading of the widget, plain text.');
export const headingNode = (type: string): TemplateNode => ({
  tag: 'h2',
  class: `ccs-${type}__heading`,
  text: { field: 'heading' },
});

export type Definition = Omit<WidgetDefinition, 'sample' | 'item_field' | 'field' | 'item_count'> &
  Partial<Pick<WidgetDefinition, 'item_field' | 'field' | 'item_count'>>;

export const define = (d: Definition): WidgetDefinition => ({
  item_count: 0,
  field: [],
  item_field: [],
  ...d,
  sample: WIDGET_SAMPLES[d.type] ?? {},
});
