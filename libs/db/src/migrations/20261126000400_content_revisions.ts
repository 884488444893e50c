// Why: a write of an entity's content (an edit, a fill, a generation, an import that recomposes
// it) replaced the stored tree for good: nobody could see who changed it, nor undo it. Every
// such write now stores a revision of the tree it wrote, numbered per entity by the content row's
// `version` (which the white-label API also serves as the content's ETag, so concurrent editors
// cannot overwrite each other unseen). `revisions_trimmed_to` is how far the retention sweep has
// deleted an entity's old revisions; the partial index finds the entities with more revisions
// than the retention keeps without reading the content of entities never revised (docs/decisions/0037-content-revisions.md,
// "Content revisions"). `eshops.content_revisions_keep` overrides CONTENT_REVISIONS_KEEP per eshop.
import type { Knex } from 'knex';

export const REVISION_SOURCES = ['editor', 'fill', 'generation', 'import', 'restore', 'repair'] as const;

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export async function up(db: Knex): Promise<void> {
  // Both columns have a constant default: adding them rewrites nothing.
  await db.raw(`alter table content
    add column version bigint not null default 0,
    add column revisions_trimmed_to bigint not null default 0`);
  await db.raw(`alter table eshops add column content_revisions_keep integer,
    add constraint eshops_content_revisions_keep_positive
      check (content_revisions_keep is null or content_revisions_keep between 1 and 100000)`);
  await db.raw(`create index content_revisions_over_kept on content ((version - revisions_trimmed_to))
    where version > revisions_trimmed_to + 1`);
  await db.schema.createTable('content_revisions', (t) => {
    t.bigIncrements('id').primary();
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.string('entity_type', 16).notNullable();
    t.string('external_id', 255).notNullable();
    t.bigInteger('version').notNullable();
    t.string('source', 16).notNullable();
    t.bigInteger('generation_job_id').nullable();
    // The eshop languages whose rendered html this write changed (sorted codes).
    t.jsonb('languages_changed').notNullable().defaultTo('[]');
    t.jsonb('tree').notNullable();
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.unique(['eshop_id', 'entity_type', 'external_id', 'version'], {
      indexName: 'content_revisions_entity_version_unique',
    });
    t.index(['created_at'], 'content_revisions_created_at');
    t.check(`?? in (${list(REVISION_SOURCES)})`, ['source'], 'content_revisions_source_known');
    t.check(
      `(?? = 'generation') = (?? is not null)`,
      ['source', 'generation_job_id'],
      'content_revisions_generation_has_job',
    );
    // Tenancy in the database: a revision belongs to its eshop's content row.
    t.foreign(['eshop_id', 'entity_type', 'external_id'], 'content_revisions_content_fk')
      .references(['eshop_id', 'entity_type', 'external_id'])
      .inTable('content')
      .onDelete('CASCADE');
  });
  // A generation revision names its eshop's job; the check above allows no generation revision
  // without one, so jobs that produced content are kept (nothing deletes jobs today).
  await db.raw(`alter table content_revisions add constraint content_revisions_job_fk
    foreign key (eshop_id, generation_job_id) references generation_jobs (eshop_id, id)`);
  // Revisions compress well (repeated keys and classes): lz4 is cheaper to write than pglz.
  await db.raw('alter table content_revisions alter column tree set compression lz4');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('content_revisions');
  await db.raw('drop index if exists content_revisions_over_kept');
  await db.raw('alter table content drop column revisions_trimmed_to, drop column version');
  await db.raw('alter table eshops drop column content_revisions_keep');
}
