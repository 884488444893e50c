import type { Knex } from 'knex';
import type { LangMap } from './catalogue-tables';
import { contentRepository, type ContentKey, type StoredContent } from './content.repository';
import type { ParameterWithValues } from './parameters.repository';
import type { Variant } from './variants.repository';
import { keysSql, type TenantKey } from './tenant-keys';

export interface ProductRelations {
  /** The brand's name, when the product names a brand the eshop has (deleted ones included). */
  brand: LangMap | null;
  /** The product's parameters in the order it lists them, each with its values in id order. */
  parameters: ParameterWithValues[];
  /** Variants in internal-id order. */
  variants: Variant[];
}

export interface ProductRef {
  id: number;
  brandId: string | null;
  parameterIds: number[];
}

/** A product's variants, and the brands and parameters of a set of products, each read once. */
interface Row {
  /** By product id. */
  variants: Record<string, Variant[]> | null;
  /** Names by brand external id. */
  brands: Record<string, LangMap> | null;
  parameters: ParameterWithValues[] | null;
}

const PARAMETER_ID: TenantKey = { column: 'external_id', type: 'bigint' };
const PRODUCT_ID: TenantKey = { column: 'product_id', type: 'bigint' };

/**
 * One statement for the relations of all products of a render job: the products of a job share
 * brands and parameters (an eshop has a few dozen of each), so each brand and parameter is
 * read and turned into JSON once, not once per product naming it. Every lookup joins the
 * unique key on the unnested ids (keysSql), so the plan does not depend on statistics.
 */
function relationsSql(eshopId: number, products: readonly ProductRef[]) {
  const variants = keysSql(
    eshopId,
    products.map((p) => p.id),
    PRODUCT_ID,
  );
  const brands = keysSql(
    eshopId,
    products.flatMap((p) => (p.brandId === null ? [] : [p.brandId])),
  );
  const parameters = keysSql(
    eshopId,
    products.flatMap((p) => p.parameterIds),
    PARAMETER_ID,
  );
  return {
    sql: `select
  (select json_object_agg(v.product_id, v.variants) from (
     select pv.product_id, json_agg(json_build_object('code', pv.code, 'ean', pv.ean) order by pv.id) as variants
     from ${variants.sql}
     join product_variants pv on pv.eshop_id = k.eshop_id and pv.product_id = x.product_id
     group by pv.product_id) v) as variants,
  (select json_object_agg(b.external_id, b.name)
     from ${brands.sql}
     join brands b on b.eshop_id = k.eshop_id and b.external_id = x.external_id) as brands,
  (select json_agg(json_build_object(
      'id', p.external_id,
      'name', p.name,
      'values', coalesce((
        select json_agg(v.value order by v.external_id)
        from parameter_values v
        where v.eshop_id = p.eshop_id and v.parameter_id = p.id
      ), '[]'::json)))
     from ${parameters.sql}
     join parameters p on p.eshop_id = k.eshop_id and p.external_id = x.external_id) as parameters`,
    bindings: [...variants.bindings, ...brands.bindings, ...parameters.bindings] as Knex.RawBinding[],
  };
}

export const productRelationsRepository = {
  /**
   * The relations of products of one eshop, by product id: a brand the product names (deleted
   * ones included), its parameters in the order it lists them (an unknown id left out, a
   * repeated one kept) each with its values in id order, and its variants in id order.
   */
  async forProducts(
    db: Knex | Knex.Transaction,
    eshopId: number,
    products: readonly ProductRef[],
  ): Promise<Map<number, ProductRelations>> {
    if (!products.length) return new Map();
    const { sql, bindings } = relationsSql(eshopId, products);
    const { rows } = await db.raw<{ rows: Row[] }>(sql, bindings);
    const row = rows[0]!;
    const parameters = new Map((row.parameters ?? []).map((p) => [p.id, p]));
    return new Map(
      products.map((p) => [
        p.id,
        {
          brand: (p.brandId !== null && row.brands?.[p.brandId]) || null,
          parameters: p.parameterIds.flatMap((id) => parameters.get(id) ?? []),
          variants: row.variants?.[String(p.id)] ?? [],
        },
      ]),
    );
  },

  /** The product's relations, and its content row locked for the rest of the transaction. */
  async withLockedContent(
    trx: Knex.Transaction,
    key: ContentKey,
    product: ProductRef,
  ): Promise<{ content: Pick<StoredContent, 'origin' | 'tree'> | undefined; relations: ProductRelations }> {
    const content = await contentRepository.lockTree(trx, key);
    const relations = await this.forProducts(trx, key.eshopId, [product]);
    return { content, relations: relations.get(product.id)! };
  },
};
