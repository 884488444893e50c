import type { Knex } from 'knex';

export interface Variant {
  code: string;
  ean: string | null;
}

export const variantsRepository = {
  /** Variants of the given products, each list in internal-id order. */
  async ofProducts(
    db: Knex | Knex.Transaction,
    eshopId: number,
    productIds: number[],
  ): Promise<Map<number, Variant[]>> {
    const byProduct = new Map<number, Variant[]>(productIds.map((id) => [id, []]));
    if (!productIds.length) return byProduct;
    const rows = await db('product_variants')
      .select<{ product_id: number; code: string; ean: string | null }[]>('product_id', 'code', 'ean')
      .where('eshop_id', eshopId)
      .whereIn('product_id', productIds)
      .orderBy('id');
    for (const row of rows) byProduct.get(row.product_id)?.push({ code: row.code, ean: row.ean });
    return byProduct;
  },

  /** Replaces the variants of each given product (two statements for all of them). */
  async replace(trx: Knex.Transaction, eshopId: number, variants: Map<number, Variant[]>): Promise<void> {
    if (!variants.size) return;
    await trx('product_variants')
      .where('eshop_id', eshopId)
      .whereIn('product_id', [...variants.keys()])
      .delete();
    const rows = [...variants].flatMap(([productId, list]) =>
      list.map((v) => ({ eshop_id: eshopId, product_id: productId, code: v.code, ean: v.ean })),
    );
    if (rows.length) await trx.batchInsert('product_variants', rows, 1000);
  },
};
