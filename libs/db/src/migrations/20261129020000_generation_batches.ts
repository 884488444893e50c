// Why: a shop asks for generated content over many catalogue items at once (a bulk generation,
// beyond the specification) and must be sure it never spends more than the budget it gave. A
// batch row holds the budget and what its items hold reserved and were charged; a CHECK keeps
// reserved + charged within the budget whatever code runs, and each item becomes at most one
// generation job (a unique job per item), so the credit ledger's unique (job, kind) charges
// each item at most once.
import type { Knex } from 'knex';
import { EVENT_TYPES as EARLIER_EVENT_TYPES } from './20261125000200_events';

export const GENERATION_BATCH_STATUSES = ['queued', 'running', 'paused', 'cancelled', 'finished'] as const;
export const GENERATION_BATCH_ITEM_STATUSES = ['queued', 'running', 'done', 'failed', 'left_out'] as const;

const EVENT_TYPES = [...EARLIER_EVENT_TYPES, 'generation.batch_finished'];
const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

async function eventChecks(db: Knex, types: readonly string[]): Promise<void> {
  await db.raw('alter table events drop constraint events_type_known');
  await db.raw(`alter table events add constraint events_type_known check (type in (${list(types)}))`);
  await db.raw('alter table webhook_endpoints drop constraint webhook_endpoints_event_types_known');
  await db.raw(
    `alter table webhook_endpoints add constraint webhook_endpoints_event_types_known check (
       cardinality(event_types) between 1 and ${types.length} and event_types <@ array[${list(types)}]::text[])`,
  );
}

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('generation_batches', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigIncrements('id', { primaryKey: false });
    t.primary(['eshop_id', 'id']);
    t.string('status', 16).notNullable().defaultTo('queued');
    t.string('entity_type', 16).notNullable();
    t.specificType('languages', 'text[]').notNullable();
    t.integer('design_id').nullable();
    t.integer('prompt_id').nullable();
    // Credits: the most the batch may ever hold reserved plus charge, the estimate it started
    // from, and what its items hold reserved and were charged now.
    t.bigInteger('budget').notNullable();
    t.bigInteger('estimate').notNullable();
    t.bigInteger('reserved').notNullable().defaultTo(0);
    t.bigInteger('charged').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('finished_at', { useTz: true, precision: 6 }).nullable();
    t.check(`?? in (${list(GENERATION_BATCH_STATUSES)})`, ['status'], 'generation_batches_status_known');
    t.check('budget > 0 and estimate >= 0', [], 'generation_batches_budget_positive');
    t.check(
      'reserved >= 0 and charged >= 0 and reserved + charged <= budget',
      [],
      'generation_batches_within_budget',
    );
    t.check('cardinality(languages) >= 1', [], 'generation_batches_languages');
  });
  // The batches still moving, for the sweeper (however many have ever finished).
  await db.raw(
    `create index generation_batches_moving on generation_batches (id) where status in ('queued', 'running')`,
  );

  await db.schema.createTable('generation_batch_items', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigIncrements('id', { primaryKey: false });
    t.primary(['eshop_id', 'id']);
    t.bigInteger('batch_id').notNullable();
    t.string('entity_id', 255).notNullable();
    t.string('lang', 8).notNullable();
    t.string('status', 16).notNullable().defaultTo('queued');
    t.bigInteger('job_id').nullable();
    t.integer('reserved').notNullable().defaultTo(0);
    t.integer('charged').notNullable().defaultTo(0);
    t.string('error_code', 64).nullable();
    t.text('error_message').nullable();
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.foreign(['eshop_id', 'batch_id'], 'generation_batch_items_batch_same_eshop_fk')
      .references(['eshop_id', 'id'])
      .inTable('generation_batches')
      .onDelete('CASCADE');
    t.foreign(['eshop_id', 'job_id'], 'generation_batch_items_job_same_eshop_fk')
      .references(['eshop_id', 'id'])
      .inTable('generation_jobs')
      .onDelete('SET NULL');
    // One item per entity and language of a batch.
    t.unique(['eshop_id', 'batch_id', 'entity_id', 'lang'], { indexName: 'generation_batch_items_one' });
    t.check(
      `?? in (${list(GENERATION_BATCH_ITEM_STATUSES)})`,
      ['status'],
      'generation_batch_items_status_known',
    );
    t.check('reserved >= 0 and charged >= 0', [], 'generation_batch_items_credits');
    // Only a finished item was charged, and a job only for an item that was started.
    t.check(
      "(charged = 0 or status = 'done') and (job_id is null or status <> 'queued')",
      [],
      'generation_batch_items_charged_when_done',
    );
  });
  // An item is at most one generation job, and a job at most one item: the ledger's unique
  // (job, kind) then charges each item at most once.
  await db.raw(
    `create unique index generation_batch_items_one_job on generation_batch_items (eshop_id, job_id)
     where job_id is not null`,
  );
  // The dispatcher reads a batch's queued items in id order, the counts group by status.
  await db.raw(
    'create index generation_batch_items_by_status on generation_batch_items (eshop_id, batch_id, status, id)',
  );
  await eventChecks(db, EVENT_TYPES);
}

export async function down(db: Knex): Promise<void> {
  await db('webhook_endpoints')
    .update({ event_types: db.raw(`array_remove(event_types, 'generation.batch_finished')`) })
    .whereRaw(`'generation.batch_finished' = any(event_types)`);
  await db('events').where({ type: 'generation.batch_finished' }).delete();
  await eventChecks(db, EARLIER_EVENT_TYPES);
  await db.schema.dropTable('generation_batch_items');
  await db.schema.dropTable('generation_batches');
}
