// Why: templates (designs) and the widget catalogue they are built from, plus the prompts
// offered for generation. Public rows are seeded (libs/db/src/seeds); custom designs and
// prompts belong to one eshop.
import type { Knex } from 'knex';

export const DESIGN_CATEGORIES = ['product', 'category', 'blog', 'page'] as const;

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('widget_categories', (t) => {
    t.increments('id').primary();
    t.string('key', 64).notNullable().unique();
    t.string('name', 255).notNullable();
    t.integer('position').notNullable().defaultTo(0);
  });
  await db.schema.createTable('widgets', (t) => {
    t.increments('id').primary();
    // The widget type (`section`, `benefit`, …); also its CSS modifier class.
    t.string('type', 64).notNullable().unique();
    t.integer('category_id').notNullable().references('id').inTable('widget_categories');
    t.string('name', 255).notNullable();
    t.text('description').notNullable().defaultTo('');
    // Fillable fields, slots, element template and preview sample (libs/content WidgetDefinition).
    t.jsonb('definition').notNullable();
    t.integer('position').notNullable().defaultTo(0);
  });
  await db.schema.createTable('designs', (t) => {
    t.increments('id').primary();
    // Null for public designs; custom designs belong to one eshop.
    t.integer('eshop_id').nullable().references('id').inTable('eshops').onDelete('CASCADE');
    // Stable key of seeded designs, so seeding again updates instead of duplicating.
    t.string('key', 64).nullable().unique();
    t.string('name', 255).notNullable();
    t.jsonb('name_translation').notNullable().defaultTo('{}');
    t.text('info').nullable();
    t.text('image_preview').nullable();
    t.string('category', 16).notNullable();
    t.string('type', 16).notNullable().defaultTo('public');
    t.boolean('is_visible').notNullable().defaultTo(true);
    t.integer('position').notNullable().defaultTo(0);
    t.specificType('hash', 'char(64)').notNullable();
    t.text('preview_html').notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.index(['category', 'position']);
    t.index(['eshop_id']);
    t.check(`?? in (${list(DESIGN_CATEGORIES)})`, ['category'], 'designs_category_known');
    t.check(`?? in ('public', 'custom')`, ['type'], 'designs_type_known');
    t.check(`(?? = 'public') = (?? is null)`, ['type', 'eshop_id'], 'designs_custom_has_eshop');
  });
  await db.schema.createTable('design_widgets', (t) => {
    t.increments('id').primary();
    t.integer('design_id').notNullable().references('id').inTable('designs').onDelete('CASCADE');
    t.integer('widget_id').notNullable().references('id').inTable('widgets');
    t.integer('position').notNullable();
    // Per-design changes of the widget: item_count, image_slot, icon_slot, max_length by role.
    t.jsonb('overrides').notNullable().defaultTo('{}');
    t.unique(['design_id', 'position']);
  });
  await db.schema.createTable('prompts', (t) => {
    t.increments('id').primary();
    // Null for prompts every eshop sees.
    t.integer('eshop_id').nullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.string('key', 64).nullable().unique();
    t.string('name', 255).notNullable();
    t.text('prompt').notNullable();
    t.boolean('remove_exist_widget').notNullable().defaultTo(false);
    t.boolean('use_serp_context').notNullable().defaultTo(false);
    t.boolean('use_web_research').notNullable().defaultTo(false);
    t.jsonb('search_web').notNullable().defaultTo('[]');
    t.jsonb('search_model').notNullable().defaultTo('[]');
    t.integer('position').notNullable().defaultTo(0);
    t.index(['eshop_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['prompts', 'design_widgets', 'designs', 'widgets', 'widget_categories']) {
    await db.schema.dropTable(table);
  }
}
