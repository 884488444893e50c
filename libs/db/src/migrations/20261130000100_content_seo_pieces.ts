// A content row's list pieces in two columns: `list_json` keeps the list's own outputs (html,
// marketplace, the nested tree, the complete languages) and the new `list_json_seo` the SEO
// outputs (site link, rich snippet), the larger half. A list page that does not include the SEO
// outputs (most) read and split all of them to send none: it now reads `list_json` alone
// (libs/db/src/list-fragments.ts, contentPiecesSql).
//
// The pieces already stored are rewritten here, once, into the new layout (its slots reordered
// so that the SEO outputs come last, then cut in two): a row of the layout before is not served
// by the new code (it would read that row from its columns until its next write) and a row of
// the new layout is not served by the code before (the same, the other way), so during a rolling
// update every list stays right. The layouts are written out: they name what the slots held on
// the day of this migration, whatever list-fragments.ts says later.
//
// The guard of 20261128000200_list_json covers the new column too: an UPDATE that changes the site
// link or the rich snippet without writing new `list_json_seo` (or the list's own outputs without
// new `list_json`) sets `list_json` to NULL, and the list reads that row from its columns; a
// write of the site link with its new pieces leaves `list_json` as it was.
import type { Knex } from 'knex';

/** The layout before: slot 1 the layout, 2–8 html, 9–15 marketplace, 16–43 the SEO outputs, 44 nested, 45 complete. */
const BEFORE = 'content/d869e5eb3e11';
/** The layout after: html, marketplace, nested, complete in `list_json`; the SEO outputs in `list_json_seo`. */
const AFTER = 'content/c5ff1e217a32';

/**
 * The content guard of 20261128000200_list_json. `seo`: each column of pieces guards its own
 * outputs (a write of the site link alone leaves `list_json` as it was); else, as before, the
 * one column guards them all.
 */
function guard(seo: boolean): string {
  const own = ['html', 'marketplace', 'nested', 'languages_complete'];
  const seoOutputs = ['site_link', 'rich_snippet'];
  const changed = (columns: string[]) =>
    columns.map((c) => `new.${c} is distinct from old.${c}`).join(' or ');
  const stale = (column: string, outputs: string[]) =>
    `(new.${column} is not distinct from old.${column} and (${changed(outputs)}))`;
  const condition = seo
    ? `${stale('list_json', own)} or ${stale('list_json_seo', seoOutputs)}`
    : stale('list_json', [...own, ...seoOutputs]);
  return `
    create or replace function content_list_json_guard() returns trigger language plpgsql as $$
    begin
      if ${condition} then
        new.list_json := null;
      end if;
      return new;
    end $$`;
}

export async function up(db: Knex): Promise<void> {
  await db.raw('alter table content add column list_json_seo text');
  await db.raw(guard(true));
  await db.raw(
    `update content c
        set list_json = array_to_string(array[?] || p.a[2:15] || p.a[44:45], chr(1)),
            list_json_seo = array_to_string(p.a[16:43], chr(1))
       from (select eshop_id, entity_type, external_id, string_to_array(list_json, chr(1)) as a
               from content
              where starts_with(list_json, ? || chr(1))) p
      where c.eshop_id = p.eshop_id and c.entity_type = p.entity_type and c.external_id = p.external_id`,
    [AFTER, BEFORE],
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw(
    `update content c
        set list_json = array_to_string(array[?] || p.a[2:15] || string_to_array(c.list_json_seo, chr(1)) || p.a[16:17], chr(1))
       from (select eshop_id, entity_type, external_id, string_to_array(list_json, chr(1)) as a
               from content
              where starts_with(list_json, ? || chr(1)) and list_json_seo is not null) p
      where c.eshop_id = p.eshop_id and c.entity_type = p.entity_type and c.external_id = p.external_id`,
    [BEFORE, AFTER],
  );
  await db.raw(guard(false));
  await db.raw('alter table content drop column list_json_seo');
}
