/**
 * An entity's draft beside its published content (docs/decisions/0080-drafts-and-publishing.md, "Drafts and publishing").
 * Writing a draft and publishing it go through `saveEditorContent` (entity-content.ts); this is
 * discarding one, and what the editor reads of the draft state.
 */
import type { ContentWidget } from '@catalogue/content';
import {
  contentDraftsRepository,
  contentRepository,
  contentRevisionsRepository,
  type ContentKey,
  type DraftState,
  type Knex,
} from '@catalogue/db';
import { ContentVersionMismatch, languagesChanged, NoDraft } from './entity-content';

export interface DiscardedDraft {
  /** The published tree, which the editor shows again. */
  tree: ContentWidget[];
  /** The content's version after the discard (its revision's number, the ETag). */
  version: number;
  revisionId: number;
}

/**
 * Deletes the entity's draft in the caller's transaction: the published content stays as it is
 * and becomes what the editor shows again, as the entity's next revision (source `discard`, its
 * tree the published one), so History tells it and a client holding the draft's version cannot
 * write over the discard unseen. `ifMatch` naming another version refuses it
 * (ContentVersionMismatch); no draft: NoDraft. Locks in the order of every content writer.
 */
export async function discardDraft(
  trx: Knex.Transaction,
  key: ContentKey,
  ifMatch?: readonly number[],
): Promise<DiscardedDraft> {
  await contentRepository.lockKey(trx, key);
  const published = await contentRepository.lockTree(trx, key);
  const head = await contentRevisionsRepository.head(trx, key);
  const current = head?.version ?? 0;
  if (ifMatch !== undefined && !ifMatch.includes(current)) throw new ContentVersionMismatch(ifMatch, current);
  const draft = await contentDraftsRepository.lock(trx, key);
  if (draft === undefined || published === undefined) throw new NoDraft();
  await contentDraftsRepository.remove(trx, key);
  const revision = await contentRevisionsRepository.record(trx, key, current + 1, {
    source: 'discard',
    languagesChanged: languagesChanged(draft.html, head?.html ?? {}),
  });
  return { tree: published.tree as ContentWidget[], version: revision.version, revisionId: revision.id };
}

/** The entity's draft state (the eshop's mode, versions, the draft's and the published html). */
export function draftState(db: Knex, key: ContentKey): Promise<DraftState> {
  return contentDraftsRepository.state(db, key);
}
