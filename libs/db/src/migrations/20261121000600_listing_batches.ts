// Why: e-shops upload product feeds (listing batches); each row is enriched by the worker
// and read back through GET /api/v2/rest/listing/{batch_id}/product.
import type { Knex } from 'knex';

export const LISTING_ROW_STATUSES = ['pending', 'processing', 'done', 'failed'] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('listing_batches', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigIncrements('id').primary();
    t.string('format', 8).notNullable();
    t.integer('rows_total').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.index(['eshop_id', 'id']);
  });
  await db.schema.createTable('listing_rows', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigIncrements('id').primary();
    t.bigInteger('batch_id').notNullable().references('id').inTable('listing_batches').onDelete('CASCADE');
    t.string('external_id', 255).notNullable();
    t.string('status', 16).notNullable().defaultTo('pending');
    // {<field>: {value, source}} and [{label, value, source, confidence?, reference?}].
    t.jsonb('field').notNullable().defaultTo('{}');
    t.jsonb('parameter').notNullable().defaultTo('[]');
    t.text('error_message').nullable();
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.index(['batch_id', 'id']);
    t.check(
      `?? in (${LISTING_ROW_STATUSES.map((s) => `'${s}'`).join(', ')})`,
      ['status'],
      'listing_rows_status_known',
    );
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('listing_rows');
  await db.schema.dropTable('listing_batches');
}
