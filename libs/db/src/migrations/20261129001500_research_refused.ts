// A generation job says which of its research URLs were not read and why (`research_refused`:
// [{ url, reason }]), written with the job's outcome, so research that was asked for and left out
// is never silent. Old rows read as [].
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table generation_jobs add column research_refused jsonb not null default '[]'::jsonb`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table generation_jobs drop column if exists research_refused');
}
