// Why: generation costs credits, and the public price list (/public/credit) and the cost
// estimator must read the same prices; they live in one table operators can change.
import type { Knex } from 'knex';

export const SEEDED_PRICES = [
  {
    operation: 'widget_generation',
    unit: 'widget_language',
    price: 2,
    description: 'One generated widget in one language.',
  },
  {
    operation: 'web_research',
    unit: 'url',
    price: 3,
    description: 'Fetching and reading one web page given in search_web (use_web_research).',
  },
  {
    operation: 'serp_context',
    unit: 'generation',
    price: 5,
    description: 'Search-results context for one generation (use_serp_context).',
  },
  {
    operation: 'listing_row_enrichment',
    unit: 'row',
    price: 1,
    description: 'Enriching one row of an uploaded listing batch.',
  },
] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('credit_prices', (t) => {
    t.string('operation', 64).primary();
    t.string('unit', 32).notNullable();
    // Whole credits per unit; credits have no currency.
    t.integer('price').notNullable();
    t.text('description').notNullable();
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.check('?? >= 0', ['price'], 'credit_prices_price_not_negative');
  });
  await db('credit_prices').insert(SEEDED_PRICES.map((p) => ({ ...p })));
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('credit_prices');
}
