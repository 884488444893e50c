// The API processes keep what authentication reads (a token's eshop, an eshop's allowed origins)
// in memory. Every change to those tables — by the admin CLI, a migration or an operator's SQL —
// tells them at commit through NOTIFY, so a revoked token stops working on every replica at
// once (libs/http auth-cache.ts). Statement-level: one notification per statement, whatever
// it changed; a rolled-back change notifies nobody.
import type { Knex } from 'knex';

export const AUTH_CHANGED_CHANNEL = 'ccs_auth_changed';
const TABLES = ['eshops', 'api_tokens', 'white_label_tokens', 'allowed_origins'];

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create function ccs_notify_auth_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${AUTH_CHANGED_CHANNEL}', tg_table_name);
      return null;
    end $$`);
  for (const table of TABLES) {
    await db.raw(
      `create trigger ?? after insert or update or delete or truncate on ?? for each statement
       execute function ccs_notify_auth_changed()`,
      [`${table}_auth_changed`, table],
    );
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of TABLES)
    await db.raw('drop trigger if exists ?? on ??', [`${table}_auth_changed`, table]);
  await db.raw('drop function if exists ccs_notify_auth_changed()');
}
