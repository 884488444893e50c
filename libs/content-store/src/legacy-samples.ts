/**
 * The one-off repair of content stored before sample content was marked (docs/decisions/0034-catalogue-content-without-samples-entity-designs.md,
 * "Catalogue content without samples"): every people's tree holding a catalogue sample in a
 * widget nobody edited gets it marked (libs/content `markUnmarkedSamples`) and is saved again
 * through `saveEditorContent`, so its public outputs are rendered without it and clients
 * following the change feed learn of the new content (`item.content_ready`).
 */
import { isOneOf, WHITE_LABEL_ENTITY_TYPES } from '@catalogue/config';
import { htmlToText, markUnmarkedSamples, WIDGETS_BY_TYPE, type ContentWidget } from '@catalogue/content';
import { contentRepository, eshopsRepository, wlEntitiesRepository, type Knex } from '@catalogue/db';
import { widgetTemplates } from './designs';
import { saveEditorContent } from './entity-content';

/** Texts every unmarked sample tree contains one of (the readable text of each sample). */
function sampleProbes(): string[] {
  const out = new Set<string>();
  for (const { sample } of WIDGETS_BY_TYPE.values()) {
    const texts = [
      ...Object.values(sample.fields ?? {}),
      ...(sample.items ?? []).flatMap((item) => Object.values(item)),
      ...(sample.images ?? []),
      ...(sample.icons ?? []),
    ];
    for (const text of texts) {
      const plain = typeof text === 'string' ? htmlToText(text).trim() : '';
      // Short ones ("2", "Pro") find nothing the longer ones of their widget do not.
      if (plain.length >= 8 && !/[&<>"]/.test(plain)) out.add(plain);
    }
  }
  return [...out];
}

/** Marks and re-renders every stored tree with unmarked samples; answers how many were saved. */
export async function markStoredSamples(db: Knex): Promise<number> {
  const keys = await contentRepository.editorKeysContaining(db, sampleProbes());
  if (keys.length === 0) return 0;
  const templates = await widgetTemplates(db);
  let saved = 0;
  for (const key of keys) {
    const eshop = await eshopsRepository.findById(db, key.eshopId);
    if (!eshop) continue;
    const entity = isOneOf(WHITE_LABEL_ENTITY_TYPES, key.entityType)
      ? await wlEntitiesRepository.find(db, key.eshopId, key.entityType, key.externalId)
      : undefined;
    const fallbackName = entity && Object.keys(entity.title).length > 0 ? entity.title : null;
    await db.transaction(async (trx) => {
      // Read again under the save's locks: an edit meanwhile is what is marked.
      let marked: ContentWidget[] | null = null;
      const target = {
        eshop,
        entityType: key.entityType,
        externalId: key.externalId,
        fallbackName,
        source: { kind: 'repair' } as const,
      };
      const current = await contentRepository.find(trx, key);
      if (!current || markUnmarkedSamples(current.tree as ContentWidget[], templates) === null) return;
      await saveEditorContent(trx, target, (tree) => {
        marked = markUnmarkedSamples(tree ?? [], templates);
        return marked ?? tree ?? [];
      });
      if (marked !== null) saved++;
    });
  }
  return saved;
}
