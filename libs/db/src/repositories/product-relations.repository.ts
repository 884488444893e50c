import type { Knex } from 'knex';
import type { LangMap } from './catalogue-tables';
import type { ParameterWithValues } from './parameters.repository';
import type { Variant } from './variants.repository';

export interface ProductRelations {
  /** The brand's name, when the product names a brand the eshop has (deleted ones included). */
  brand: LangMap | null;
  /** The product's parameters in the order it lists them, each with its values in id order. */
  parameters: ParameterWithValues[];
  /** Variants in internal-id order. */
  variants: Variant[];
}

// One statement instead of one per relation: the render worker reads this for every product,
// and each round trip inside its transaction costs more than the rows it carries.
const RELATIONS_SQL = `
select
  (select b.name from brands b where b.eshop_id = :eshopId and b.external_id = :brandId) as brand,
  coalesce((
    select json_agg(json_build_object(
      'id', p.external_id,
      'name', p.name,
      'values', coalesce((
        select json_agg(v.value order by v.external_id)
        from parameter_values v
        where v.eshop_id = :eshopId and v.parameter_id = p.id
      ), '[]'::json)))
    from parameters p
    where p.eshop_id = :eshopId and p.external_id = any(:parameterIds::bigint[])
  ), '[]'::json) as parameters,
  coalesce((
    select json_agg(json_build_object('code', pv.code, 'ean', pv.ean) order by pv.id)
    from product_variants pv
    where pv.eshop_id = :eshopId and pv.product_id = :productId
  ), '[]'::json) as variants`;

export const productRelationsRepository = {
  async of(
    db: Knex | Knex.Transaction,
    eshopId: number,
    product: { id: number; brandId: string | null; parameterIds: number[] },
  ): Promise<ProductRelations> {
    const { rows } = await db.raw<{
      rows: { brand: LangMap | null; parameters: ParameterWithValues[]; variants: Variant[] }[];
    }>(RELATIONS_SQL, {
      eshopId,
      brandId: product.brandId,
      parameterIds: product.parameterIds,
      productId: product.id,
    });
    const row = rows[0]!;
    const byId = new Map(row.parameters.map((p) => [p.id, p]));
    return {
      brand: row.brand,
      // As listed by the product (a parameter it lists twice appears twice, as it always has).
      parameters: product.parameterIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
      variants: row.variants,
    };
  },
};
