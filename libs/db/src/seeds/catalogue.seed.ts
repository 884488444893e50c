import type { Knex } from 'knex';
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
export async function seedCatalogue(db: Knex): Promise<void> {
  await db.transaction(async (trx) => {
    const categoryIds = new Map<string, number>();
    for (const category of SEED_WIDGET_CATEGORIES) {
      const [row] = await trx('widget_categories')
        .insert({ key: category.key, name: category.name, position: category.position })
        .onConflict('key')
        .merge()
        .returning<{ id: number }[]>('id');
      categoryIds.set(category.key, row!.id);
    }

    const templates: WidgetTemplate[] = [];
    for (const [position, widget] of SEED_WIDGETS.entries()) {
      const [row] = await trx('widgets')
        .insert({
          type: widget.type,
          category_id: categoryIds.get(widget.category),
          name: widget.name,
          description: widget.description,
          definition: JSON.stringify(widget),
          position,
        })
        .onConflict('type')
        .merge()
        .returning<{ id: number }[]>('id');
      templates.push({ ...widget, id: row!.id });
    }
    const widgetIds = new Map(templates.map((t) => [t.type, t.id]));

    for (const [position, design] of SEED_DESIGNS.entries()) {
      const base = {
        key: design.key,
        name: design.name,
        name_translation: JSON.stringify(design.name_translation),
        category: design.category,
        type: 'public',
        position,
        preview_html: designPreviewHtml(design, { widgets: templates }),
      };
      const [row] = await trx('designs')
        .insert({ ...base, hash: '' })
        .onConflict('key')
        .merge({ ...base, updated_at: trx.fn.now(6) })
        .returning<{ id: number }[]>('id');
      const designId = row!.id;
      await trx('design_widgets')
        .where('design_id', designId)
        .andWhere('position', '>=', design.widgets.length)
        .delete();
      const designWidgetIds: number[] = [];
      for (const [index, widget] of design.widgets.entries()) {
        const [dw] = await trx('design_widgets')
          .insert({
            design_id: designId,
            widget_id: widgetIds.get(widget.widget),
            position: index,
            overrides: JSON.stringify(overridesOf(widget)),
          })
          .onConflict(['design_id', 'position'])
          .merge()
          .returning<{ id: number }[]>('id');
        designWidgetIds.push(dw!.id);
      }
      const structure = designStructure(design, {
        design_id: designId,
        design_widget_ids: designWidgetIds,
        widgets: templates,
      });
      await trx('designs')
        .where('id', designId)
        .update({ hash: structureHash(structure) });
    }

    for (const [position, prompt] of SEED_PROMPTS.entries()) {
      const row = {
        ...prompt,
        search_web: JSON.stringify(prompt.search_web),
        search_model: JSON.stringify(prompt.search_model),
        position,
      };
      await trx('prompts').insert(row).onConflict('key').merge();
    }
  });
}
