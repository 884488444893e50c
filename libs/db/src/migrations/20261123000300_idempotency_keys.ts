// Why: a client retrying a POST after a timeout must not import, fill or charge twice
// (draft-ietf-httpapi-idempotency-key-header). The first request's outcome is kept per eshop
// and key for 24 hours, in PostgreSQL so it survives restarts and every replica sees it; the
// primary key is what makes two concurrent requests with one key impossible to both run.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('idempotency_keys', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.string('key', 255).notNullable();
    // SHA-256 (hex) of method, path, query and body: another request with the key is refused.
    t.specificType('fingerprint', 'char(64)').notNullable();
    // Which attempt holds the key while it runs; only that attempt may store the outcome.
    t.uuid('lock_id').notNullable();
    // NULL while the first request runs; then the response that is replayed.
    t.integer('response_status').nullable();
    t.text('response_body').nullable();
    t.string('response_content_type', 255).nullable();
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    // A running row older than this was abandoned (its process died): another attempt may take it.
    t.timestamp('locked_until', { useTz: true, precision: 6 }).notNullable();
    t.timestamp('expires_at', { useTz: true, precision: 6 }).notNullable();
    t.primary(['eshop_id', 'key']);
    // The sweeper deletes expired keys in batches.
    t.index(['expires_at']);
    t.check(
      'response_status is null or response_status between 200 and 299',
      [],
      'idempotency_keys_status_2xx',
    );
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('idempotency_keys');
}
