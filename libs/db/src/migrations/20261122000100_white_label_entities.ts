// Why: the white-label editor (v3) registers host entities (product, category, blog, page) so
// they can carry content, and keeps each eshop's favourite widgets. Content itself lives in the
// shared `content` table, keyed like the catalogue item of the same type and id.
import type { Knex } from 'knex';

export const WHITE_LABEL_ENTITY_TYPES = ['product', 'category', 'blog', 'page'] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('wl_entities', (t) => {
    t.increments('id').primary();
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    // The host's identifier; for product/category/blog the external id of the catalogue item.
    t.string('entity_id', 255).notNullable();
    t.string('type', 16).notNullable();
    // The design last filled into the entity (fill-design); kept when the design is removed.
    t.integer('design_id').nullable().references('id').inTable('designs').onDelete('SET NULL');
    // Language maps (the request may send a string, stored under `default`).
    t.jsonb('old_description').notNullable().defaultTo('{}');
    t.jsonb('title').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.unique(['eshop_id', 'type', 'entity_id']);
    t.check(
      `?? in (${WHITE_LABEL_ENTITY_TYPES.map((v) => `'${v}'`).join(', ')})`,
      ['type'],
      'wl_entities_type_known',
    );
  });
  await db.schema.createTable('widget_favourites', (t) => {
    t.increments('id').primary();
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.integer('widget_id').notNullable().references('id').inTable('widgets');
    // Element objects whose `value` and `extension` are language maps.
    t.jsonb('children').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.index(['eshop_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('widget_favourites');
  await db.schema.dropTable('wl_entities');
}
