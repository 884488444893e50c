import type { ContentEntityType, LangMap, PublishMode } from '@catalogue/config';
import type { Knex } from 'knex';
import { checkedRow, rawRows } from '../sql-rows';
import type { Row } from '../tables';
import { isoOffset } from '../timestamps';
import { type ContentKey, lockEntityRows } from './content.repository';
import { recordRevisions, type RevisionWriteOf } from './content-revisions.repository';

export type { PublishMode };

function where(key: ContentKey) {
  return { eshop_id: key.eshopId, entity_type: key.entityType, external_id: key.externalId };
}

/** What the editor shows of an entity: the draft's tree when it has one, else the published one. */
export interface EditorView {
  tree: unknown;
  /** The entity's content version (drafts and published writes share it: the ETag). */
  version: number;
  draft: boolean;
}

/** The draft state of an entity as the editor's publish bar reads it. */
export interface DraftState {
  publishMode: PublishMode;
  version: number;
  /** The version of the revision the storefront serves (null: none recorded). */
  publishedVersion: number | null;
  /** The draft's rendered html and when it was last written; null: no draft. */
  draft: { html: LangMap; updatedAt: string } | null;
  /** The html the storefront serves now, by language. */
  publishedHtml: LangMap;
}

export const contentDraftsRepository = {
  /** The eshop's publish mode, read in the writer's transaction (never from a cache). */
  async modeOf(db: Knex | Knex.Transaction, eshopId: number): Promise<PublishMode> {
    const row = await db('eshops').where({ id: eshopId }).first('publish_mode');
    return row?.publish_mode ?? 'immediate';
  },

  /** Locks the entity's draft row for the rest of the transaction and reads its tree and html. */
  async lock(
    trx: Knex.Transaction,
    key: ContentKey,
  ): Promise<{ tree: unknown[]; html: LangMap } | undefined> {
    return trx('content_drafts').select('tree', 'html').where(where(key)).forUpdate().first();
  },

  /** `lock` of several entities of one eshop and type (in external-id order), by external id. */
  async lockMany(
    trx: Knex.Transaction,
    eshopId: number,
    entityType: ContentEntityType,
    externalIds: readonly string[],
  ): Promise<Map<string, { tree: unknown[]; html: LangMap }>> {
    const rows = await lockEntityRows<Pick<Row<'content_drafts'>, 'external_id' | 'tree' | 'html'>>(
      trx,
      'content_drafts',
      { eshopId, entityType, externalIds },
      [
        ['external_id', 'r.external_id'],
        ['tree', 'r.tree'],
        ['html', 'r.html'],
      ],
    );
    return new Map(rows.map((row) => [row.external_id, { tree: row.tree, html: row.html }]));
  },

  /** `save` of several entities' drafts of one eshop and type in one statement. */
  async saveMany(
    trx: Knex.Transaction,
    eshopId: number,
    entityType: ContentEntityType,
    drafts: ReadonlyArray<{ externalId: string; tree: unknown[]; html: LangMap }>,
  ): Promise<void> {
    if (!drafts.length) return;
    await trx('content_drafts')
      .insert(
        drafts.map((d) => ({
          ...where({ eshopId, entityType, externalId: d.externalId }),
          tree: JSON.stringify(d.tree),
          html: JSON.stringify(d.html),
        })),
      )
      .onConflict(['eshop_id', 'entity_type', 'external_id'])
      .merge({ tree: trx.raw('excluded.tree'), html: trx.raw('excluded.html'), updated_at: trx.fn.now(6) });
  },

  /** `remove` of several entities' drafts of one eshop and type in one statement. */
  async removeMany(
    trx: Knex.Transaction,
    eshopId: number,
    entityType: ContentEntityType,
    externalIds: readonly string[],
  ): Promise<void> {
    if (!externalIds.length) return;
    await trx('content_drafts')
      .where({ eshop_id: eshopId, entity_type: entityType })
      .whereIn('external_id', [...externalIds])
      .delete();
  },

  /** Deletes the entity's draft; whether there was one. */
  async remove(trx: Knex.Transaction, key: ContentKey): Promise<boolean> {
    return (await trx('content_drafts').where(where(key)).delete()) > 0;
  },

  /** The tree the editor shows and the version it is, read together (one statement). */
  async editorView(db: Knex | Knex.Transaction, key: ContentKey): Promise<EditorView> {
    const rows = await rawRows<Pick<Row<'content'>, 'tree' | 'version'> & { draft: boolean }>(
      db,
      `select coalesce(d.tree, c.tree) as tree, c.version, d.eshop_id is not null as draft
         from content c
         left join content_drafts d
           on d.eshop_id = c.eshop_id and d.entity_type = c.entity_type and d.external_id = c.external_id
        where c.eshop_id = ? and c.entity_type = ? and c.external_id = ?`,
      [key.eshopId, key.entityType, key.externalId],
      ['tree', 'version', 'draft'],
    );
    const row = rows[0];
    return row
      ? { tree: row.tree, version: Number(row.version), draft: row.draft }
      : { tree: [], version: 0, draft: false };
  },

  /** The entity's draft state: the eshop's mode, versions, the draft's html and the published html. */
  async state(db: Knex | Knex.Transaction, key: ContentKey): Promise<DraftState> {
    const found = await db('eshops as e')
      .leftJoin('content as c', (join) =>
        join
          .on('c.eshop_id', 'e.id')
          .andOn('c.entity_type', db.raw('?', [key.entityType]))
          .andOn('c.external_id', db.raw('?', [key.externalId])),
      )
      .leftJoin('content_drafts as d', (join) =>
        join
          .on('d.eshop_id', 'c.eshop_id')
          .andOn('d.entity_type', 'c.entity_type')
          .andOn('d.external_id', 'c.external_id'),
      )
      .where('e.id', key.eshopId)
      .first(
        'e.publish_mode',
        db.raw('coalesce(c.version, 0) as version'),
        db.raw(`coalesce(c.html, '{}'::jsonb) as published_html`),
        db.raw('d.html as draft_html'),
        db.raw(`${isoOffset('d.updated_at')} as draft_updated_at`),
        db.raw(`(select max(r.version) from content_revisions r
                  where r.eshop_id = c.eshop_id and r.entity_type = c.entity_type
                    and r.external_id = c.external_id and not r.draft) as published_version`),
      );
    const row = checkedRow<{
      publish_mode: PublishMode;
      version: string | number;
      published_html: LangMap;
      draft_html: LangMap | null;
      draft_updated_at: string | null;
      published_version: string | number | null;
    }>(found, [
      'publish_mode',
      'version',
      'published_html',
      'draft_html',
      'draft_updated_at',
      'published_version',
    ]);
    if (row === undefined) throw new Error(`eshop ${key.eshopId} not found`);
    return {
      publishMode: row.publish_mode,
      version: Number(row.version),
      publishedVersion: row.published_version === null ? null : Number(row.published_version),
      draft: row.draft_html === null ? null : { html: row.draft_html, updatedAt: row.draft_updated_at ?? '' },
      publishedHtml: row.published_html,
    };
  },

  /**
   * Stores the drafts of several entities of one eshop and type as their revisions (each its
   * entity's next version, marked draft) and gives each content row that version, leaving its
   * tree and outputs (the published state) as they are: one statement, the drafts' trees copied
   * in SQL.
   */
  async recordDrafts(
    trx: Knex.Transaction,
    eshopId: number,
    entityType: ContentEntityType,
    revisions: readonly RevisionWriteOf[],
  ): Promise<Map<string, { id: number; version: number }>> {
    return recordRevisions(trx, eshopId, entityType, revisions, 'draft');
  },
};
