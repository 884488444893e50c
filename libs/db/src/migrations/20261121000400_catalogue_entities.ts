// Why: the catalogue API stores what e-shops push (products, categories, brands, blogs,
// parameters with values, product variants). Each entity table leads with eshop_id so
// every lookup is tenant-scoped and the tables can later be sharded by eshop.
import type { Knex } from 'knex';

export const ENTITY_STATUSES = ['draft', 'generate', 'review', 'ready'] as const;

/** Columns every catalogue entity shares (products, categories, brands, blogs). */
function entityColumns(db: Knex, t: Knex.CreateTableBuilder, table: string): void {
  t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
  t.bigIncrements('id').primary();
  t.string('external_id', 255).notNullable();
  t.uuid('guid').notNullable().defaultTo(db.raw('gen_random_uuid()'));
  t.string('status', 16).notNullable().defaultTo('generate');
  t.boolean('is_visible').notNullable().defaultTo(true);
  t.boolean('is_loaded').notNullable().defaultTo(false);
  t.boolean('is_delete').notNullable().defaultTo(false);
  for (const map of ['name', 'url', 'description', 'seo_title', 'seo_description']) {
    t.jsonb(map).notNullable().defaultTo('{}');
  }
  t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
  t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
  t.unique(['eshop_id', 'external_id']);
  t.check(`?? in (${ENTITY_STATUSES.map((s) => `'${s}'`).join(', ')})`, ['status'], `${table}_status_known`);
}

/** Lists read the listed rows of one eshop in internal-id order; this index serves exactly that. */
async function listIndex(db: Knex, table: string, listed: string): Promise<void> {
  await db.raw(`create index ${table}_list_idx on ${table} (eshop_id, id) where ${listed}`);
}

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('products', (t) => {
    entityColumns(db, t, 'products');
    t.jsonb('short_description').notNullable().defaultTo('{}');
    t.jsonb('images').notNullable().defaultTo('[]');
    t.string('brand_id', 255).nullable();
    t.jsonb('categories_ids').notNullable().defaultTo('[]');
    t.jsonb('parameters_ids').notNullable().defaultTo('[]');
  });
  await db.schema.createTable('categories', (t) => {
    entityColumns(db, t, 'categories');
    t.jsonb('images').notNullable().defaultTo('[]');
  });
  await db.schema.createTable('brands', (t) => {
    entityColumns(db, t, 'brands');
    t.text('image_preview').nullable();
  });
  await db.schema.createTable('blogs', (t) => {
    entityColumns(db, t, 'blogs');
    t.string('category', 255).nullable();
    t.jsonb('images').notNullable().defaultTo('[]');
  });
  for (const table of ['products', 'categories', 'blogs']) {
    await listIndex(db, table, `status = 'ready' and not is_delete`);
  }
  await listIndex(db, 'brands', 'not is_delete');

  await db.schema.createTable('product_variants', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigIncrements('id').primary();
    t.bigInteger('product_id').notNullable().references('id').inTable('products').onDelete('CASCADE');
    t.string('code', 255).notNullable();
    t.string('ean', 64).nullable();
    t.index(['product_id', 'id']);
  });

  await db.schema.createTable('parameters', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigIncrements('id').primary();
    t.bigInteger('external_id').notNullable();
    t.string('name', 255).notNullable();
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.unique(['eshop_id', 'external_id']);
  });
  await db.schema.createTable('parameter_values', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigIncrements('id').primary();
    t.bigInteger('parameter_id').notNullable().references('id').inTable('parameters').onDelete('CASCADE');
    t.bigInteger('external_id').notNullable();
    t.string('value', 1000).notNullable();
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.unique(['eshop_id', 'parameter_id', 'external_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['parameter_values', 'parameters', 'product_variants', 'blogs', 'brands']) {
    await db.schema.dropTable(table);
  }
  await db.schema.dropTable('categories');
  await db.schema.dropTable('products');
}
