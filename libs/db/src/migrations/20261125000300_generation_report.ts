// A generation job reports what it did beyond the widgets it wrote: which fillable
// widgets of its design it left out and why (`widgets_skipped`: [{ design_widget_id, type,
// reason }]) and which research pages its texts came from (`research_sources`: [{ url,
// design_widget_id }]), written with the job's outcome. Old rows read as [].
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table generation_jobs
    add column widgets_skipped jsonb not null default '[]'::jsonb,
    add column research_sources jsonb not null default '[]'::jsonb`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(
    'alter table generation_jobs drop column if exists widgets_skipped, drop column if exists research_sources',
  );
}
