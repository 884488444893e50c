import type { Knex } from 'knex';
import type { LangMap } from './catalogue-tables';
import type { ContentKey, StoredContent } from './content.repository';
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

export interface ProductRef {
  id: number;
  brandId: string | null;
  parameterIds: number[];
}

/** The relations of one product, as columns; the three arguments are SQL naming its values. */
const relations = (brandId: string, parameterIds: string, productId: string) => `
  (select b.name from brands b where b.eshop_id = :eshopId and b.external_id = ${brandId}) as brand,
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
    where p.eshop_id = :eshopId and p.external_id = any(${parameterIds})
  ), '[]'::json) as parameters,
  coalesce((
    select json_agg(json_build_object('code', pv.code, 'ean', pv.ean) order by pv.id)
    from product_variants pv
    where pv.eshop_id = :eshopId and pv.product_id = ${productId}
  ), '[]'::json) as variants`;

// The render worker reads these for every product inside its transaction, where each round
// trip costs more than the rows it carries: one statement for all of them and the lock of the
// product's content row (a locking CTE, taken after the item's lock as ever).
const LOCKED_CONTENT_AND_RELATIONS_SQL = `with locked as (
  select origin, tree from content
  where eshop_id = :eshopId and entity_type = :entityType and external_id = :externalId
  for update
)
select (select row_to_json(locked) from locked) as content, ${relations(':brandId', ':parameterIds::bigint[]', ':productId')}`;

// The same for all products of a render job in one statement: their content rows locked (in
// external-id order, joined on the unnested keys, the eshop id included, so the plan does not
// depend on statistics: see tenant-keys.ts) and each product's relations; the products arrive
// as one JSON array, each row's subqueries are index lookups.
const MANY_LOCKED_CONTENTS_AND_RELATIONS_SQL = `with locked as (
  select c.external_id, c.origin, c.tree
  from unnest(array[:eshopId::integer]) as k(eshop_id) cross join unnest(:externalIds::text[]) as ids(external_id)
  join content c on c.eshop_id = k.eshop_id and c.entity_type = 'product' and c.external_id = ids.external_id
  order by c.external_id
  for update of c
)
select x.product_id,
  (select json_build_object('origin', l.origin, 'tree', l.tree) from locked l where l.external_id = x.external_id) as content,
  ${relations('x.brand_id', 'x.parameter_ids', 'x.product_id')}
from jsonb_to_recordset(:products::jsonb) as x(product_id bigint, external_id text, brand_id text, parameter_ids bigint[])`;

interface Row {
  content?: Pick<StoredContent, 'origin' | 'tree'> | null;
  brand: LangMap | null;
  parameters: ParameterWithValues[];
  variants: Variant[];
}

function relationsOf(row: Row, product: ProductRef): ProductRelations {
  const byId = new Map(row.parameters.map((p) => [p.id, p]));
  return {
    brand: row.brand,
    // As listed by the product (a parameter it lists twice appears twice, as it always has).
    parameters: product.parameterIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
    variants: row.variants,
  };
}

function bindings(eshopId: number, product: ProductRef) {
  return { eshopId, brandId: product.brandId, parameterIds: product.parameterIds, productId: product.id };
}

export const productRelationsRepository = {
  /**
   * withLockedContent for several products of one eshop (the render worker's read for a whole
   * job): their content rows locked and their relations, by product id.
   */
  async withLockedContents(
    trx: Knex.Transaction,
    eshopId: number,
    products: ReadonlyArray<ProductRef & { externalId: string }>,
  ): Promise<
    Map<number, { content: Pick<StoredContent, 'origin' | 'tree'> | undefined; relations: ProductRelations }>
  > {
    if (!products.length) return new Map();
    const json = products.map((p) => ({
      product_id: p.id,
      external_id: p.externalId,
      brand_id: p.brandId,
      parameter_ids: p.parameterIds,
    }));
    const { rows } = await trx.raw<{ rows: Array<Row & { product_id: number }> }>(
      MANY_LOCKED_CONTENTS_AND_RELATIONS_SQL,
      { eshopId, externalIds: products.map((p) => p.externalId), products: JSON.stringify(json) },
    );
    const byId = new Map(rows.map((row) => [row.product_id, row]));
    return new Map(
      products.map((p) => {
        const row = byId.get(p.id)!;
        return [p.id, { content: row.content ?? undefined, relations: relationsOf(row, p) }];
      }),
    );
  },

  /** The product's relations, and its content row locked for the rest of the transaction. */
  async withLockedContent(
    trx: Knex.Transaction,
    key: ContentKey,
    product: ProductRef,
  ): Promise<{ content: Pick<StoredContent, 'origin' | 'tree'> | undefined; relations: ProductRelations }> {
    const { rows } = await trx.raw<{ rows: Row[] }>(LOCKED_CONTENT_AND_RELATIONS_SQL, {
      ...bindings(key.eshopId, product),
      entityType: key.entityType,
      externalId: key.externalId,
    });
    return { content: rows[0]!.content ?? undefined, relations: relationsOf(rows[0]!, product) };
  },
};
