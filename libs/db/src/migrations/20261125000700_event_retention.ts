// Why: events are deleted after EVENT_RETENTION_DAYS by the stale-work sweeper (docs/decisions/0027-events-the-outbox-and-the-change.md,
// "Events"). It looks them up by age every minute; without an index each look would read the
// whole table, the largest one the service writes to.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw('create index events_occurred_at on events (occurred_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index if exists events_occurred_at');
}
