import type { CatalogueEntityType, EntityStatus } from '@catalogue/config';
import type { Knex } from 'knex';
import { checkedRows, compiledOnce, runNumbered } from '../sql-rows';
import type { Row } from '../tables';
import {
  columnsOf,
  ENTITY_TABLES,
  type EntityTableName,
  type EntityWrite,
  JSON_FIELDS,
  type StoredEntity,
  type StoredVariant,
  type UpsertedRow,
} from './catalogue-tables';
import { entityListJson } from '../list-fragments';
import { keysFrom, keysSql } from './tenant-keys';

/**
 * `update <table> as e set … from <keys> where e is one of the keys` (UPDATE … FROM, which knex
 * cannot build): an update of named items whose plan does not depend on statistics (keysFrom).
 */
async function updateByKeys(
  db: Knex | Knex.Transaction,
  type: CatalogueEntityType,
  eshopId: number,
  externalIds: readonly string[],
  set: string,
  opts: { where?: string; returning?: boolean; bindings?: Knex.RawBinding[] } = {},
): Promise<{ rowCount: number; rows: { external_id: string }[] }> {
  const keys = keysSql(eshopId, externalIds);
  return db.raw(
    `update ?? as e set ${set}, updated_at = current_timestamp(6) from ${keys.sql} ` +
      `where e.eshop_id = k.eshop_id and e.external_id = x.external_id${opts.where ? ` and ${opts.where}` : ''}` +
      (opts.returning ? ' returning e.external_id' : ''),
    [ENTITY_TABLES[type].table, ...(opts.bindings ?? []), ...keys.bindings],
  );
}

/** An entity row by column name: what the column-generic statements write and read. */
type EntityRowByName = Record<string, unknown>;

/** An entity findForUpdate read: its keys and state, its data fields by name, its variants. */
type LockedEntityRow = Pick<
  Row<EntityTableName>,
  'id' | 'external_id' | 'status' | 'is_visible' | 'is_delete'
> &
  EntityRowByName & { variants?: StoredVariant[] };

/** What an upsert returns of a row: its keys, and whether the statement inserted it. */
type UpsertedEntityRow = Pick<Row<EntityTableName>, 'id' | 'external_id'> & { inserted: boolean };

/** Where a written column's value comes from (UpsertShape). */
type ColumnSource =
  'eshop' | 'externalId' | 'isVisible' | 'isDelete' | 'status' | 'listJson' | 'json' | 'langMap' | 'plain';

/**
 * The upsert of one entity type: its written columns in the order knex gave them (sorted by
 * name), where each value comes from, and the columns a conflict updates. Made once per type.
 */
interface UpsertShape {
  columns: string[];
  sources: ColumnSource[];
  /** The `on conflict … do update set` list, then `updated_at`. */
  set: string;
}

function upsertShape(type: CatalogueEntityType): UpsertShape {
  const { langFields } = ENTITY_TABLES[type];
  const fixed: Record<string, ColumnSource> = {
    eshop_id: 'eshop',
    external_id: 'externalId',
    is_visible: 'isVisible',
    is_delete: 'isDelete',
    status: 'status',
    list_json: 'listJson',
  };
  const columns = [...Object.keys(fixed), ...columnsOf(type)].sort();
  const merged = ['is_visible', 'is_delete', 'status', ...columnsOf(type), 'list_json'];
  return {
    columns,
    sources: columns.map(
      (c) => fixed[c] ?? (JSON_FIELDS.has(c) ? 'json' : langFields.includes(c) ? 'langMap' : 'plain'),
    ),
    set: [...merged.map((c) => `"${c}" = excluded."${c}"`), '"updated_at" = CURRENT_TIMESTAMP(6)'].join(','),
  };
}

const UPSERT_SHAPES: Record<CatalogueEntityType, UpsertShape> = {
  product: upsertShape('product'),
  category: upsertShape('category'),
  brand: upsertShape('brand'),
  blog: upsertShape('blog'),
};

/**
 * findForUpdate's statement of one entity type, without and with the products' variants: the
 * builder's text, compiled once (its values: the eshop id and the deduplicated external ids).
 * Joined on the keys (keysFrom): one probe of the unique key per id, whatever the statistics.
 */
