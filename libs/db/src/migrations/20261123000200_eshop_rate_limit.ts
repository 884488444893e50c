// Why: a large eshop syncing its catalogue needs a bigger request budget than the default;
// operators set one per eshop (`eshop set ID --rate-limit N`) and every replica reads it with
// the token lookup. NULL means the configured defaults (RATE_LIMIT_*).
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('eshops', (t) => {
    t.integer('rate_limit_per_minute').nullable();
    t.check(
      'rate_limit_per_minute is null or rate_limit_per_minute between 1 and 1000000',
      [],
      'eshops_rate_limit_positive',
    );
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('eshops', (t) => {
    t.dropChecks('eshops_rate_limit_positive');
    t.dropColumn('rate_limit_per_minute');
  });
}
