import { migrateLatest, withMigrationLock, type Knex } from '@catalogue/db';
import { markStoredSamples } from './legacy-samples';
import { seedCatalogue } from './seed/catalogue.seed';

/** Applied together with sample marking: the repair of trees stored before runs with it, once. */
const SAMPLE_REPAIR_WITH = '20261126000300_entity_default_design';

/**
 * Everything a database needs before services use it: pending migrations, then the public
 * widget catalogue, designs and prompts (idempotent), then — once, in the deploy that brings
 * sample marking — the marking of samples in content stored before (`markStoredSamples`).
 * Returns the migrations applied.
 */
export async function prepareDatabase(db: Knex): Promise<string[]> {
  // Under the migration lock, so copies run at once seed (and repair) one after the other too:
  // only the copy that applied the marking's migration repairs.
  return withMigrationLock(db, async () => {
    const applied = await migrateLatest(db);
    await seedCatalogue(db);
    // After the seed: the repair reads the catalogue's widgets.
    if (applied.includes(SAMPLE_REPAIR_WITH)) await markStoredSamples(db);
    return applied;
  });
}
