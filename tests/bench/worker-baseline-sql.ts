// The SQL the bare worker of the worker benchmark runs: the statements renderContent
// (libs/content-store/src/render-content.ts) runs to store an item's content,
// as knex generates them, copied here. worker.bench.ts renders one seeded product with the real
// renderContent at the start of every run and stops when these differ from what it ran.
//
// Left out on purpose (they feed composition, not the write): the lookup of the item's stored
// content, the reads of its brand, parameters and variants, and the three reads of the design.

/** eshopsRepository.findById. */
export const ESHOP_SQL =
  'select "eshops"."id", "eshops"."name", "eshops"."languages", "eshops"."enable_site_link", ' +
  '"eshops"."enable_rich_snippet", "eshops"."review_required", ' +
  `to_char(eshops.licence_valid_until, 'YYYY-MM-DD') as licence_valid_until, ` +
  '"eshops"."rate_limit_per_minute", "eshops"."created_at", "eshops"."updated_at" from "eshops" where "eshops"."id" = $1 limit $2';

export function eshopBindings(eshopId: number): unknown[] {
  return [eshopId, 1];
}

/** catalogueRepository.findForUpdate of one product. */
export const LOCK_ITEM_SQL =
  'select "id", "external_id", "status", "is_visible", "is_delete", "name", "url", "description", ' +
  '"seo_title", "seo_description", "short_description", "images", "brand_id", "categories_ids", ' +
  '"parameters_ids" from "products" where "eshop_id" = $1 and "external_id" in ($2) order by "id" asc for update';

export function lockItemBindings(eshopId: number, externalId: string): unknown[] {
  return [eshopId, externalId];
}

/** The stored content of an item, as contentRepository.save receives it: JSON text per column. */
export interface ContentColumns {
  origin: string;
  tree: string;
  html: string;
  marketplace: string;
  nested: string;
  site_link: string;
  rich_snippet: string;
}

/** contentRepository.save of a product. */
export const UPSERT_CONTENT_SQL =
  'insert into "content" ("entity_type", "eshop_id", "external_id", "html", "marketplace", "nested", ' +
  '"origin", "rich_snippet", "site_link", "tree") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ' +
  'on conflict ("eshop_id", "entity_type", "external_id") do update set "origin" = $11,"tree" = $12,' +
  '"html" = $13,"marketplace" = $14,"nested" = $15,"site_link" = $16,"rich_snippet" = $17,' +
  '"updated_at" = CURRENT_TIMESTAMP(6)';

export function upsertContentBindings(eshopId: number, externalId: string, c: ContentColumns): unknown[] {
  return [
    'product',
    eshopId,
    externalId,
    c.html,
    c.marketplace,
    c.nested,
    c.origin,
    c.rich_snippet,
    c.site_link,
    c.tree,
    c.origin,
    c.tree,
    c.html,
    c.marketplace,
    c.nested,
    c.site_link,
    c.rich_snippet,
  ];
}

/** Reads the content columns back from the bindings of a captured contentRepository.save. */
export function contentFromBindings(bindings: readonly unknown[]): ContentColumns {
  const at = (i: number) => {
    const value = bindings[i];
    if (typeof value !== 'string') throw new Error(`content binding ${i} is not a string`);
    return value;
  };
  return {
    html: at(3),
    marketplace: at(4),
    nested: at(5),
    origin: at(6),
    rich_snippet: at(7),
    site_link: at(8),
    tree: at(9),
  };
}

/** catalogueRepository.markRendered of a product. */
export const MARK_RENDERED_SQL =
  'update "products" set "status" = $1, "is_loaded" = $2, "updated_at" = CURRENT_TIMESTAMP(6) ' +
  'where "eshop_id" = $3 and "external_id" = $4 and "status" = $5';

export function markRenderedBindings(
  status: 'ready' | 'review',
  eshopId: number,
  externalId: string,
): unknown[] {
  return [status, true, eshopId, externalId, 'generate'];
}
