import type { Knex } from 'knex';
import type { JsonDocument } from '../json';

/** A widget of the catalogue with its category, as the white-label widget list shows it. */
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

interface RawWidget {
  id: number;
  type: string;
  name: string;
  description: string;
  category_id: number;
  category_key: string;
  category_name: string;
  position: number;
  definition: JsonDocument;
}

function select(db: Knex | Knex.Transaction) {
  return db('widgets as w')
    .join('widget_categories as c', 'c.id', 'w.category_id')
    .select<RawWidget[]>(
      'w.id',
      'w.type',
      'w.name',
      'w.description',
      'w.category_id',
      'c.key as category_key',
      'c.name as category_name',
      'w.position',
      'w.definition',
    );
}

function toWidget(row: RawWidget): CatalogueWidget {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    description: row.description,
    categoryId: row.category_id,
    categoryKey: row.category_key,
    categoryName: row.category_name,
    position: row.position,
    definition: row.definition,
  };
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
    return (await query).map(toWidget);
  },

  async find(db: Knex | Knex.Transaction, id: number): Promise<CatalogueWidget | undefined> {
    const row = await select(db).where('w.id', id).first();
    return row ? toWidget(row) : undefined;
  },
};
