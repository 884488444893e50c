/**
 * An entity's content revisions: every write of its content (editor, fill, generation, an
 * import that recomposed it, a restore) stored the tree it wrote. Listing them, and restoring
 * one: the revision's tree becomes the content again, as a new revision of source `restore`
 * (rendered with the item's data as it is now). A restore refunds no credits. Decisions:
 * docs/decisions/0037-content-revisions.md, "Content revisions".
 */
import type { ContentWidget, Language, v3 } from '@catalogue/content';
import { contentRevisionsRepository, type Knex } from '@catalogue/db';
import { NotFoundError } from '@catalogue/http';
import type { RevisionsQuery } from '../schemas/revisions.schema';
import { editContent, type ContentTarget, type VersionedContent } from './content.service';
import { requireEntity } from './entities.service';

const keyOf = (target: ContentTarget) => ({
  eshopId: target.eshop.id,
  entityType: target.type,
  externalId: target.entityId,
});

/** A page of the entity's revisions, newest first. */
export async function listRevisions(
  db: Knex,
  target: ContentTarget,
  query: RevisionsQuery,
): Promise<v3.Page<v3.RevisionView>> {
  await requireEntity(db, target.eshop.id, target.type, target.entityId);
  const { revisions, total } = await contentRevisionsRepository.list(db, keyOf(target), {
    limit: query.per_page,
    offset: (query.page - 1) * query.per_page,
  });
  return { data: revisions, meta: { total, current_page: query.page, per_page: query.per_page } };
}

/**
 * Makes the tree of one of the entity's revisions its content again (404: no such revision of
 * this entity of this eshop; nothing is written). If-Match is checked like any content write.
 */
export function restoreRevision(
  db: Knex,
  target: ContentTarget,
  revisionId: number,
  lang: Language,
): Promise<VersionedContent> {
  return editContent(
    db,
    target,
    lang,
    async (_current, trx) => {
      const revision = await contentRevisionsRepository.findTree(trx, keyOf(target), revisionId);
      if (revision === undefined) throw new NotFoundError(`Content revision ${revisionId} not found`);
      return revision.tree as ContentWidget[];
    },
    requireEntity,
    { kind: 'restore' },
  );
}
