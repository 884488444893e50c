// Lists page through an eshop's listed rows in internal-id order and count them. The list
// indexes of 20261121000400 held (eshop_id, id) only, so every row the page skipped or the count
// counted was read from the heap to check `is_loaded` (the v2 default is_edited=1). These carry
// is_loaded as well: the page's ids and the total come from the index alone (index-only scans
// where the visibility map allows), and only the 100 rows of the page are read from the heap.
// Same names, same predicates; the old indexes are replaced, not kept beside the new ones.
import type { Knex } from 'knex';

const LISTED: Record<string, string> = {
  products: `status = 'ready' and not is_delete`,
  categories: `status = 'ready' and not is_delete`,
  blogs: `status = 'ready' and not is_delete`,
  brands: 'not is_delete',
};

export async function up(db: Knex): Promise<void> {
  for (const [table, listed] of Object.entries(LISTED)) {
    await db.raw(`drop index ${table}_list_idx`);
    await db.raw(
      `create index ${table}_list_idx on ${table} (eshop_id, id) include (is_loaded) where ${listed}`,
    );
  }
}

export async function down(db: Knex): Promise<void> {
  for (const [table, listed] of Object.entries(LISTED)) {
    await db.raw(`drop index ${table}_list_idx`);
    await db.raw(`create index ${table}_list_idx on ${table} (eshop_id, id) where ${listed}`);
  }
}
