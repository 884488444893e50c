// Why: Redis was the only record of two kinds of unfinished work, so a Redis that came back empty
// lost them for good. (1) The webhook relay moved each endpoint's cursor as soon as it had queued
// the delivery jobs: lost jobs were never queued again, and the lag metric said 0.
// `webhook_pending_deliveries` now holds every relayed event of an endpoint until its delivery
// succeeded or finally failed; the relay queues again whatever is pending with no live job.
// `delivery_tracked_from` is the cursor at this migration: jobs queued before it have no pending
// row and are still sent. (2) A finished generation job whose `settle-<id>` job Redis lost kept
// its credit reservation forever: `reservation_settled` is set by the settlement (under the
// account lock), and the partial index lets the sweeper find finished, unsettled jobs without
// reading every finished job (docs/decisions/0043-redis-loses-nothing-postgresql-committed-webhook.md, "Redis loses nothing PostgreSQL committed").
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table webhook_endpoints add column delivery_tracked_from bigint not null default 0`);
  await db.raw(`update webhook_endpoints set delivery_tracked_from = last_seq`);
  await db.schema.createTable('webhook_pending_deliveries', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigInteger('endpoint_id').notNullable();
    t.bigInteger('seq').notNullable();
    t.timestamp('queued_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('claimed_at', { useTz: true, precision: 6 });
    t.primary(['endpoint_id', 'seq']);
    t.foreign(['eshop_id', 'endpoint_id'])
      .references(['eshop_id', 'id'])
      .inTable('webhook_endpoints')
      .onDelete('CASCADE');
  });

  await db.raw(`alter table generation_jobs add column reservation_settled boolean not null default false`);
  // Every job settled before this migration, or never holding a reservation, is settled; a
  // finished job with a reservation and no charge or release is left for the sweeper.
  await db.raw(`update generation_jobs j set reservation_settled = true
    where exists (select 1 from credit_ledger l where l.eshop_id = j.eshop_id and l.job_id = j.id
                    and l.kind in ('charge', 'release'))
       or not exists (select 1 from credit_ledger l where l.eshop_id = j.eshop_id and l.job_id = j.id
                        and l.kind = 'reservation')`);
  await db.raw(`create index generation_jobs_unsettled on generation_jobs (id)
    where status in ('done', 'failed') and not reservation_settled`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index if exists generation_jobs_unsettled');
  await db.raw('alter table generation_jobs drop column reservation_settled');
  await db.schema.dropTable('webhook_pending_deliveries');
  await db.raw('alter table webhook_endpoints drop column delivery_tracked_from');
}
