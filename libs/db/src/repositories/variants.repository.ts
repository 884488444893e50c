import type { Knex } from 'knex';
import { arrayBinding } from '../sql-rows';
import { keysSql } from './tenant-keys';

export interface Variant {
  code: string;
  ean: string | null;
}

export const variantsRepository = {
  /**
   * Replaces the variants of each given product: one delete for those that may have variants
   * (products created in the same transaction have none, so `created` skips them) and one insert
   * of unnested arrays, whatever the number of variants: four bind parameters instead of four per
   * variant, which knex would place one by one and PostgreSQL plan as a VALUES list
   * (`batchInsert` would also wrap it in a savepoint: two more round trips). The variants keep
   * their order: the unnest gives the rows in array order and each takes the next id.
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
    const rows: { product: number[]; code: string[]; ean: (string | null)[] } = {
      product: [],
      code: [],
      ean: [],
    };
    for (const [productId, list] of variants) {
      for (const v of list) {
        rows.product.push(productId);
        rows.code.push(v.code);
        rows.ean.push(v.ean);
      }
    }
    if (!rows.product.length) return;
    await trx.raw(
      `insert into product_variants (eshop_id, product_id, code, ean)
       select ?::integer, p, c, e from unnest(?::bigint[], ?::text[], ?::text[]) as v(p, c, e)`,
      [eshopId, rows.product, rows.code, arrayBinding(rows.ean)],
    );
  },
};