function lockingRead(type: CatalogueEntityType, withVariants: boolean) {
  return compiledOnce((db) => {
    const query = db
      .from(keysFrom(db, 0, ['']))
      .join(`${ENTITY_TABLES[type].table} as e`, (join) =>
        join.on('e.eshop_id', 'k.eshop_id').andOn('e.external_id', 'x.external_id'),
      )
      .select(
        ['id', 'external_id', 'status', 'is_visible', 'is_delete', ...columnsOf(type)].map((c) => `e.${c}`),
      )
      .orderBy('e.id')
      .forUpdate('e');
    if (withVariants) {
      query.select(
        db.raw(
          `coalesce((select json_agg(json_build_object('code', v.code, 'ean', v.ean) order by v.id)
             from product_variants v where v.eshop_id = e.eshop_id and v.product_id = e.id), '[]'::json) as variants`,
        ),
      );
    }
    return query;
  });
}

const LOCKING_READS = new Map<string, ReturnType<typeof lockingRead>>();

/** The locking read of `type`, made the first time it is asked for. */
function lockingReadOf(type: CatalogueEntityType, withVariants: boolean): ReturnType<typeof lockingRead> {
  const key = `${type}:${withVariants}`;
  let read = LOCKING_READS.get(key);
  if (!read) {
    read = lockingRead(type, withVariants);
    LOCKING_READS.set(key, read);
  }
  return read;
}

/** The value a write gives a column (JSONB columns serialised, as node-postgres sends them). */
function columnValue(
  source: ColumnSource,
  column: string,
  type: CatalogueEntityType,
  eshopId: number,
  write: EntityWrite,
): unknown {
  switch (source) {
    case 'eshop':
      return eshopId;
    case 'externalId':
      return write.externalId;
    case 'isVisible':
      return write.isVisible;
    case 'isDelete':
      return false;
    case 'status':
      return write.status;
    case 'listJson':
      // The list's pieces of these fields, written with them (docs/decisions/0070-pre-serialised-list-items.md, "Pre-serialised list items").
      return entityListJson(type, write.fields);
    case 'json':
      return JSON.stringify(write.fields[column] ?? []);
    case 'langMap':
      return JSON.stringify(write.fields[column] ?? {});
    case 'plain':
      return write.fields[column] ?? null;
  }
}

