// Why: an eshop is created with a credit balance (admin CLI `--credits`), and every
// change of a balance must be explained by an append-only ledger row.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('credit_accounts', (t) => {
    t.integer('eshop_id').primary().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigInteger('balance').notNullable().defaultTo(0);
    t.bigInteger('reserved').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.check('?? >= 0', ['balance'], 'credit_accounts_balance_not_negative');
    t.check(
      '?? >= 0 and ?? <= ??',
      ['reserved', 'reserved', 'balance'],
      'credit_accounts_reserved_within_balance',
    );
  });

  await db.schema.createTable('credit_ledger', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigIncrements('id').primary();
    t.string('kind', 16).notNullable();
    // Signed change of `balance` and of `reserved`: sum(amount) = balance and
    // sum(reserved_delta) = reserved hold for every account at all times.
    t.bigInteger('amount').notNullable();
    t.bigInteger('reserved_delta').notNullable().defaultTo(0);
    t.bigInteger('job_id').nullable();
    t.text('reason').nullable();
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.check(
      `?? in ('topup', 'reservation', 'charge', 'release', 'adjustment')`,
      ['kind'],
      'credit_ledger_kind_known',
    );
    t.index(['eshop_id', 'id']);
  });
  // A retried settlement or reservation of the same job must be a no-op.
  await db.raw(
    'create unique index credit_ledger_job_kind_unique on credit_ledger (eshop_id, job_id, kind) where job_id is not null',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('credit_ledger');
  await db.schema.dropTable('credit_accounts');
}
