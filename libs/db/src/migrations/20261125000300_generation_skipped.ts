// A generation job says which fillable widgets of its design it left out and why (issue 17):
// `[{ design_widget_id, type, reason }]`, written with the job's outcome. Old rows read as [].
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table generation_jobs add column widgets_skipped jsonb not null default '[]'::jsonb`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table generation_jobs drop column if exists widgets_skipped');
}
