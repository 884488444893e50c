import type { Knex } from 'knex';
import type { JsonDocument } from '../json';

/**
 * A widget of the catalogue with its category, as stored: its definition is the raw JSON document,
 * which white-label-api turns into the v3 `WidgetView` (libs/content's v3 contract) it lists.
 */
export interface CatalogueWidget {
  id: number;
  type: string;
  name: string;
  description: string;
  categoryId: number;
  categoryKey: string;
  categoryName: string;
  position: number;
  definition: JsonDocument;
}

function select(db: Knex | Knex.Transaction) {
  return db('widgets as w')
    .join('widget_categories as c', 'c.id', 'w.category_id')
    .select<CatalogueWidget[]>(
      'w.id',
      'w.type',
      'w.name',
      'w.description',
      'w.category_id as categoryId',
      'c.key as categoryKey',
      'c.name as categoryName',
      'w.position',
      'w.definition',
    );
}

/** The widget catalogue is shared by every eshop (seeded from libs/content). */
export const widgetCatalogueRepository = {
  /** Widgets in catalogue order (category position, then widget position), optionally of one category. */
  async list(db: Knex | Knex.Transaction, categoryId?: number): Promise<CatalogueWidget[]> {
    const query = select(db).orderBy([
      { column: 'c.position' },
      { column: 'c.id' },
      { column: 'w.position' },
      { column: 'w.id' },
    ]);
    if (categoryId !== undefined) query.where('w.category_id', categoryId);
    return query;
  },

  async find(db: Knex | Knex.Transaction, id: number): Promise<CatalogueWidget | undefined> {
    return select(db).where('w.id', id).first();
  },
};
