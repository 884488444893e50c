import type { Knex } from 'knex';
import { arrayBinding } from '../sql-rows';

/** A key column of a tenant's table (never user input: it is written into the SQL). */
export interface TenantKey {
  column: 'external_id' | 'product_id' | 'parameter_id' | 'id' | 'job_id' | 'entity_id';
  type: 'text' | 'bigint';
}

export const EXTERNAL_ID: TenantKey = { column: 'external_id', type: 'text' };
/** A row's internal id, its single-column primary key: with the eshop, not plan-proof alone (keysFrom). */
export const INTERNAL_ID: TenantKey = { column: 'id', type: 'bigint' };

/**
 * Other columns a statement compares with given values (never user input: written into the SQL),
 * each joined as `<column>_in.<column>` from its own unnest. A statement that needs them names
 * them here rather than as constants, for the reason keysFrom gives.
 */
export type KeyValues = Readonly<Partial<Record<'entity_type' | 'status', readonly string[]>>>;

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
 *
 * A single-column primary key is no exception once the statement names the eshop too:
 * `eshop_id = 42 and id = $id` costs the same, by those statistics, as one row read through any
 * other index leading with eshop_id and filtered on id, and of equal plans the planner takes the
 * newest index's (a REINDEX CONCURRENTLY changes which): a one-id update of 100,000 unanalysed
 * white-label entities walked them all through (eshop_id, type, entity_id), 15 ms instead of 0.6.
 *
 * `values` does the same for other compared columns (KeyValues). A constant there can be worse
 * than the eshop: `status = 'pending'` implies the predicate of the partial index of unfinished
 * jobs, which an ANALYZE that saw none believes empty, so the planner reads every unfinished job
 * through it and filters them by key, in this form too.
 */
export function keysFrom(
  db: Knex | Knex.Transaction,
  eshopId: number,
  ids: readonly (string | number)[],
  key: TenantKey = EXTERNAL_ID,
  values: KeyValues = {},
): Knex.Raw {
  const { sql, bindings } = keysSql(eshopId, ids, key, values);
  return db.raw(sql, bindings);
}

/**
 * `keysFrom`'s text as a string with `?` bindings, for raw statements (DELETE … USING: knex's
 * `using` takes table names only; UPDATE … FROM it builds with `updateFrom(keysFrom(…))`).
 */
export function keysSql(
  eshopId: number,
  ids: readonly (string | number)[],
  key: TenantKey = EXTERNAL_ID,
  values: KeyValues = {},
): { sql: string; bindings: Knex.RawBinding[] } {
  const columns = Object.entries(values).flatMap(([column, list]) => (list ? [[column, list] as const] : []));
  return {
    sql:
      `unnest(array[?::integer]) as k(eshop_id) cross join unnest(?::${key.type}[]) as x(${key.column})` +
      columns.map(([column]) => ` cross join unnest(?::text[]) as ${column}_in(${column})`).join(''),
    bindings: [eshopId, arrayBinding([...new Set(ids)]), ...columns.map(([, list]) => [...new Set(list)])],
  };
}
