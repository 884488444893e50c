// The SQL the bare worker of the worker benchmark runs, with raw pg, one statement each for a
// whole render-content job (set-based, as renderContents runs them):
//
// - reads: what renderItem needs and the locks the job takes — the eshop's settings, the items
//   (locked, id order), their content rows (locked; the stored tree of people's content) and the
//   products' brands, parameters and variants in one statement (the text of
//   productRelationsRepository.forProducts, copied). The eshop read is narrowed to the four
//   columns rendering uses: the fastest equivalent, not a copy.
// - writes: exactly what renderContents writes, as knex generates it (the multi-row content
//   upsert, the status update, the event append). worker-sql-check.ts renders two seeded
//   products with the real renderContents and with the bare worker's code at the start of every
//   run and stops when the writes differ in text or bindings (the rendered bytes included).

/** `$from, $from+1, …` for n values. */
const params = (from: number, n: number): string =>
  Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');

/** The eshop settings rendering and the status need (eshopsRepository.findById reads them all). */
export const ESHOP_SQL =
  'select languages, review_required, content_fallback, default_language from eshops where id = $1';

export interface EshopRow {
  languages: string[];
  review_required: boolean;
  content_fallback: 'fallback' | 'omit';
  default_language: string | null;
}

/** The product columns renderItem reads (catalogueRepository.findForUpdate's `fields`). */
export const PRODUCT_FIELDS = [
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
] as const;

/** catalogueRepository.findForUpdate of the job's products, joined on the keys (plan-proof). */
export const LOCK_ITEMS_SQL =
  'select "e"."id", "e"."external_id", "e"."status", "e"."is_visible", "e"."is_delete", ' +
  PRODUCT_FIELDS.map((c) => `"e"."${c}"`).join(', ') +
  ' from unnest(array[$1::integer]) as k(eshop_id) cross join unnest($2::text[]) as x(external_id) ' +
  'inner join "products" as "e" on "e"."eshop_id" = "k"."eshop_id" and "e"."external_id" = "x"."external_id" ' +
  'order by "e"."id" asc for update of "e"';

/** contentRepository.lockTrees: the items' content rows locked, origin and tree read. */
export const LOCK_TREES_SQL =
  'select c.external_id, c.origin, c.tree ' +
  'from unnest(array[$1::integer]) as k(eshop_id) cross join unnest($2::text[]) as x(external_id) ' +
  'join content c on c.eshop_id = k.eshop_id and c.entity_type = $3 and c.external_id = x.external_id ' +
  'order by c.external_id for update of c';

/** productRelationsRepository.forProducts' statement (its text, with `$n` for knex's `?`). */
export const RELATIONS_SQL = `select
  (select json_object_agg(v.product_id, v.variants) from (
     select pv.product_id, json_agg(json_build_object('code', pv.code, 'ean', pv.ean) order by pv.id) as variants
     from unnest(array[$1::integer]) as k(eshop_id) cross join unnest($2::bigint[]) as x(product_id)
     join product_variants pv on pv.eshop_id = k.eshop_id and pv.product_id = x.product_id
     group by pv.product_id) v) as variants,
  (select json_object_agg(b.external_id, b.name)
     from unnest(array[$3::integer]) as k(eshop_id) cross join unnest($4::text[]) as x(external_id)
     join brands b on b.eshop_id = k.eshop_id and b.external_id = x.external_id) as brands,
  (select json_object_agg(t.product_id, t.parameters) from (
     select g.product_id, json_agg(json_build_object(
         'id', p.external_id, 'name', p.name, 'names', p.name_translations, 'values', r.vals
       ) order by g.first) as parameters
     from (
       select l.eshop_id, l.product_id, l.parameter_id, min(l.position) as first,
         array_agg(v.value order by v.external_id) filter (where v.id is not null) as chosen
       from unnest(array[$5::integer]) as k(eshop_id) cross join unnest($6::bigint[]) as x(product_id)
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
     group by g.product_id) t) as parameters`;

