// The SQL the bare baseline runs.
//
// List and count: written by hand as the fastest statements found for the v2 product list
// (not copied from the repository): a deferred join — the page's ids first, through the
// covering list index with LIMIT/OFFSET on that narrow row, then the wide row, its content and
// its variants for those ids only — and an index-only count. Whether the baseline answers what
// the service answers is checked on the response bytes before every run (catalogue.bench.ts).
//
// Upsert: the text catalogueRepository.upsert generates, copied here; catalogue.bench.ts
// compares it with what the repository generates at the start of every run and stops when they
// differ, so the baseline's import cannot silently drift from the service's.

/** One page of listed (ready, loaded, not deleted) products with what the v2 list shows. $1 eshop, $2 limit, $3 offset. */
export const LIST_SQL = `select e.external_id, e.guid, e.is_visible, e.is_loaded, e.name, e.short_description,
  e.description, e.url, e.seo_title, e.seo_description, e.images->>0 as image_preview,
  c.html, c.marketplace, c.nested,
  coalesce((select json_agg(json_build_object('code', v.code, 'ean', v.ean) order by v.id)
    from product_variants v where v.eshop_id = e.eshop_id and v.product_id = e.id), '[]'::json) as variant,
  to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
  to_char(e.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_at
from (select eshop_id, id from products
       where eshop_id = $1 and status = 'ready' and not is_delete and is_loaded
       order by id limit $2 offset $3) as page
join products e on e.eshop_id = page.eshop_id and e.id = page.id
left join content c on c.eshop_id = e.eshop_id and c.entity_type = 'product' and c.external_id = e.external_id
order by e.id`;

/** The total of the same list: an index-only scan of the covering list index. $1 eshop. */
export const COUNT_SQL = `select count(*)::int as total from products
  where eshop_id = $1 and status = 'ready' and not is_delete and is_loaded`;

/** The columns catalogueRepository.upsert writes for products, in knex's (alphabetical) order. */
export const UPSERT_COLUMNS = [
  'brand_id',
  'categories_ids',
  'description',
  'eshop_id',
  'external_id',
  'images',
  'is_delete',
  'is_visible',
  'list_json',
  'name',
  'parameter_values',
  'parameters_ids',
  'seo_description',
  'seo_title',
  'short_description',
  'status',
  'url',
] as const;

const MERGED = [
  'is_visible',
  'is_delete',
  'status',
  'name',
  'short_description',
  'description',
  'url',
  'seo_title',
  'seo_description',
  'images',
  'brand_id',
  'categories_ids',
  'parameters_ids',
  'parameter_values',
  'list_json',
];

/**
 * catalogueRepository.upsert of `rows` products: one multi-row INSERT … ON CONFLICT DO UPDATE.
 * The service also passes `updateOnly` (the ids its locking read found), which adds
 * `where "products".id = any($n::bigint[])` to the update; the baseline has no locking read, so
 * it has no such list and updates every conflicting row.
 */
export function upsertSql(rows: number): string {
  const width = UPSERT_COLUMNS.length;
  const values = Array.from(
    { length: rows },
    (_, r) => `(${UPSERT_COLUMNS.map((_c, c) => `$${r * width + c + 1}`).join(', ')})`,
  );
  return (
    `insert into "products" (${UPSERT_COLUMNS.map((c) => `"${c}"`).join(', ')}) values ${values.join(', ')} ` +
    'on conflict ("eshop_id", "external_id") do update set ' +
    MERGED.map((c) => `"${c}" = excluded."${c}"`).join(',') +
    ',"updated_at" = CURRENT_TIMESTAMP(6) returning "id", "external_id", (xmax = 0) as inserted'
  );
}

/** The variants of updated products go before their new ones are written (variantsRepository.replace). */
export const VARIANTS_DELETE_SQL =
  'delete from product_variants where eshop_id = $1 and product_id = any($2::bigint[])';

/** Every variant of the request in one statement. */
export const VARIANTS_INSERT_SQL =
  'insert into product_variants (eshop_id, product_id, code, ean) ' +
  'select $1, p, c, e from unnest($2::bigint[], $3::text[], $4::text[]) as v(p, c, e)';
