import type { Knex } from 'knex';
import { keysSql } from './tenant-keys';

/** Rows per insert: 4 bindings each stays far below PostgreSQL's 65,535. */
const INSERT_CHUNK = 10_000;

export interface Variant {
  code: string;
  ean: string | null;
}

export const variantsRepository = {
  /**
   * Replaces the variants of each given product: one delete for those that may have variants
   * (products created in the same transaction have none, so `created` skips them) and one plain
   * multi-row insert (`batchInsert` would wrap it in a savepoint: two more round trips), chunked
   * only past the bind-parameter limit.
   */
  async replace(
    trx: Knex.Transaction,
    eshopId: number,
    variants: Map<number, Variant[]>,
    created: ReadonlySet<number> = new Set(),
  ): Promise<void> {
    if (!variants.size) return;
    const existing = [...variants.keys()].filter((id) => !created.has(id));
    if (existing.length) {
      // Joined on the keys: an index probe per product whatever the statistics say (keysSql).
      const keys = keysSql(eshopId, existing, { column: 'product_id', type: 'bigint' });
      await trx.raw(
        `delete from product_variants v using ${keys.sql} ` +
          'where v.eshop_id = k.eshop_id and v.product_id = x.product_id',
        keys.bindings,
      );
    }
    const rows = [...variants].flatMap(([productId, list]) =>
      list.map((v) => ({ eshop_id: eshopId, product_id: productId, code: v.code, ean: v.ean })),
    );
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx('product_variants').insert(rows.slice(i, i + INSERT_CHUNK));
    }
  },
};
