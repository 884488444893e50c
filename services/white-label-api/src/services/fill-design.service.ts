import { ValidationError } from '@catalogue/http';
import { fillDesign, type FillWidgetInput } from '@catalogue/content';
import { wlEntitiesRepository, type Eshop, type Knex, type WlEntityType } from '@catalogue/db';
import { saveEditorContent } from '@catalogue/content-store';
import { invalidTextErrors } from '../schemas/valid-text.schema';
import { loadDesignStructure } from './designs.service';
import { requireEntity } from './entities.service';
import { refuseStaleVersion } from './content-version';

export interface FillDesignInput {
  design_id: number;
  widget: FillWidgetInput[];
}

export interface FillDesignResult {
  html: Record<string, string>;
  widget_created: number;
}

/**
 * Fills a design with the caller's texts and makes it the entity's whole content (no credits).
 * Everything is checked before anything is written; the content, its rendered outputs in every
 * eshop language and the entity's design are then written in one transaction.
 */
export async function fillEntityDesign(
  db: Knex,
  eshop: Pick<Eshop, 'id' | 'languages'>,
  type: WlEntityType,
  entityId: string,
  input: FillDesignInput,
  /** The content versions the caller accepts (If-Match): 412 and nothing written otherwise. */
  ifMatch?: readonly number[],
): Promise<FillDesignResult & { version: number }> {
  const entity = await requireEntity(db, eshop.id, type, entityId);
  const textErrors = invalidTextErrors(input.widget, 'widget');
  if (Object.keys(textErrors).length > 0) throw new ValidationError(textErrors);
  const design = await loadDesignStructure(db, eshop.id, input.design_id);
  // A body field naming something the eshop cannot use is a 422, as in the catalogue API;
  // another eshop's custom design reads exactly like one that does not exist.
  if (!design) throw new ValidationError({ design_id: ['The selected design_id is invalid.'] });
  if (design.structure.category !== type) {
    throw new ValidationError({
      design_id: [`The selected design_id is a ${design.structure.category} design, not a ${type} design.`],
    });
  }
  const filled = fillDesign(design.structure, design.templates, input);
  if (!filled.ok) throw new ValidationError(filled.errors);

  const saved = await refuseStaleVersion(
    db.transaction(async (trx) => {
      await wlEntitiesRepository.setDesign(trx, eshop.id, entity.id, design.design.id);
      // Last: it may write the item's event, which locks the eshop's event counter.
      return saveEditorContent(
        trx,
        {
          eshop,
          entityType: type,
          externalId: entityId,
          fallbackName: Object.keys(entity.title).length > 0 ? entity.title : null,
          source: { kind: 'fill' },
          ifMatch,
        },
        // A second fill replaces the whole content: the stored tree is not looked at.
        () => filled.tree,
      );
    }),
  );
  return {
    html: Object.fromEntries(eshop.languages.map((lang) => [lang, saved.html[lang] ?? ''])),
    widget_created: filled.widgetsCreated,
    version: saved.version,
  };
}
