import {
  designPreviewHtml,
  designStructure,
  SEED_DESIGNS,
  SEED_WIDGET_CATEGORIES,
  SEED_WIDGETS,
  structureHash,
  type DesignDefinition,
  type WidgetTemplate,
} from '@catalogue/content';
import { catalogueSeedRepository as seed, type Knex } from '@catalogue/db';
import { SEED_PROMPTS } from './prompts';

/** The per-design changes of a widget, as stored in design_widgets.overrides. */
function overridesOf(widget: DesignDefinition['widgets'][number]): Record<string, unknown> {
  const { widget: _type, ...overrides } = widget;
  return overrides;
}

/**
 * Writes the public widget catalogue, designs and prompts of libs/content, by stable key:
 * running it again updates rows in place (ids stay, so design_widget_ids a client read stay
 * valid), and nothing an eshop made is touched. Runs in one transaction.
 */
/** The id the seed gave the entry `key` names (the seed's data is checked by its tests). */
function seededId(ids: Map<string, number>, key: string, what: string): number {
  const id = ids.get(key);
  if (id === undefined) throw new Error(`the seed names an unknown ${what} ${key}`);
  return id;
}

export async function seedCatalogue(db: Knex): Promise<void> {
  await db.transaction(async (trx) => {
    const categoryIds = new Map<string, number>();
    for (const category of SEED_WIDGET_CATEGORIES) {
      const { key, name, position } = category;
      categoryIds.set(key, await seed.upsertWidgetCategory(trx, { key, name, position }));
    }

    const templates: WidgetTemplate[] = [];
    for (const [position, widget] of SEED_WIDGETS.entries()) {
      const id = await seed.upsertWidget(trx, {
        type: widget.type,
        categoryId: seededId(categoryIds, widget.category, 'widget category'),
        name: widget.name,
        description: widget.description,
        definition: widget,
        position,
      });
      templates.push({ ...widget, id });
    }
    const widgetIds = new Map(templates.map((t) => [t.type, t.id]));

    for (const [position, design] of SEED_DESIGNS.entries()) {
      const designId = await seed.upsertPublicDesign(trx, {
        key: design.key,
        name: design.name,
        nameTranslation: design.name_translation,
        category: design.category,
        position,
        previewHtml: designPreviewHtml(design, { widgets: templates }),
      });
      await seed.trimDesignWidgets(trx, designId, design.widgets.length);
      const designWidgetIds: number[] = [];
      for (const [index, widget] of design.widgets.entries()) {
        designWidgetIds.push(
          await seed.upsertDesignWidget(trx, {
            designId,
            widgetId: seededId(widgetIds, widget.widget, 'widget'),
            position: index,
            overrides: overridesOf(widget),
          }),
        );
      }
      const structure = designStructure(design, {
        design_id: designId,
        design_widget_ids: designWidgetIds,
        widgets: templates,
      });
      await seed.setDesignHash(trx, designId, structureHash(structure));
    }

    for (const [position, prompt] of SEED_PROMPTS.entries()) {
      await seed.upsertPrompt(trx, { ...prompt, position });
    }
  });
}
