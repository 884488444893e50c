import { isOneOf } from '@catalogue/config';
import { ValidationError } from '@catalogue/http';
import {
  fillDesign,
  isLangMap,
  keepOtherLanguages,
  renderHtml,
  type ContentWidget,
  type FillWidgetInput,
  type Language,
  type v3,
} from '@catalogue/content';
import { wlEntitiesRepository, type Knex, type WlEntityType } from '@catalogue/db';
import { saveEditorContent, type RenderingEshop } from '@catalogue/content-store';
import { invalidTextErrors } from '../schemas/valid-text.schema';
import { loadDesignStructure } from './designs.service';
import { requireEntity } from './entities.service';
import { refuseStaleVersion } from './content-version';

export interface FillDesignInput {
  design_id: number;
  widget: FillWidgetInput[];
}

/**
 * The languages a fill writes: the one it names (`?lang=`, the language of its plain strings;
 * without it `default` when a plain string is sent) and every language its maps name.
 */
function writtenLanguages(input: FillDesignInput, lang: Language | undefined): Set<string> {
  const written = new Set<string>(lang === undefined ? [] : [lang]);
  const visit = (texts: unknown) => {
    if (!isLangMap(texts)) return;
    for (const text of Object.values(texts)) {
      if (typeof text === 'string') written.add(lang ?? 'default');
      else if (isLangMap(text)) Object.keys(text).forEach((key) => written.add(key));
    }
  };
  for (const widget of input.widget) {
    visit(widget.fields);
    (widget.items ?? []).forEach(visit);
  }
  return written;
}

/**
 * Fills a design with the caller's texts and makes it the entity's whole content (no credits).
 * The fill is written in `lang` (its plain strings are that language's texts; without it they
 * are `default`'s, which every language falls back to): refilling the entity's design keeps the
 * other languages' texts of the widgets it replaces, and a new widget has text only in the
 * languages the fill wrote. Everything is checked before anything is written; the content, its
 * rendered outputs in every eshop language and the entity's design are then written in one
 * transaction.
 */
export async function fillEntityDesign(
  db: Knex,
  eshop: RenderingEshop,
  type: WlEntityType,
  entityId: string,
  input: FillDesignInput,
  lang?: Language,
  /** The content versions the caller accepts (If-Match): 412 and nothing written otherwise. */
  ifMatch?: readonly number[],
  /**
   * Called in the fill's transaction with the answer: an Idempotency-Key's outcome commits with
   * the content it answers (a retry after a crash writes no second revision).
   */
  recordOutcome?: (trx: Knex, answer: v3.FillDesignView) => Promise<void>,
): Promise<v3.FillDesignView & { version: number }> {
  if (lang !== undefined && !isOneOf(eshop.languages, lang)) {
    throw new ValidationError({
      lang: [`The selected lang ${lang} is not an active language of this eshop.`],
    });
  }
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
  const htmlLanguage = lang ?? 'default';
  const filled = fillDesign(design.structure, design.templates, input, {
    textLanguage: htmlLanguage,
    htmlLanguage,
  });
  if (!filled.ok) throw new ValidationError(filled.errors);
  const written = writtenLanguages(input, lang);

  const saved = await refuseStaleVersion(
    db.transaction(async (trx) => {
      const before = await wlEntitiesRepository.find(trx, eshop.id, type, entityId);
      // The same design filled again replaces its own widgets: the other languages keep theirs.
      const sameDesign = before?.designId === design.design.id;
      await wlEntitiesRepository.setDesign(trx, eshop.id, entity.id, design.design.id);
      // It may write the item's event (numbered as the transaction commits).
      const stored = await saveEditorContent(
        trx,
        {
          eshop,
          entityType: type,
          externalId: entityId,
          fallbackName: Object.keys(entity.title).length > 0 ? entity.title : null,
          source: { kind: 'fill' },
          ifMatch,
        },
        // A second fill replaces the whole content, in the languages it writes.
        (current) => {
          if (!sameDesign) return filled.tree;
          return keepOtherLanguages(current, filled.tree, written).map((widget): ContentWidget => ({
            ...widget,
            html: renderHtml([widget], htmlLanguage),
          }));
        },
      );
      const answer: v3.FillDesignView = {
        html: Object.fromEntries(eshop.languages.map((language) => [language, stored.html[language] ?? ''])),
        widget_created: filled.widgetsCreated,
      };
      await recordOutcome?.(trx, answer);
      return { ...answer, version: stored.version };
    }),
  );
  return saved;
}
