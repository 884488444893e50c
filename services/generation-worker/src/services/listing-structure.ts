/**
 * The missing standard fields of a listing row as a small design the providers understand, and
 * what the provider wrote back as listing fields.
 */
import {
  escapeText,
  htmlToText,
  sanitizeHtml,
  type DesignStructure,
  type FieldSpec,
  type FillableStructureWidget,
  type FillWidgetInput,
} from '@catalogue/content';

/** The fields every listed product should have; the ones a row lacks are generated. */
export const STANDARD_FIELDS = ['name', 'description', 'short_description'] as const;
export type StandardField = (typeof STANDARD_FIELDS)[number];

/** Limits of what generation writes. */
const LIMITS = { name: 120, description: 2000, short_description: 300, facts: 10 } as const;

const spec = (role: string, format: FieldSpec['format'], max_length: number, hint: string): FieldSpec => ({
  role,
  format,
  max_length,
  hint,
});

function widget(
  id: number,
  name: string,
  description: string,
  fields: FieldSpec[],
  items: FieldSpec[] = [],
  itemCount = 0,
): FillableStructureWidget {
  return {
    design_widget_id: id,
    position: id - 1,
    type: items.length > 0 ? 'benefit' : 'section',
    widget_name: name,
    widget_description: description,
    fillable: true,
    item_count: itemCount,
    field: fields,
    item_field: items,
    image_slot: 0,
    icon_slot: 0,
  };
}

const MAIN = 1;
const FACTS = 2;
const SHORT = 3;

/**
 * The fields to write, as a small design the providers understand: the name as the heading and
 * the description as the paragraph of one section, the description's list of facts as fact
 * items (`fact_name`, `fact_value`: a label and its value, not benefit sentences), the short description as a plain-text paragraph of its own.
 */
export function listingStructure(missing: ReadonlySet<StandardField>): DesignStructure {
  const widgets: FillableStructureWidget[] = [];
  const main: FieldSpec[] = [];
  if (missing.has('name')) main.push(spec('heading', 'text', LIMITS.name, 'The product name'));
  if (missing.has('description')) {
    main.push(spec('paragraph', 'html', LIMITS.description, 'The product description'));
  }
  if (main.length > 0) {
    widgets.push(widget(MAIN, 'Product', 'Name and description of the product', main));
  }
  if (missing.has('description')) {
    widgets.push(
      widget(
        FACTS,
        'Key facts',
        'Facts about the product, each a short label and its value',
        [],
        [
          // Facts, not benefits: a label and its value as the data says them.
          spec('fact_name', 'text', 80, 'A property of the product'),
          spec('fact_value', 'text', 300, 'Its value'),
        ],
        LIMITS.facts,
      ),
    );
  }
  if (missing.has('short_description')) {
    widgets.push(
      widget(SHORT, 'Short description', 'One or two sentences for product lists', [
        spec('paragraph', 'text', LIMITS.short_description, 'The short description'),
      ]),
    );
  }
  return { design_id: 0, design_name: 'Product listing', category: 'product', widget: widgets };
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** What the provider wrote, as listing fields (plain text, or sanitised HTML for the description). */
export function fieldsFromWidgets(
  widgets: readonly FillWidgetInput[],
): Partial<Record<StandardField, string>> {
  const byId = new Map(widgets.map((w) => [w.design_widget_id, w]));
  const out: Partial<Record<StandardField, string>> = {};
  const main = byId.get(MAIN);
  const name = textOf(main?.fields?.heading);
  if (name !== '') out.name = name;
  const paragraph = textOf(main?.fields?.paragraph);
  const facts = (byId.get(FACTS)?.items ?? [])
    .map((item) => [textOf(item.fact_name), textOf(item.fact_value)] as const)
    .filter(([title, text]) => title !== '' && text !== '');
  const list =
    facts.length === 0
      ? ''
      : `<ul>${facts.map(([t, v]) => `<li><strong>${escapeText(t)}</strong>: ${escapeText(v)}</li>`).join('')}</ul>`;
  const description = sanitizeHtml(`${paragraph}${list}`).trim();
  if (htmlToText(description).trim() !== '') out.description = description;
  const short = textOf(byId.get(SHORT)?.fields?.paragraph);
  if (short !== '') out.short_description = short;
  return out;
}