/** Writes of catalogue entities: imports (lock, upsert), references, deletes and statuses. */
export const catalogueWrites = {
  /**
   * The stored state of the given items, locked for the rest of the caller's transaction.
   * `withVariants` (products) also reads each product's variants, in internal-id order, in the
   * same statement: an import that sends variants compares them without another round trip.
   */
  async findForUpdate(
    trx: Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    externalIds: string[],
    opts: { withVariants?: boolean } = {},
  ): Promise<Map<string, StoredEntity>> {
    if (!externalIds.length) return new Map();
    const read = lockingReadOf(type, opts.withVariants ?? false);
    const { rows: found } = await read(trx, [eshopId, [...new Set(externalIds)]]);
    const rows = checkedRows<LockedEntityRow>(found, [
      'id',
      'external_id',
      'status',
      'is_visible',
      'is_delete',
      ...(opts.withVariants ? (['variants'] as const) : []),
    ]);
    return new Map(
      rows.map((row) => {
        const fields = Object.fromEntries(columnsOf(type).map((c) => [c, row[c]]));
        return [
          row.external_id,
          {
            id: row.id,
            externalId: row.external_id,
            status: row.status,
            isVisible: row.is_visible,
            isDelete: row.is_delete,
            fields,
            ...(opts.withVariants && { variants: row.variants }),
          },
        ];
      }),
    );
  },

  /**
   * Creates or updates items in one multi-row statement. Returns, by external id, the internal
   * id and whether this statement inserted the row (`xmax = 0`). Every written row is visible
   * again (an import brings back a soft-deleted item).
   *
   * `updateOnly` (internal ids the caller has locked) limits the update to those rows: a write
   * meant as a new row that meets a row a concurrent transaction created meanwhile is then
   * neither inserted nor updated, and is missing from the result, so the caller can merge it
   * with that row instead of overwriting it. The conflicting row is still locked
   * (ON CONFLICT DO UPDATE locks rows whose WHERE is false).
   */
  async upsert(
    trx: Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    writes: EntityWrite[],
    opts: { updateOnly?: readonly number[] } = {},
  ): Promise<Map<string, UpsertedRow>> {
    if (!writes.length) return new Map();
    const { table } = ENTITY_TABLES[type];
    const { columns, sources, set } = UPSERT_SHAPES[type];
    // Knex's own text for this insert … on conflict … merge (the benchmark's baseline copies it),
    // with the rows' values in one flat array: knex's builder would make a row object per write,
    // wrap each of its 1,700 values and scan the text twice for `?` (runNumbered).
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (const write of writes) {
      const params: string[] = [];
      for (let c = 0; c < columns.length; c++) {
        values.push(columnValue(sources[c]!, columns[c]!, type, eshopId, write));
        params.push(`$${values.length}`);
      }
      tuples.push(`(${params.join(', ')})`);
    }
    let sql =
      `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${tuples.join(', ')} ` +
      `on conflict ("eshop_id", "external_id") do update set ${set}`;
    if (opts.updateOnly) {
      values.push([...opts.updateOnly]);
      sql += ` where "${table}".id = any($${values.length}::bigint[])`;
    }
    sql += ' returning "id", "external_id", (xmax = 0) as inserted';
    const rows = checkedRows<UpsertedEntityRow>((await runNumbered(trx, sql, values)).rows, [
      'id',
      'external_id',
      'inserted',
    ]);
    return new Map(rows.map((r) => [r.external_id, { id: r.id, inserted: r.inserted }]));
  },

  /** Which of the external ids exist for the eshop (soft-deleted ones included). */
  async existingIds(
    db: Knex | Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    externalIds: string[],
  ): Promise<Set<string>> {
    if (!externalIds.length) return new Set();
    // One array parameter, not one bind parameter per id (a request may name 50,000 ids), and
    // joined on the keys (keysFrom) so that the plan does not depend on statistics.
    const rows = await db
      .from(keysFrom(db, eshopId, externalIds))
      .join(`${ENTITY_TABLES[type].table} as e`, (join) =>
        join.on('e.eshop_id', 'k.eshop_id').andOn('e.external_id', 'x.external_id'),
      )
      .select('e.external_id');
    return new Set(
      checkedRows<Pick<Row<EntityTableName>, 'external_id'>>(rows, ['external_id']).map((r) => r.external_id),
    );
  },

  /** Soft-deletes the items that exist and are not deleted yet; returns their external ids. */
  async softDelete(
    db: Knex | Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    externalIds: string[],
  ): Promise<Set<string>> {
    if (!externalIds.length) return new Set();
    const { rows } = await updateByKeys(db, type, eshopId, externalIds, 'is_delete = true', {
      where: 'not e.is_delete',
      returning: true,
    });
    return new Set(rows.map((r) => r.external_id));
  },

  async setStatus(
    db: Knex | Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    externalId: string,
    status: EntityStatus,
  ): Promise<boolean> {
    const { rowCount } = await updateByKeys(db, type, eshopId, [externalId], 'status = ?', {
      bindings: [status],
    });
    return rowCount > 0;
  },

  /**
   * Touches items (their `updated_at`, nothing else) in one statement: lists that follow
   * `updated_at` see that their content changed.
   */
  async touchMany(
    db: Knex | Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    externalIds: readonly string[],
  ): Promise<void> {
    if (!externalIds.length) return;
    await updateByKeys(db, type, eshopId, externalIds, 'status = e.status');
  },

  /** Marks composed content as stored: `generate` items become ready (or review) and loaded. */
  async markRendered(
    trx: Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    externalId: string,
    nextStatus: 'ready' | 'review',
  ): Promise<boolean> {
    const { rowCount } = await updateByKeys(
      trx,
      type,
      eshopId,
      [externalId],
      'status = ?, is_loaded = true',
      {
        where: "e.status = 'generate'",
        bindings: [nextStatus],
      },
    );
    return rowCount > 0;
  },

  /**
   * markRendered for several items of one eshop and type in one statement. Returns the external
   * ids it marked (items that were waiting in `generate`), in no particular order.
   */
  async markRenderedMany(
    trx: Knex.Transaction,
    type: CatalogueEntityType,
    eshopId: number,
    externalIds: readonly string[],
    nextStatus: 'ready' | 'review',
  ): Promise<string[]> {
    if (!externalIds.length) return [];
    const { rows } = await updateByKeys(trx, type, eshopId, externalIds, 'status = ?, is_loaded = true', {
      where: "e.status = 'generate'",
      bindings: [nextStatus],
      returning: true,
    });
    return rows.map((r) => r.external_id);
  },
};
