import type { ContentEntityType, RevisionSource } from '@catalogue/config';
import type { Knex } from 'knex';
import { checkedRow, checkedRows, countOf, rawRows, runRaw } from '../sql-rows';
import type { Row } from '../tables';
import type { ContentKey } from './content.repository';
import { isoOffset } from '../timestamps';

// Who wrote a revision is a word of the domain (libs/config), which the v3 answers use too.
export type { RevisionSource };

/** A revision as the list shows it (no tree). */
export interface RevisionSummary {
  id: number;
  version: number;
  source: RevisionSource;
  generation_id: number | null;
  /** What the revision's generation job was charged (null: not a generation, or not settled yet). */
  credits_charged: number | null;
  languages_changed: string[];
  /** A draft write (an eshop whose edits wait until published): never served by the storefront. */
  draft: boolean;
  /** Whether this is the revision the storefront serves (the newest that is not a draft). */
  published: boolean;
  created_at: string;
}

export interface RevisionWrite {
  source: RevisionSource;
  /** The generation job that wrote it (source `generation` only). */
  generationJobId?: number | null;
  languagesChanged: readonly string[];
}

/** One changed item of a render job: its new tree and html, as JSON values. */
export interface ImportRevision {
  externalId: string;
  tree: unknown[];
  html: Partial<Record<string, string>>;
}

/** A revision to store for one entity (`recordMany`): the entity, its next version, the revision. */
export interface RevisionWriteOf extends RevisionWrite {
  externalId: string;
  version: number;
}

/**
 * Stores revisions of several entities of one eshop and type in one statement, each the
 * entity's next `version`, and gives each content row that version. `published`: the tree the
 * content row holds now (a published write); `draft`: the entity's draft tree, marked draft (the
 * content row's tree and outputs stay the published state). The tree is copied in SQL.
 */
export async function recordRevisions(
  trx: Knex.Transaction,
  eshopId: number,
  entityType: ContentEntityType,
  revisions: readonly RevisionWriteOf[],
  of: 'published' | 'draft',
): Promise<Map<string, { id: number; version: number }>> {
  if (!revisions.length) return new Map();
  const tree =
    of === 'draft'
      ? `join content_drafts d
           on d.eshop_id = b.eshop_id and d.entity_type = b.entity_type and d.external_id = b.external_id`
      : '';
  const rows = await rawRows<Pick<Row<'content_revisions'>, 'external_id' | 'id' | 'version'>>(
    trx,
    `with w as (
       select * from jsonb_to_recordset(?::jsonb)
         as w(external_id text, version integer, source text, generation_job_id bigint, languages_changed jsonb)),
     bumped as (
       update content c set version = w.version from w
        where c.eshop_id = ? and c.entity_type = ? and c.external_id = w.external_id
       returning c.eshop_id, c.entity_type, c.external_id, c.version, c.tree)
     insert into content_revisions
       (eshop_id, entity_type, external_id, version, source, generation_job_id, languages_changed, draft, tree)
     select b.eshop_id, b.entity_type, b.external_id, b.version, w.source, w.generation_job_id,
            w.languages_changed, ?, ${of === 'draft' ? 'd.tree' : 'b.tree'}
       from bumped b join w on w.external_id = b.external_id ${tree}
     returning external_id, id, version`,
    [
      JSON.stringify(
        revisions.map((r) => ({
          external_id: r.externalId,
          version: r.version,
          source: r.source,
          generation_job_id: r.generationJobId ?? null,
          languages_changed: [...r.languagesChanged].sort(),
        })),
      ),
      eshopId,
      entityType,
      of === 'draft',
    ],
    ['external_id', 'id', 'version'],
  );
  return new Map(rows.map((row) => [row.external_id, { id: Number(row.id), version: Number(row.version) }]));
}

function where(key: ContentKey) {
  return { eshop_id: key.eshopId, entity_type: key.entityType, external_id: key.externalId };
}

const SUMMARY_COLUMNS = [
  'r.id',
  'r.version',
  'r.source',
  'r.generation_job_id as generation_id',
  'j.charged_cost as credits_charged',
  'r.languages_changed',
  'r.draft',
] as const;

/** A revision as list() reads it: SUMMARY_COLUMNS, and its time as text. */
type SummaryRow = Pick<
  Row<'content_revisions'>,
  'id' | 'version' | 'source' | 'languages_changed' | 'draft'
> & {
  generation_id: Row<'content_revisions'>['generation_job_id'];
  credits_charged: Row<'generation_jobs'>['charged_cost'];
  created_at: string;
  published: boolean;
};

