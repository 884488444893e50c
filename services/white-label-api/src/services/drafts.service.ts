/**
 * Drafts and publishing (an extension; docs/decisions/0080-drafts-and-publishing.md, "Drafts and publishing"). In an eshop
 * whose `publish_mode` is `draft`, every content write of the editor (and fill-design and
 * generation) stores a draft (libs/content-store `saveEditorContent`); the storefront reads keep
 * serving the published content until the draft is published here. Publishing renders and
 * writes the draft into the content in one transaction, as an immediate write would have.
 */
import { withWidgetHtml, type ContentWidget, type Language, type v3 } from '@catalogue/content';
import { discardDraft, draftState, NoDraft } from '@catalogue/content-store';
import { HttpError } from '@catalogue/http';
import type { Knex } from '@catalogue/db';
import { editContent, type ContentTarget, type VersionedContent } from './content.service';
import { refuseStaleVersion } from './content-version';
import { requireEntity } from './entities.service';

const keyOf = (target: ContentTarget) => ({
  eshopId: target.eshop.id,
  entityType: target.type,
  externalId: target.entityId,
});

/** 409: nothing to publish or discard. */
export class NoDraftError extends HttpError {
  constructor(action: 'publish' | 'discard') {
    super(409, 'no_draft', {
      error: `The entity has no draft to ${action}: its content is already what the storefront serves.`,
    });
  }
}

async function refuseNoDraft<T>(write: Promise<T>, action: 'publish' | 'discard'): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (err instanceof NoDraft) throw new NoDraftError(action);
    throw err;
  }
}

/** The entity's draft state and the html its preview shows (404: not registered). */
export async function readDraft(db: Knex, target: ContentTarget): Promise<v3.Data<v3.DraftView>> {
  await requireEntity(db, target.eshop.id, target.type, target.entityId);
  const state = await draftState(db, keyOf(target));
  const html = state.draft?.html ?? state.publishedHtml;
  return {
    data: {
      publish_mode: state.publishMode,
      has_draft: state.draft !== null,
      version: state.version,
      published_version: state.publishedVersion,
      draft_updated_at: state.draft?.updatedAt ?? null,
      html: Object.fromEntries(Object.entries(html).map(([lang, text]) => [lang, text ?? ''])),
    },
  };
}

/**
 * Publishes the entity's draft: rendered with the item's data as it is now and written as the
 * content (revision `publish`, the item's `item.content_ready` event, its list pieces), the draft
 * deleted, in one transaction. 409 `no_draft` when there is none (also the second of two
 * concurrent publishes without If-Match), 412 when If-Match names another version.
 */
export function publishDraft(db: Knex, target: ContentTarget, lang: Language): Promise<VersionedContent> {
  return refuseNoDraft(
    editContent(db, target, lang, (tree) => tree, requireEntity, { kind: 'publish' }),
    'publish',
  );
}

/** Discards the entity's draft: the published content is shown again (revision `discard`). */
export async function discardEntityDraft(
  db: Knex,
  target: ContentTarget,
  lang: Language,
): Promise<VersionedContent> {
  const discarded = await refuseNoDraft(
    refuseStaleVersion(
      db.transaction(async (trx) => {
        await requireEntity(trx, target.eshop.id, target.type, target.entityId);
        return discardDraft(trx, keyOf(target), target.ifMatch);
      }),
    ),
    'discard',
  );
  return { widgets: withWidgetHtml(discarded.tree as ContentWidget[], lang), version: discarded.version };
}
