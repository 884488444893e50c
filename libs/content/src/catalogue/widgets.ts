/**
 * The widget catalogue to seed into `widgets` / `widget_categories`. Keys (`type`) are stable:
 * they end up in stored trees as the `ccs-widget--<type>` class and in every design.
 * Lengths are characters of text; designs may lower them per widget.
 */
import type { WidgetDefinition } from './types';
import { COMMERCE_WIDGETS } from './widgets-commerce';
import { CONTENT_WIDGETS } from './widgets-content';

export interface WidgetCategoryDefinition {
  key: string;
  name: string;
  position: number;
}

export const SEED_WIDGET_CATEGORIES: readonly WidgetCategoryDefinition[] = [
  { key: 'text', name: 'Text', position: 1 },
  { key: 'commerce', name: 'Selling points', position: 2 },
  { key: 'media', name: 'Media', position: 3 },
  { key: 'layout', name: 'Layout', position: 4 },
];

/** Seed order (and so the ids a seed inserting them in order would give). */
const SEED_ORDER = [
  'section',
  'benefit',
  'image_text',
  'parameters',
  'faq',
  'cta',
  'gallery',
  'video',
  'comparison',
  'testimonial',
  'divider',
];

export const SEED_WIDGETS: readonly WidgetDefinition[] = SEED_ORDER.map((type) => {
  const definition = [...CONTENT_WIDGETS, ...COMMERCE_WIDGETS].find((w) => w.type === type);
  if (definition === undefined) throw new Error(`widget "${type}" is not defined`);
  return definition;
});
export const WIDGETS_BY_TYPE: ReadonlyMap<string, WidgetDefinition> = new Map(
  SEED_WIDGETS.map((w) => [w.type, w]),
);
