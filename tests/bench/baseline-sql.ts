// The SQL the bare baseline runs: the text catalogueRepository generates for the same requests,
// copied here. catalogue.bench.ts compares it with what the repository generates at the start
// of every run and stops when they differ, so the baseline cannot silently drift from the service.

/** catalogueRepository.listPage for products with outputs marketplace + nested and variants. */
export const LIST_SQL =
  'select "e"."id", "e"."external_id", "e"."guid", "e"."is_visible", "e"."is_loaded", "e"."name", "e"."url", ' +
  '"e"."description", "e"."seo_title", "e"."seo_description", "e"."short_description", "e"."images", ' +
  '"e"."brand_id", "e"."categories_ids", "e"."parameters_ids", ' +
  `to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at, ` +
  `to_char(e.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_at, ` +
  '"c"."html", "c"."marketplace", "c"."nested", ' +
  `coalesce((select json_agg(json_build_object('code', v.code, 'ean', v.ean) order by v.id)\n` +
  `             from product_variants v where v.eshop_id = e.eshop_id and v.product_id = e.id), '[]'::json) as variants ` +
  'from "products" as "e" left join "content" as "c" on "c"."eshop_id" = "e"."eshop_id" ' +
  'and "c"."entity_type" = $1 and "c"."external_id" = "e"."external_id" ' +
  'where "e"."eshop_id" = $2 and "e"."is_delete" = $3 and "e"."status" = $4 and "e"."is_loaded" = $5 ' +
  'order by "e"."id" asc limit $6 offset $7';

export function listBindings(eshopId: number, page: number, perPage: number): unknown[] {
  return ['product', eshopId, false, 'ready', true, perPage, (page - 1) * perPage];
}

/** catalogueRepository.count with the same filter (v2 lists default to is_edited=1). */
export const COUNT_SQL =
  'select count(*) as "count" from "products" as "e" where "e"."eshop_id" = $1 and "e"."is_delete" = $2 ' +
  'and "e"."status" = $3 and "e"."is_loaded" = $4 limit $5';

export function countBindings(eshopId: number): unknown[] {
  return [eshopId, false, 'ready', true, 1];
}

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
  'name',
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
  'url',
  'description',
  'seo_title',
  'seo_description',
  'short_description',
  'images',
  'brand_id',
  'categories_ids',
  'parameters_ids',
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
