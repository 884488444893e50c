// The SQL the bare worker of the worker benchmark runs: the statements renderContents
// (libs/content-store/src/render-content.ts) runs to store the content of a job's items, set-based
// (one statement each for the whole job), as knex generates them for n items, copied here.
// worker.bench.ts renders two seeded products with the real renderContents at the start of every
// run and stops when these differ from what it ran.
//
// Left out on purpose (they feed composition, not the write): the locking read of the items'
// stored content, the read of their brands, parameters and variants, and the reads of the design.

/** eshopsRepository.findById. */
export const ESHOP_SQL =
  'select "eshops"."id", "eshops"."name", "eshops"."languages", "eshops"."enable_site_link", ' +
  '"eshops"."enable_rich_snippet", "eshops"."review_required", ' +
  `to_char(eshops.licence_valid_until, 'YYYY-MM-DD') as licence_valid_until, ` +
  '"eshops"."rate_limit_per_minute", "eshops"."content_fallback", "eshops"."default_language", ' +
  '"eshops"."created_at", "eshops"."updated_at" from "eshops" where "eshops"."id" = $1 limit $2';

export function eshopBindings(eshopId: number): unknown[] {
  return [eshopId, 1];
}

/** `$from, $from+1, …` for n values. */
const params = (from: number, n: number): string =>
  Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');

/** catalogueRepository.findForUpdate of the job's products, joined on the keys (plan-proof). */
export function lockItemsSql(): string {
  return (
    'select "e"."id", "e"."external_id", "e"."status", "e"."is_visible", "e"."is_delete", "e"."name", ' +
    '"e"."url", "e"."description", "e"."seo_title", "e"."seo_description", "e"."short_description", ' +
    '"e"."images", "e"."brand_id", "e"."categories_ids", "e"."parameters_ids", "e"."parameter_values" ' +
    'from unnest(array[$1::integer]) as k(eshop_id) cross join unnest($2::text[]) as x(external_id) ' +
    'inner join "products" as "e" on "e"."eshop_id" = "k"."eshop_id" and "e"."external_id" = "x"."external_id" ' +
    'order by "e"."id" asc for update of "e"'
  );
}

export function lockItemsBindings(eshopId: number, externalIds: readonly string[]): unknown[] {
  return [eshopId, [...new Set(externalIds)]];
}

/** The stored content of an item, as contentRepository.save receives it: JSON text per column. */
export interface ContentColumns {
  origin: string;
  tree: string;
  html: string;
  languages_complete: string;
  /** The list's pieces of the outputs (contentListJson), written with them. */
  list_json: string;
  marketplace: string;
  nested: string;
  site_link: string;
  rich_snippet: string;
}

export const CONTENT_COLUMNS = 12;

/** contentRepository.saveMany of n products. */
export function upsertContentsSql(n: number): string {
  const rows = Array.from({ length: n }, (_, i) => `(${params(1 + i * CONTENT_COLUMNS, CONTENT_COLUMNS)})`);
  return (
    'insert into "content" ("entity_type", "eshop_id", "external_id", "html", "languages_complete", "list_json", "marketplace", "nested", ' +
    `"origin", "rich_snippet", "site_link", "tree") values ${rows.join(', ')} ` +
    'on conflict ("eshop_id", "entity_type", "external_id") do update set "origin" = excluded."origin",' +
    '"tree" = excluded."tree","html" = excluded."html","marketplace" = excluded."marketplace",' +
    '"nested" = excluded."nested","site_link" = excluded."site_link","rich_snippet" = excluded."rich_snippet",' +
    '"languages_complete" = excluded."languages_complete","list_json" = excluded."list_json",' +
    '"updated_at" = CURRENT_TIMESTAMP(6)'
  );
}

export function upsertContentsBindings(
  eshopId: number,
  externalIds: readonly string[],
  c: ContentColumns,
): unknown[] {
  return externalIds.flatMap((externalId) => [
    'product',
    eshopId,
    externalId,
    c.html,
    c.languages_complete,
    c.list_json,
    c.marketplace,
    c.nested,
    c.origin,
    c.rich_snippet,
    c.site_link,
    c.tree,
  ]);
}

/** Reads the first item's content columns back from the bindings of a captured saveMany. */
export function contentFromBindings(bindings: readonly unknown[]): ContentColumns {
  const at = (i: number) => {
    const value = bindings[i];
    if (typeof value !== 'string') throw new Error(`content binding ${i} is not a string`);
    return value;
  };
  return {
    html: at(3),
    languages_complete: at(4),
    list_json: at(5),
    marketplace: at(6),
    nested: at(7),
    origin: at(8),
    rich_snippet: at(9),
    site_link: at(10),
    tree: at(11),
  };
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

/** eventsRepository.append: the job's item.content_ready events, last in its transaction. */
export const APPEND_EVENTS_SQL = `with reserved as (
         insert into event_sequences as s (eshop_id, last_seq) values ($1, $2)
         on conflict (eshop_id) do update set last_seq = s.last_seq + excluded.last_seq
         returning last_seq
       )
       insert into events (eshop_id, seq, type, entity_type, external_id, data)
       select $3, reserved.last_seq - $4 + e.ord, e.value->>'type', e.value->>'entity_type',
              e.value->>'external_id', e.value->'data'
       from reserved, jsonb_array_elements($5::jsonb) with ordinality as e(value, ord)
       order by e.ord
       returning seq`;

/** One item.content_ready per product marked, in the order of the locked items. */
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
  return [eshopId, events.length, eshopId, events.length, JSON.stringify(events)];
}
