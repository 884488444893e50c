// Why: a list page of 100 products is about 1.4 MB of JSON that the list parsed from JSONB and
// serialised again on every request. Each entity row and each content row now also keeps its
// list pieces already serialised (`list_json`, libs/db/src/list-fragments.ts), written with the
// columns they come from: by every import (entity rows) and every render or edit (content rows).
// NULL for rows written before this migration until their next write; the list serves those from
// the JSONB columns as before.
//
// A trigger keeps the pieces from ever being stale: an UPDATE that changes a column the pieces
// come from without writing new pieces (a writer that does not know about them) sets them to
// NULL, and the list falls back to the columns for that row.
import type { Knex } from 'knex';

const SOURCES: Record<string, string[]> = {
  products: ['name', 'url', 'description', 'seo_title', 'seo_description', 'short_description', 'images'],
  categories: ['name', 'url', 'description', 'seo_title', 'seo_description'],
  brands: ['name', 'url', 'description', 'seo_title', 'seo_description', 'image_preview'],
  blogs: ['name', 'url', 'description', 'seo_title', 'seo_description', 'category'],
  content: ['html', 'marketplace', 'nested', 'site_link', 'rich_snippet', 'languages_complete'],
};

export async function up(db: Knex): Promise<void> {
  for (const [table, columns] of Object.entries(SOURCES)) {
    await db.schema.alterTable(table, (t) => {
      t.text('list_json').nullable();
    });
    const changed = columns.map((c) => `new.${c} is distinct from old.${c}`).join(' or ');
    await db.raw(`
      create function ${table}_list_json_guard() returns trigger language plpgsql as $$
      begin
        if new.list_json is not distinct from old.list_json and (${changed}) then
          new.list_json := null;
        end if;
        return new;
      end $$`);
    await db.raw(`
      create trigger ${table}_list_json_guard before update on ${table}
        for each row execute function ${table}_list_json_guard()`);
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of Object.keys(SOURCES)) {
    await db.raw(`drop trigger ${table}_list_json_guard on ${table}`);
    await db.raw(`drop function ${table}_list_json_guard()`);
    await db.schema.alterTable(table, (t) => {
      t.dropColumn('list_json');
    });
  }
}
