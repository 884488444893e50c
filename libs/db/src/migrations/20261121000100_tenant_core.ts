// Why: every later table belongs to a tenant (eshop); this creates the tenants and the
// credentials that map a request to one. Tokens are stored only as SHA-256 hashes.
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('eshops', (t) => {
    t.increments('id').primary();
    t.string('name', 200).notNullable();
    t.specificType('languages', 'text[]').notNullable().defaultTo(db.raw(`'{default}'`));
    t.boolean('enable_site_link').notNullable().defaultTo(false);
    t.boolean('enable_rich_snippet').notNullable().defaultTo(false);
    t.boolean('review_required').notNullable().defaultTo(false);
    t.date('licence_valid_until').nullable();
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
  });

  for (const table of ['api_tokens', 'white_label_tokens']) {
    await db.schema.createTable(table, (t) => {
      t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
      t.bigIncrements('id').primary();
      t.specificType('token_hash', 'char(64)').notNullable().unique();
      // The first characters of the token, shown to operators so they can tell tokens apart.
      t.string('token_prefix', 16).notNullable();
      t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
      t.timestamp('revoked_at', { useTz: true, precision: 6 }).nullable();
      t.index(['eshop_id']);
    });
  }

  await db.schema.createTable('allowed_origins', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    // Normalised "scheme://host[:port]", compared exactly with the request's Origin.
    t.string('origin', 255).notNullable();
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.primary(['eshop_id', 'origin']);
    // CORS preflights carry no token, so they look an origin up across eshops.
    t.index(['origin']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('allowed_origins');
  await db.schema.dropTable('white_label_tokens');
  await db.schema.dropTable('api_tokens');
  await db.schema.dropTable('eshops');
}
