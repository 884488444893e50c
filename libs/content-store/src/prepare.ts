import { migrateLatest, withMigrationLock, type Knex } from '@catalogue/db';
import { seedCatalogue } from './seed/catalogue.seed';

/**
 * Everything a database needs before services use it: pending migrations, then the public
 * widget catalogue, designs and prompts (idempotent). Returns the migrations applied.
 */
export async function prepareDatabase(db: Knex): Promise<string[]> {
  // Under the migration lock, so copies run at once seed one after the other too.
  return withMigrationLock(db, async () => {
    const applied = await migrateLatest(db);
    await seedCatalogue(db);
    return applied;
  });
}