export const contentRevisionsRepository = {
  /**
   * The content row's version and rendered html (undefined: no row). Called by a writer after
   * it locked the row, so the version it compares an If-Match with is the one it replaces.
   */
  async head(
    db: Knex | Knex.Transaction,
    key: ContentKey,
  ): Promise<{ version: number; html: Partial<Record<string, string>>; treeEmpty: boolean } | undefined> {
    const found = await db('content')
      .select(
        'version',
        'html',
        db.raw(
          `jsonb_array_length(case jsonb_typeof(tree) when 'array' then tree else '[]' end) = 0 as tree_empty`,
        ),
      )
      .where(where(key))
      .first();
    const row = checkedRow<Pick<Row<'content'>, 'version' | 'html'> & { tree_empty: boolean }>(found, [
      'version',
      'html',
      'tree_empty',
    ]);
    return row && { version: Number(row.version), html: row.html, treeEmpty: row.tree_empty };
  },

  /** The stored tree and its version together (one read: the ETag matches the tree served). */
  async treeAndVersion(
    db: Knex | Knex.Transaction,
    key: ContentKey,
  ): Promise<{ tree: unknown; version: number }> {
    const row = await db('content').select('tree', 'version').where(where(key)).first();
    return { tree: row?.tree ?? [], version: Number(row?.version ?? 0) };
  },

  /**
   * Records the content of several entities of one eshop and type as it stands before its first
   * revision (content stored before revisions existed, or composed by an import) as revision 1,
   * each with its source, so the first write after it can be undone: one statement; rows already
   * past version 0 are left alone.
   */
  async recordBaselines(
    trx: Knex.Transaction,
    eshopId: number,
    entityType: ContentEntityType,
    baselines: ReadonlyArray<{ externalId: string; source: RevisionSource }>,
  ): Promise<void> {
    if (!baselines.length) return;
    await runRaw(
      trx,
      `with b as (select * from jsonb_to_recordset(?::jsonb) as b(external_id text, source text)),
       bumped as (
         update content c set version = 1 from b
          where c.eshop_id = ? and c.entity_type = ? and c.external_id = b.external_id and c.version = 0
         returning c.eshop_id, c.entity_type, c.external_id, c.version, c.tree, b.source)
       insert into content_revisions (eshop_id, entity_type, external_id, version, source, tree)
       select eshop_id, entity_type, external_id, version, source, tree from bumped`,
      [
        JSON.stringify(baselines.map((b) => ({ external_id: b.externalId, source: b.source }))),
        eshopId,
        entityType,
      ],
    );
  },

  /**
   * Stores the tree the content row holds now as the entity's revision `version` (the caller's
   * next version) and gives the row that version: one statement, the tree copied in SQL.
   */
  async record(
    trx: Knex.Transaction,
    key: ContentKey,
    version: number,
    revision: RevisionWrite,
  ): Promise<{ id: number; version: number }> {
    const stored = await recordRevisions(
      trx,
      key.eshopId,
      key.entityType,
      [{ ...revision, externalId: key.externalId, version }],
      'published',
    );
    return stored.get(key.externalId)!;
  },

  /**
   * `record` of several entities of one eshop and type in one statement (each its own version
   * and revision); the revisions stored by external id.
   */
  async recordMany(
    trx: Knex.Transaction,
    eshopId: number,
    entityType: ContentEntityType,
    revisions: readonly RevisionWriteOf[],
  ): Promise<Map<string, { id: number; version: number }>> {
    return recordRevisions(trx, eshopId, entityType, revisions, 'published');
  },

  /**
   * A render job's revisions, in one statement for the whole job, before its content write:
   * each changed item's content row gets its next version, and its new tree is stored with
   * the languages whose html differs from the html the row held. Rows that do not exist yet
   * (a first composition) get none.
   */
  async recordImports(
    trx: Knex.Transaction,
    eshopId: number,
    entityType: ContentEntityType,
    changed: readonly ImportRevision[],
  ): Promise<number> {
    if (!changed.length) return 0;
    const result = await runRaw(
      trx,
      `with changed as (
         select * from jsonb_to_recordset(?::jsonb) as ch(external_id text, tree jsonb, html jsonb)),
       bumped as (
         update content c set version = c.version + 1 from changed ch
          where c.eshop_id = ? and c.entity_type = ? and c.external_id = ch.external_id
         returning c.eshop_id, c.entity_type, c.external_id, c.version, c.html as old_html)
       insert into content_revisions (eshop_id, entity_type, external_id, version, source, languages_changed, tree)
       select b.eshop_id, b.entity_type, b.external_id, b.version, 'import',
              (select coalesce(jsonb_agg(l order by l), '[]'::jsonb) from (
                 select jsonb_object_keys(b.old_html) as l union select jsonb_object_keys(ch.html)) langs
                where coalesce(b.old_html ->> l, '') <> coalesce(ch.html ->> l, '')),
              ch.tree
         from bumped b join changed ch on ch.external_id = b.external_id`,
      [
        JSON.stringify(changed.map((c) => ({ external_id: c.externalId, tree: c.tree, html: c.html }))),
        eshopId,
        entityType,
      ],
    );
    return result.rowCount;
  },

  /** A page of an entity's revisions, newest first, and how many it has. */
  async list(
    db: Knex,
    key: ContentKey,
    page: { limit: number; offset: number },
  ): Promise<{ revisions: RevisionSummary[]; total: number }> {
    const [rows, count] = await Promise.all([
      db('content_revisions as r')
        // The job of a generation revision (its key names the eshop, as the revision's does).
        .leftJoin('generation_jobs as j', (join) =>
          join.on('j.eshop_id', 'r.eshop_id').andOn('j.id', 'r.generation_job_id'),
        )
        .select(
          ...SUMMARY_COLUMNS,
          db.raw(`${isoOffset('r.created_at')} as created_at`),
          // The storefront serves the newest revision that is not a draft.
          db.raw(
            `not r.draft and r.version = (select max(p.version) from content_revisions p
               where p.eshop_id = r.eshop_id and p.entity_type = r.entity_type
                 and p.external_id = r.external_id and not p.draft) as published`,
          ),
        )
        .where({
          'r.eshop_id': key.eshopId,
          'r.entity_type': key.entityType,
          'r.external_id': key.externalId,
        })
        .orderBy('r.version', 'desc')
        .limit(page.limit)
        .offset(page.offset),
      db('content_revisions').count('* as count').where(where(key)),
    ]);
    return {
      revisions: checkedRows<SummaryRow>(rows, [
        'id',
        'version',
        'source',
        'generation_id',
        'credits_charged',
        'languages_changed',
        'draft',
        'published',
        'created_at',
      ]).map((r) => ({
        id: Number(r.id),
        version: Number(r.version),
        source: r.source,
        generation_id: r.generation_id === null ? null : Number(r.generation_id),
        credits_charged: r.credits_charged === null ? null : Number(r.credits_charged),
        languages_changed: r.languages_changed,
        draft: r.draft,
        published: r.published,
        created_at: r.created_at,
      })),
      total: countOf(count[0]),
    };
  },

  /** The tree of one of the entity's revisions (undefined: no such revision of this entity and eshop). */
  async findTree(
    db: Knex | Knex.Transaction,
    key: ContentKey,
    revisionId: number,
  ): Promise<{ version: number; tree: unknown[] } | undefined> {
    const row = await db('content_revisions')
      .select('version', 'tree')
      .where({ ...where(key), id: revisionId })
      .first();
    return row && { version: Number(row.version), tree: row.tree };
  },

  /**
   * Retention by count: for up to `limit` entities keeping more revisions than their eshop's
   * `content_revisions_keep` (else `keep`), deletes all but their newest that many (versions are
   * consecutive and trimmed from the oldest, so these are the ones at or below version - kept).
   * Returns the entities trimmed and the revisions deleted.
   */
  async trimToCount(db: Knex, keep: number, limit: number): Promise<{ entities: number; deleted: number }> {
    const rows = await rawRows<{ entities: number; deleted: number }>(
      db,
      `with floor as (
         select least(?::integer, min(content_revisions_keep)) as n from eshops),
       candidates as (
         select c.eshop_id, c.entity_type, c.external_id, coalesce(e.content_revisions_keep, ?) as kept
           from content c join eshops e on e.id = c.eshop_id
          where c.version > c.revisions_trimmed_to + 1
            and c.version - c.revisions_trimmed_to > (select n from floor)
            and c.version - c.revisions_trimmed_to > coalesce(e.content_revisions_keep, ?)
          limit ? for update of c skip locked),
       trimmed as (
         update content c set revisions_trimmed_to = c.version - k.kept
           from candidates k
          where c.eshop_id = k.eshop_id and c.entity_type = k.entity_type and c.external_id = k.external_id
         returning c.eshop_id, c.entity_type, c.external_id, c.revisions_trimmed_to),
       deleted as (
         delete from content_revisions r using trimmed t
          where r.eshop_id = t.eshop_id and r.entity_type = t.entity_type and r.external_id = t.external_id
            and r.version <= t.revisions_trimmed_to
         returning 1)
       select (select count(*) from trimmed) as entities, (select count(*) from deleted) as deleted`,
      [keep, keep, keep, limit],
      ['entities', 'deleted'],
    );
    const row = rows[0]!;
    return { entities: Number(row.entities), deleted: Number(row.deleted) };
  },

  /** The eshop's own number of revisions kept per entity (null: CONTENT_REVISIONS_KEEP). */
  async keepOf(db: Knex | Knex.Transaction, eshopId: number): Promise<number | null> {
    const row = await db('eshops').where({ id: eshopId }).first('content_revisions_keep');
    return row?.content_revisions_keep ?? null;
  },

  /** Sets (null: clears) the eshop's own number of revisions kept per entity. */
  async setKeep(db: Knex | Knex.Transaction, eshopId: number, keep: number | null): Promise<void> {
    await db('eshops').where({ id: eshopId }).update({ content_revisions_keep: keep });
  },

  /**
   * Retention by age: deletes up to `limit` revisions older than `days` days, never an entity's
   * newest (the content as it stands). Returns how many it deleted.
   */
  async deleteOlderThan(db: Knex, days: number, limit: number): Promise<number> {
    const result = await runRaw(
      db,
      `delete from content_revisions d
       using (select r.eshop_id, r.id from content_revisions r
                join content c on c.eshop_id = r.eshop_id and c.entity_type = r.entity_type and c.external_id = r.external_id
               where r.created_at < now() - make_interval(days => ?) and r.version < c.version
               limit ?) chosen
       where d.eshop_id = chosen.eshop_id and d.id = chosen.id`,
      [days, limit],
    );
    return result.rowCount;
  },
};
