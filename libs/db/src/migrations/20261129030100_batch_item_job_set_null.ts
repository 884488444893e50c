// A batch item's job reference (`(eshop_id, job_id)` → generation_jobs) was `ON DELETE SET NULL`,
// which nulls every column of the foreign key: deleting a generation job would have set the
// item's eshop_id to null too (refused by its NOT NULL, so the delete failed). PostgreSQL 15's
// column list sets only job_id to null: the item stays its eshop's and loses only its job.
import type { Knex } from 'knex';

const FK = 'generation_batch_items_job_same_eshop_fk';

async function replaceForeignKey(db: Knex, onDelete: string): Promise<void> {
  await db.raw(`alter table generation_batch_items drop constraint ${FK}`);
  await db.raw(
    `alter table generation_batch_items add constraint ${FK} foreign key (eshop_id, job_id)
       references generation_jobs (eshop_id, id) on delete ${onDelete}`,
  );
}

export async function up(db: Knex): Promise<void> {
  await replaceForeignKey(db, 'set null (job_id)');
}

export async function down(db: Knex): Promise<void> {
  await replaceForeignKey(db, 'set null');
}
