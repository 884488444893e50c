import type { Knex } from 'knex';
import { arrayBinding, rawRows } from '../sql-rows';
import type { LangMap } from './catalogue-tables';
import type { ParameterWithValues } from './parameters.repository';
import type { Variant } from './variants.repository';
import { keysSql, type TenantKey } from './tenant-keys';

export interface ProductRelations {
  /** The brand's name, when the product names a brand the eshop has (deleted ones included). */
  brand: LangMap | null;
  /**
   * The product's parameters in the order it links them, each with only the values linked to
   * this product (docs/decisions/0032-a-product-shows-only-its-own.md, "A product shows only its own parameter values"): the
   * values it chose, else the parameter's only value; a parameter left with no value is not
   * listed.
   */
  parameters: ParameterWithValues[];
  /** Variants in internal-id order. */
  variants: Variant[];
}

export interface ProductRef {
  id: number;
  brandId: string | null;
  /**
   * The product's `parameters_ids` as stored. Not read here: a product's parameters come from
   * its links (product_parameter_values), which imports resolve from these ids and the explicit
   * pairs. Kept so callers that pass it keep compiling.
   */
  parameterIds?: readonly number[];
}

/** One parameter a product links, and the value it links (null: the parameter as a whole). */
export interface ProductParameterLink {
  /** Internal ids. */
  parameterId: number;
  valueId: number | null;
}

/** A product's variants, and the brands and parameters of a set of products, each read once. */
interface Row {
  /** By product id. */
  variants: Record<string, Variant[]> | null;
  /** Names by brand external id. */
  brands: Record<string, LangMap> | null;
  /** By product id, in link order. */
  parameters: Record<string, (Omit<ParameterWithValues, 'names'> & { names: LangMap | null })[]> | null;
}

const PRODUCT_ID: TenantKey = { column: 'product_id', type: 'bigint' };

/**
 * One statement for the relations of all products of a render job. Every lookup joins the
 * unique key on the unnested ids (keysSql), so the plan does not depend on statistics.
 *
 * Parameters: a product's links, grouped by parameter (first link's position gives the order).
 * The values are those its links name (joined on (eshop_id, parameter_id, id), so only a value
 * of that parameter of that eshop can come back); a parameter linked without a value shows its
 * value only when it has exactly one (at most two are read to know). Nothing else of a
 * parameter's values is read, so another product's value cannot appear.
 */
function relationsSql(eshopId: number, products: readonly ProductRef[]) {
  const productIds = products.map((p) => p.id);
  const variants = keysSql(eshopId, productIds, PRODUCT_ID);
  const brands = keysSql(
    eshopId,
    products.flatMap((p) => (p.brandId === null ? [] : [p.brandId])),
  );
  const links = keysSql(eshopId, productIds, PRODUCT_ID);
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
  (select json_object_agg(t.product_id, t.parameters) from (
     select g.product_id, json_agg(json_build_object(
         'id', p.external_id, 'name', p.name, 'names', p.name_translations, 'values', r.vals
       ) order by g.first) as parameters
     from (
       select l.eshop_id, l.product_id, l.parameter_id, min(l.position) as first,
         array_agg(v.value order by v.external_id) filter (where v.id is not null) as chosen
       from ${links.sql}
       join product_parameter_values l on l.eshop_id = k.eshop_id and l.product_id = x.product_id
       left join parameter_values v
         on v.eshop_id = l.eshop_id and v.parameter_id = l.parameter_id and v.id = l.value_id
       group by l.eshop_id, l.product_id, l.parameter_id) g
     join parameters p on p.eshop_id = g.eshop_id and p.id = g.parameter_id
     cross join lateral (select coalesce(g.chosen, (
       select case when count(*) = 1 then array_agg(o.value) end
       from (select pv1.value from parameter_values pv1
             where pv1.eshop_id = g.eshop_id and pv1.parameter_id = g.parameter_id limit 2) o)) as vals) r
     where r.vals is not null
     group by g.product_id) t) as parameters`,
    bindings: [...variants.bindings, ...brands.bindings, ...links.bindings],
  };
}

export const productRelationsRepository = {
  /**
   * The relations of products of one eshop, by product id: a brand the product names (deleted
   * ones included), its parameters in the order it links them, each once and with only the
   * values linked to it (in value-id order), and its variants in id order.
   */
  async forProducts(
    db: Knex | Knex.Transaction,
    eshopId: number,
    products: readonly ProductRef[],
  ): Promise<Map<number, ProductRelations>> {
    if (!products.length) return new Map();
    const { sql, bindings } = relationsSql(eshopId, products);
    const rows = await rawRows<Row>(db, sql, bindings, ['variants', 'brands', 'parameters']);
    const row = rows[0]!;
    return new Map(
      products.map((p) => [
        p.id,
        {
          brand: (p.brandId !== null && row.brands?.[p.brandId]) || null,
          parameters: (row.parameters?.[String(p.id)] ?? []).map(({ names, ...parameter }) =>
            names && Object.keys(names).length ? { ...parameter, names } : parameter,
          ),
          variants: row.variants?.[String(p.id)] ?? [],
        },
      ]),
    );
  },

  /**
   * Replaces the parameter links of the given products (internal ids) with `links`, in order
   * (position 1, 2, …; a repeated link is kept once, first). Two statements at most whatever the
   * size: one delete joined on the product keys, one insert of unnested arrays. Products created
   * in the caller's transaction (`created`) have no links yet, so the delete skips them, and an
   * import of new products without parameters runs neither. The keys refuse a link to another
   * eshop's parameter or value, or to a value of another parameter.
   */
  async replaceLinks(
    trx: Knex | Knex.Transaction,
    eshopId: number,
    links: ReadonlyMap<number, readonly ProductParameterLink[]>,
    created: ReadonlySet<number> = new Set(),
  ): Promise<void> {
    const existing = [...links.keys()].filter((id) => !created.has(id));
    if (existing.length) {
      const keys = keysSql(eshopId, existing, PRODUCT_ID);
      await trx.raw(
        `delete from product_parameter_values l using ${keys.sql}
         where l.eshop_id = k.eshop_id and l.product_id = x.product_id`,
        keys.bindings,
      );
    }
    const rows: { product: number[]; position: number[]; parameter: number[]; value: (number | null)[] } = {
      product: [],
      position: [],
      parameter: [],
      value: [],
    };
    for (const [productId, list] of links) {
      const seen = new Set<string>();
      for (const link of list) {
        const key = `${link.parameterId}:${link.valueId ?? ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        rows.product.push(productId);
        rows.position.push(seen.size);
        rows.parameter.push(link.parameterId);
        rows.value.push(link.valueId);
      }
    }
    if (!rows.product.length) return;
    await trx.raw(
      `insert into product_parameter_values (eshop_id, product_id, position, parameter_id, value_id)
       select ?::integer, product_id, position, parameter_id, value_id
       from unnest(?::bigint[], ?::integer[], ?::bigint[], ?::bigint[]) as r(product_id, position, parameter_id, value_id)`,
      [eshopId, rows.product, rows.position, rows.parameter, arrayBinding(rows.value)],
    );
  },
};
