// Why: clients keep their copy of the catalogue in step without re-reading it (a change feed
// with deletions and signed webhooks, never lost). Every change writes its events
// in the transaction of the change (a transactional outbox), so an event exists exactly when its
// change committed. Each eshop's events are numbered 1, 2, 3… without gaps: the number comes from
// the eshop's row in `event_sequences`, updated in the same transaction, so a rolled-back change
// uses no number and concurrent writers of one eshop take numbers in commit order (writers of
// other eshops never wait). A reader that remembers the last number it saw never misses one.
import type { Knex } from 'knex';

// The types this migration knows; a later type needs a migration that widens the check.
export const EVENT_TYPES = [
  'item.created',
  'item.updated',
  'item.deleted',
  'item.content_ready',
  'generation.succeeded',
  'generation.failed',
  'listing.batch_finished',
  'credits.low',
] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('event_sequences', (t) => {
    t.integer('eshop_id').primary().references('id').inTable('eshops').onDelete('CASCADE');
    // The number of the eshop's newest event (0: none yet).
    t.bigInteger('last_seq').notNullable().defaultTo(0);
    t.check('last_seq >= 0', [], 'event_sequences_last_seq_not_negative');
  });

  await db.schema.createTable('events', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigInteger('seq').notNullable();
    t.text('type').notNullable();
    t.text('entity_type').notNullable();
    t.text('external_id').notNullable();
    t.timestamp('occurred_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    // What a client needs to act on the event (a status, a job id), never the content itself:
    // the client reads that from the lists. The check keeps it small whoever writes.
    t.jsonb('data').notNullable().defaultTo('{}');
    // The feed reads (eshop_id, seq > cursor) in order: the primary key is its index.
    t.primary(['eshop_id', 'seq']);
    t.check('seq >= 1', [], 'events_seq_positive');
    t.check(`type in (${EVENT_TYPES.map((type) => `'${type}'`).join(', ')})`, [], 'events_type_known');
    t.check("jsonb_typeof(data) = 'object' and octet_length(data::text) <= 1024", [], 'events_data_small');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('events');
  await db.schema.dropTable('event_sequences');
}
