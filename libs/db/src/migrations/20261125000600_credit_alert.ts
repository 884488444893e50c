// An eshop may ask to hear when its credit balance falls below a level it sets: the
// settlement that charges the balance from at or above the level to below it writes a
// `credits.low` event (the change feed and webhooks carry it). Null: no alert.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table credit_accounts
    add column low_balance_threshold integer,
    add constraint credit_accounts_low_balance_threshold_not_negative check (low_balance_threshold >= 0)`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table credit_accounts drop column if exists low_balance_threshold');
}