export function relationsBindings(
  eshopId: number,
  products: ReadonlyArray<{ id: number; brandId: string | null }>,
): unknown[] {
  const ids = [...new Set(products.map((p) => p.id))];
  const brands = [...new Set(products.flatMap((p) => (p.brandId === null ? [] : [p.brandId])))];
  return [eshopId, ids, eshopId, brands, eshopId, ids];
}

/**
 * The content columns of contentRepository.saveMany, in knex's insert order (alphabetical),
 * after the three key columns. A new content column goes here (and in the merge list below).
 */
export const CONTENT_COLUMNS = [
  'html',
  'languages_complete',
  'list_json',
  'list_json_seo',
  'marketplace',
  'nested',
  'origin',
  'rich_snippet',
  'site_link',
  'tree',
] as const;
/** What the upsert replaces on conflict, in contentRepository.saveMany's order. */
const MERGED = [
  'origin',
  'tree',
  'html',
  'marketplace',
  'nested',
  'site_link',
  'rich_snippet',
  'languages_complete',
  'list_json',
  'list_json_seo',
];
const ROW_WIDTH = 3 + CONTENT_COLUMNS.length;

export type ContentColumns = Record<(typeof CONTENT_COLUMNS)[number], string>;

/** contentRepository.saveMany of n products. */
export function upsertContentsSql(n: number): string {
  const rows = Array.from({ length: n }, (_, i) => `(${params(1 + i * ROW_WIDTH, ROW_WIDTH)})`);
  return (
    'insert into "content" ("entity_type", "eshop_id", "external_id", ' +
    CONTENT_COLUMNS.map((c) => `"${c}"`).join(', ') +
    `) values ${rows.join(', ')} ` +
    'on conflict ("eshop_id", "entity_type", "external_id") do update set ' +
    MERGED.map((c) => `"${c}" = excluded."${c}"`).join(',') +
    ',"updated_at" = CURRENT_TIMESTAMP(6)'
  );
}

/** The upsert's bindings: per item its keys, then its columns (contentColumns' JSON text). */
export function upsertContentsBindings(
  eshopId: number,
  rows: ReadonlyArray<{ externalId: string; columns: ContentColumns }>,
): unknown[] {
  const out: unknown[] = [];
  for (const { externalId, columns } of rows) {
    out.push('product', eshopId, externalId);
    for (const c of CONTENT_COLUMNS) out.push(columns[c]);
  }
  return out;
}

/** catalogueRepository.markRenderedMany of products (UPDATE … FROM the keys, plan-proof). */
export const MARK_RENDERED_SQL =
  'update "products" as e set status = $1, is_loaded = true, updated_at = current_timestamp(6) ' +
  'from unnest(array[$2::integer]) as k(eshop_id) cross join unnest($3::text[]) as x(external_id) ' +
  "where e.eshop_id = k.eshop_id and e.external_id = x.external_id and e.status = 'generate' " +
  'returning e.external_id';

export function markRenderedBindings(
  status: 'ready' | 'review',
  eshopId: number,
  externalIds: readonly string[],
): unknown[] {
  return [status, eshopId, [...new Set(externalIds)]];
}

/** eventsRepository.append: the job's item.content_ready events (numbered as the transaction commits). */
export const APPEND_EVENTS_SQL = `with block as materialized (select nextval('events_provisional_seq') as b)
       insert into events (eshop_id, seq, type, entity_type, external_id, data, traceparent)
       select $1, -(block.b * 1000000 + e.ord), e.value->>'type', e.value->>'entity_type',
              e.value->>'external_id', e.value->'data', $2::text
       from block, jsonb_array_elements($3::jsonb) with ordinality as e(value, ord)`;

/** One item.content_ready per product marked, in the order of the locked items (no trace). */
export function appendEventsBindings(
  status: 'ready' | 'review',
  eshopId: number,
  externalIds: readonly string[],
): unknown[] {
  const events = externalIds.map((externalId) => ({
    type: 'item.content_ready',
    entity_type: 'product',
    external_id: externalId,
    data: { status },
  }));
  return [eshopId, null, JSON.stringify(events)];
}
