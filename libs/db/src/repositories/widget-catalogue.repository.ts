import type { Knex } from 'knex';
import type { JsonDocument } from '../json';
import { checkedRow, checkedRows } from '../sql-rows';
import type { Row } from '../tables';

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

type RawWidget = Pick<
  Row<'widgets'>,
  'id' | 'type' | 'name' | 'description' | 'category_id' | 'position' | 'definition'
> & {
  category_key: Row<'widget_categories'>['key'];
  category_name: Row<'widget_categories'>['name'];
};

const RAW_COLUMNS = [
  'id',
  'type',
  'name',
  'description',
  'category_id',
  'category_key',
  'category_name',
  'position',
  'definition',
] as const satisfies readonly (keyof RawWidget)[];

function select(db: Knex | Knex.Transaction) {
  return db('widgets as w')
    .join('widget_categories as c', 'c.id', 'w.category_id')
    .select(
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
    return checkedRows<RawWidget>(await query, RAW_COLUMNS).map(toWidget);
  },

  async find(db: Knex | Knex.Transaction, id: number): Promise<CatalogueWidget | undefined> {
    const row = checkedRow<RawWidget>(await select(db).where('w.id', id).first(), RAW_COLUMNS);
    return row ? toWidget(row) : undefined;
  },
};
