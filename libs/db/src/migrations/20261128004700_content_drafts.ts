// Why: every editor write went straight to the storefront (the lists and the v3 html read serve
// the `content` row). An eshop may now choose that its owner's edits wait as a draft
// (`eshops.publish_mode = 'draft'`): the `content` row stays the published state, the owner's
// tree waits in `content_drafts` (one per entity, with its rendered html for the preview) until
// it is published or discarded. Draft writes are revisions too, marked `draft`, numbered in the
// entity's one version sequence (the ETag), so History shows them and which one is published;
// publishing and discarding are revisions of their own sources (docs/decisions/0080-drafts-and-publishing.md, "Drafts and
// publishing").
import type { Knex } from 'knex';

const SOURCES_BEFORE = ['editor', 'fill', 'generation', 'import', 'restore', 'repair'];
const SOURCES = [...SOURCES_BEFORE, 'publish', 'discard'];

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

async function sourcesCheck(db: Knex, sources: readonly string[]): Promise<void> {
  await db.raw(`alter table content_revisions drop constraint content_revisions_source_known`);
  // Added NOT VALID, then validated: the scan of existing revisions holds no write lock.
  await db.raw(`alter table content_revisions add constraint content_revisions_source_known
    check (source in (${list(sources)})) not valid`);
  await db.raw(`alter table content_revisions validate constraint content_revisions_source_known`);
}

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table eshops add column publish_mode text not null default 'immediate',
    add constraint eshops_publish_mode_known check (publish_mode in ('immediate', 'draft'))`);
  // A constant default: adding it rewrites nothing.
  await db.raw(`alter table content_revisions add column draft boolean not null default false`);
  await sourcesCheck(db, SOURCES);
  await db.schema.createTable('content_drafts', (t) => {
    t.integer('eshop_id').notNullable().references('id').inTable('eshops').onDelete('CASCADE');
    t.string('entity_type', 16).notNullable();
    t.string('external_id', 255).notNullable();
    t.jsonb('tree').notNullable();
    // The draft rendered as the storefront would serve it once published, by language.
    t.jsonb('html').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.timestamp('updated_at', { useTz: true, precision: 6 }).notNullable().defaultTo(db.fn.now(6));
    t.primary(['eshop_id', 'entity_type', 'external_id']);
    // Tenancy in the database: a draft belongs to its eshop's content row (the published state,
    // possibly still empty), and goes with it.
    t.foreign(['eshop_id', 'entity_type', 'external_id'], 'content_drafts_content_fk')
      .references(['eshop_id', 'entity_type', 'external_id'])
      .inTable('content')
      .onDelete('CASCADE');
  });
  await db.raw('alter table content_drafts alter column tree set compression lz4');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('content_drafts');
  await db.raw(`delete from content_revisions where source in ('publish', 'discard')`);
  await sourcesCheck(db, SOURCES_BEFORE);
  await db.raw('alter table content_revisions drop column draft');
  await db.raw('alter table eshops drop constraint eshops_publish_mode_known, drop column publish_mode');
}
