import type { Knex } from 'knex';

/** A key column of a tenant's table (never user input: it is written into the SQL). */
export interface TenantKey {
  column: 'external_id' | 'product_id';
  type: 'text' | 'bigint';
}

export const EXTERNAL_ID: TenantKey = { column: 'external_id', type: 'text' };

/**
 * The rows of one eshop named by key (external ids, product ids…) as FROM items, `k.eshop_id`
 * and `x.<column>`, to join the table on: a form whose plan does not depend on statistics.
 *
 * Written as `eshop_id = 42 and external_id = any($ids)` (or `= $id`), the planner estimates
 * how many rows eshop 42 has from the column's statistics. For an eshop that had few or no
 * rows at the last ANALYZE (a new eshop's first big imports; autovacuum behind or off) that
 * estimate is 1 row, so it walks the eshop's rows through the (eshop_id, id) index and filters
 * them, or hashes them: measured on 300,000 unanalysed products of one eshop, 200–590 ms for a
 * 100-id locking read or a one-id update instead of 1 ms. Here the eshop id comes from a
 * one-element unnest, a value the planner cannot know: the only alternative to one probe of the
 * unique (eshop_id, <column>) key per id is then a scan of the whole table, whose size it reads
 * from the table itself, not from statistics. Ids are deduplicated (a join would repeat rows).
 */
export function keysFrom(
  db: Knex | Knex.Transaction,
  eshopId: number,
  ids: readonly (string | number)[],
  key: TenantKey = EXTERNAL_ID,
): Knex.Raw {
  const { sql, bindings } = keysSql(eshopId, ids, key);
  return db.raw(sql, bindings as Knex.RawBinding[]);
}

/** `keysFrom`'s text as a string with `?` bindings, for statements knex cannot build (UPDATE … FROM, DELETE … USING). */
export function keysSql(
  eshopId: number,
  ids: readonly (string | number)[],
  key: TenantKey = EXTERNAL_ID,
): { sql: string; bindings: unknown[] } {
  return {
    sql: `unnest(array[?::integer]) as k(eshop_id) cross join unnest(?::${key.type}[]) as x(${key.column})`,
    bindings: [eshopId, [...new Set(ids)]],
  };
}
