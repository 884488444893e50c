import type { Knex } from 'knex';
import { checkedRow, checkedRows } from '../sql-rows';
import type { TimestampsOut, WidgetFavouriteRow } from '../tables';
import { isoOffset } from '../timestamps';

/** A widget an eshop saved with its own content, to insert again in the editor. */
export interface WidgetFavourite {
  id: number;
  eshopId: number;
  name: string;
  widgetId: number;
  /** Element objects whose `value` and `extension` are language maps (checked by the service). */
  children: unknown[];
  /** ISO 8601 with a numeric UTC offset, like every white-label timestamp. */
  createdAt: string;
  updatedAt: string;
}

export interface WidgetFavouriteWrite {
  name: string;
  widgetId: number;
  children: unknown[];
}

type FavouriteOut = Omit<WidgetFavouriteRow, keyof TimestampsOut> & TimestampsOut;

/** The columns select() reads (its timestamps are computed, so the rows are checked). */
const OUT_COLUMNS = [
  'id',
  'eshop_id',
  'name',
  'widget_id',
  'children',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof FavouriteOut)[];

function select(db: Knex | Knex.Transaction) {
  return db('widget_favourites').select(
    'id',
    'eshop_id',
    'name',
    'widget_id',
    'children',
    db.raw(`${isoOffset('created_at')} as created_at`),
    db.raw(`${isoOffset('updated_at')} as updated_at`),
  );
}

function toFavourite(row: FavouriteOut): WidgetFavourite {
  return {
    id: row.id,
    eshopId: row.eshop_id,
    name: row.name,
    widgetId: row.widget_id,
    children: row.children,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Every query names the eshop: another eshop's favourite id finds nothing. */
export const favouritesRepository = {
  async list(db: Knex | Knex.Transaction, eshopId: number): Promise<WidgetFavourite[]> {
    const rows = await select(db).where({ eshop_id: eshopId }).orderBy('id');
    return checkedRows<FavouriteOut>(rows, OUT_COLUMNS).map((r) => toFavourite(r));
  },

  async find(db: Knex | Knex.Transaction, eshopId: number, id: number): Promise<WidgetFavourite | undefined> {
    const row = checkedRow<FavouriteOut>(
      await select(db).where({ eshop_id: eshopId, id }).first(),
      OUT_COLUMNS,
    );
    return row ? toFavourite(row) : undefined;
  },

  async create(
    db: Knex | Knex.Transaction,
    eshopId: number,
    input: WidgetFavouriteWrite,
  ): Promise<WidgetFavourite> {
    const [row] = await db('widget_favourites')
      .insert({
        eshop_id: eshopId,
        name: input.name,
        widget_id: input.widgetId,
        children: JSON.stringify(input.children),
      })
      .returning('id');
    return (await this.find(db, eshopId, row!.id))!;
  },

  /** Deletes the eshop's favourite; false when it has none with this id. */
  async remove(db: Knex | Knex.Transaction, eshopId: number, id: number): Promise<boolean> {
    return (await db('widget_favourites').where({ eshop_id: eshopId, id }).delete()) > 0;
  },
};
