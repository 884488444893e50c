// The stale-work sweeper pages through items waiting in `generate` and unfinished listing rows
// every minute; without an index each page read the whole table. Partial: only the few rows
// waiting are indexed.
import type { Knex } from 'knex';

const TABLES = ['products', 'categories', 'brands', 'blogs'];

export async function up(db: Knex): Promise<void> {
  for (const table of TABLES) {
    await db.raw(`create index ?? on ?? (id) where status = 'generate' and not is_delete`, [
      `${table}_waiting_for_render`,
      table,
    ]);
  }
  await db.raw(
    `create index listing_rows_unfinished on listing_rows (id) where status in ('pending', 'processing')`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index if exists listing_rows_unfinished');
  for (const table of TABLES) await db.raw('drop index if exists ??', [`${table}_waiting_for_render`]);
}
