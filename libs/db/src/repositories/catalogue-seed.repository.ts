import type { Knex } from 'knex';
import type { Row } from '../tables';
import type { Prompt } from './prompts.repository';

/**
 * Upserts of the public widget catalogue, designs and prompts by their stable keys (the seed of
 * libs/content-store): a row written again is updated in place, so its id stays.
 */
export const catalogueSeedRepository = {
  async upsertWidgetCategory(
    trx: Knex.Transaction,
    category: { key: string; name: string; position: number },
  ): Promise<number> {
    const [row] = await trx('widget_categories').insert(category).onConflict('key').merge().returning('id');
    return row!.id;
  },

  async upsertWidget(
    trx: Knex.Transaction,
    widget: {
      type: string;
      categoryId: number;
      name: string;
      description: string;
      /** The widget's definition as libs/content declares it; stored as JSON. */
      definition: object;
      position: number;
    },
  ): Promise<number> {
    const [row] = await trx('widgets')
      .insert({
        type: widget.type,
        category_id: widget.categoryId,
        name: widget.name,
        description: widget.description,
        definition: JSON.stringify(widget.definition),
        position: widget.position,
      })
      .onConflict('type')
      .merge()
      .returning('id');
    return row!.id;
  },

  /** A public design by key; its hash is set once its widgets are written ({@link setDesignHash}). */
  async upsertPublicDesign(
    trx: Knex.Transaction,
    design: {
      key: string;
      name: string;
      nameTranslation: Partial<Record<string, string>>;
      category: Row<'designs'>['category'];
      position: number;
      previewHtml: string;
    },
  ): Promise<number> {
    const base = {
      key: design.key,
      name: design.name,
      name_translation: JSON.stringify(design.nameTranslation),
      category: design.category,
      type: 'public' as const,
      position: design.position,
      preview_html: design.previewHtml,
    };
    const [row] = await trx('designs')
      .insert({ ...base, hash: '' })
      .onConflict('key')
      .merge({ ...base, updated_at: trx.fn.now(6) })
      .returning('id');
    return row!.id;
  },

  /** Deletes the design's widgets at `count` and after (a design that lost widgets). */
  async trimDesignWidgets(trx: Knex.Transaction, designId: number, count: number): Promise<void> {
    await trx('design_widgets').where('design_id', designId).andWhere('position', '>=', count).delete();
  },

  async upsertDesignWidget(
    trx: Knex.Transaction,
    widget: { designId: number; widgetId: number; position: number; overrides: object },
  ): Promise<number> {
    const [row] = await trx('design_widgets')
      .insert({
        design_id: widget.designId,
        widget_id: widget.widgetId,
        position: widget.position,
        overrides: JSON.stringify(widget.overrides),
      })
      .onConflict(['design_id', 'position'])
      .merge()
      .returning('id');
    return row!.id;
  },

  async setDesignHash(trx: Knex.Transaction, designId: number, hash: string): Promise<void> {
    await trx('designs').where('id', designId).update({ hash });
  },

  async upsertPrompt(
    trx: Knex.Transaction,
    prompt: Omit<Prompt, 'id'> & { key: string; position: number },
  ): Promise<void> {
    const row = {
      ...prompt,
      search_web: JSON.stringify(prompt.search_web),
      search_model: JSON.stringify(prompt.search_model),
    };
    await trx('prompts').insert(row).onConflict('key').merge();
  },
};
