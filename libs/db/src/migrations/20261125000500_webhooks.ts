// Why: clients want changes pushed to them, signed and retried, never lost
// (webhooks). An eshop registers endpoints (URL, event types, a secret shown once); a relay
// in the generation worker moves committed events to delivery jobs, remembering per endpoint the
// last event number it relayed (`last_seq`), so a restart resumes where it stopped and no number
// is skipped. Each delivery attempt is logged (the last 1,000 per endpoint), an endpoint failing
// for the whole failure window is disabled, and clients may ask for events to be sent again.
// Tenancy is the database's: every row names its endpoint (and event) through keys that include
// the eshop (docs/decisions/0016-tenant-isolation-in-the-database.md, "Tenant isolation in the database").
import type { Knex } from 'knex';
// The event types as the events migration froze them (a migration never reads live code).
import { EVENT_TYPES } from './20261125000200_events';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhook_endpoints', (t) => {
    t.bigIncrements('id').primary();
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.text('url').notNullable();
    // The types delivered; the API stores all six when the client asks for all.
    t.specificType('event_types', 'text[]').notNullable();
    // `whsec_` + base64 of random bytes; the worker needs it to sign, so it is kept as such and
    // shown to the client only in the answer that created it.
    t.text('secret').notNullable();
    // The number of the eshop's last event relayed to this endpoint (0: none yet).
    t.bigInteger('last_seq').notNullable();
    // When the current run of failed deliveries began (null: the last attempt succeeded).
    t.timestamp('failing_since', { useTz: true, precision: 6 });
    t.timestamp('disabled_at', { useTz: true, precision: 6 });
    t.text('disabled_reason');
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.unique(['eshop_id', 'id']);
    t.check('char_length(url) between 1 and 2048', [], 'webhook_endpoints_url_length');
    t.check(
      `cardinality(event_types) between 1 and ${EVENT_TYPES.length} and event_types <@ array[${EVENT_TYPES.map((type) => `'${type}'`).join(', ')}]::text[]`,
      [],
      'webhook_endpoints_event_types_known',
    );
    t.check('last_seq >= 0', [], 'webhook_endpoints_last_seq_not_negative');
    t.check(
      '(disabled_at is null) = (disabled_reason is null)',
      [],
      'webhook_endpoints_disabled_with_reason',
    );
  });
  // The relay reads the enabled endpoints every second.
  await db.raw('create index webhook_endpoints_enabled on webhook_endpoints (id) where disabled_at is null');

  await db.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id').primary();
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigInteger('endpoint_id').notNullable();
    t.bigInteger('seq').notNullable();
    t.integer('attempt').notNullable();
    t.integer('status_code');
    t.text('error');
    t.integer('latency_ms').notNullable();
    // The first characters of the answer, no more (receivers may echo what they got).
    t.text('response_excerpt');
    t.timestamp('at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.foreign(['eshop_id', 'endpoint_id'])
      .references(['eshop_id', 'id'])
      .inTable('webhook_endpoints')
      .onDelete('CASCADE');
    t.foreign(['eshop_id', 'seq']).references(['eshop_id', 'seq']).inTable('events').onDelete('CASCADE');
    t.check('attempt >= 1', [], 'webhook_deliveries_attempt_positive');
    t.check('status_code is not null or error is not null', [], 'webhook_deliveries_outcome');
    t.check('char_length(response_excerpt) <= 256', [], 'webhook_deliveries_excerpt_short');
    t.check('char_length(error) <= 500', [], 'webhook_deliveries_error_short');
    // The log reads an endpoint's newest attempts, and trimming finds its 1,000th.
    t.index(['endpoint_id', 'id']);
    // The events' key is (eshop_id, seq): deleting an eshop's events finds these rows.
    t.index(['eshop_id', 'seq']);
  });

  await db.schema.createTable('webhook_redeliveries', (t) => {
    t.bigIncrements('id').primary();
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigInteger('endpoint_id').notNullable();
    // The next event number to send again, and the last one asked for.
    t.bigInteger('next_seq').notNullable();
    t.bigInteger('to_seq').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.foreign(['eshop_id', 'endpoint_id'])
      .references(['eshop_id', 'id'])
      .inTable('webhook_endpoints')
      .onDelete('CASCADE');
    t.check('next_seq >= 1 and to_seq >= 1', [], 'webhook_redeliveries_seq_positive');
    t.index(['eshop_id', 'endpoint_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('webhook_redeliveries');
  await db.schema.dropTable('webhook_deliveries');
  await db.schema.dropTable('webhook_endpoints');
}
