/**
 * Designs and widget templates as libs/content knows them, read from their stored rows, and the
 * one way to turn a loaded design into the structure that composition, filling and generation
 * use ({@link structureOf}).
 */
import {
  designStructure,
  type DesignCategory,
  type DesignDefinition,
  type DesignStructure,
  type DesignWidgetDefinition,
  type WidgetDefinition,
  type WidgetTemplate,
} from '@catalogue/content';
import {
  designsRepository,
  type DesignRow,
  type JsonDocument,
  type Knex,
  type StoredDesign,
} from '@catalogue/db';

/** A design with what its structure is built from: its widgets in order and their templates. */
export interface LoadedDesign {
  design: DesignRow;
  definition: DesignDefinition;
  designWidgetIds: number[];
  templates: WidgetTemplate[];
}

// The stored definitions and overrides were written from libs/content's own types (the seed,
// custom designs): reading them back is the one place that says so.
const asDefinition = (stored: JsonDocument): WidgetDefinition => stored as unknown as WidgetDefinition;
const asOverrides = (stored: JsonDocument): Omit<DesignWidgetDefinition, 'widget'> => stored;

export function templateOf(widget: { id: number; definition: JsonDocument }): WidgetTemplate {
  return { ...asDefinition(widget.definition), id: widget.id };
}

function fromStored(stored: StoredDesign): LoadedDesign {
  const { design, widgets } = stored;
  const templates = new Map<number, WidgetTemplate>();
  for (const w of widgets)
    templates.set(w.widgetId, templateOf({ id: w.widgetId, definition: w.definition }));
  return {
    design,
    definition: {
      key: stored.key ?? `design-${design.id}`,
      name: design.name,
      name_translation: design.nameTranslation,
      category: design.category,
      type: 'public',
      widgets: widgets.map((w) => ({ ...asOverrides(w.overrides), widget: asDefinition(w.definition).type })),
    },
    designWidgetIds: widgets.map((w) => w.id),
    templates: [...templates.values()],
  };
}

/** A design the eshop may use, with its widgets and their templates; undefined otherwise. */
export async function loadDesign(
  db: Knex | Knex.Transaction,
  eshopId: number,
  designId: number,
): Promise<LoadedDesign | undefined> {
  const stored = await designsRepository.load(db, eshopId, designId);
  return stored && fromStored(stored);
}

/** The design the worker composes catalogue items with: the first accessible one of the category. */
export async function defaultDesign(
  db: Knex | Knex.Transaction,
  eshopId: number,
  category: DesignCategory,
): Promise<LoadedDesign | undefined> {
  const stored = await designsRepository.defaultFor(db, eshopId, category);
  return stored && fromStored(stored);
}

/** Every widget of the catalogue as a template (white-label widget list, editor adds). */
export async function widgetTemplates(
  db: Knex | Knex.Transaction,
  categoryId?: number,
): Promise<WidgetTemplate[]> {
  return (await designsRepository.widgets(db, categoryId)).map(templateOf);
}

/** The structure of a loaded design, with the ids of its rows (what fill, compose and generate use). */
export function structureOf(loaded: LoadedDesign): DesignStructure {
  return designStructure(loaded.definition, {
    design_id: loaded.design.id,
    design_widget_ids: loaded.designWidgetIds,
    widgets: loaded.templates,
  });
}
