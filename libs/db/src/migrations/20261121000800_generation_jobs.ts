// Why: white-label generation runs asynchronously; a job row carries the snapshot of what the
// host sent, the cost estimate reserved for it, and the outcome the editor polls for.
import type { Knex } from 'knex';

export const GENERATION_JOB_STATUSES = ['pending', 'running', 'done', 'failed'] as const;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('generation_jobs', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.bigIncrements('id').primary();
    t.string('entity_type', 16).notNullable();
    t.string('entity_id', 255).notNullable();
    t.integer('design_id').notNullable().references('id').inTable('designs');
    t.string('status', 16).notNullable().defaultTo('pending');
    t.string('lang', 8).notNullable();
    // The generate body as the host sent it (prompt, texts, research settings).
    t.jsonb('context').notNullable().defaultTo('{}');
    t.integer('estimated_cost').notNullable().defaultTo(0);
    t.integer('charged_cost').nullable();
    t.integer('widgets_created').notNullable().defaultTo(0);
    t.text('error_message').nullable();
    t.string('provider', 32).nullable();
    // Token usage reported by the provider ({prompt_tokens, completion_tokens, total_tokens}).
    t.jsonb('usage').nullable();
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.index(['eshop_id', 'entity_type', 'entity_id']);
    t.check(
      `?? in (${GENERATION_JOB_STATUSES.map((s) => `'${s}'`).join(', ')})`,
      ['status'],
      'generation_jobs_status_known',
    );
  });
  // At most one unfinished job per entity: a second start must find the running one.
  await db.raw(
    `create unique index generation_jobs_one_running on generation_jobs (eshop_id, entity_type, entity_id)
     where status in ('pending', 'running')`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('generation_jobs');
}
