import { NotFoundError, ValidationError } from '@catalogue/http';
import { CONTENT_LANGUAGES } from '@catalogue/config';
import { sanitizeHtml, type Text, type v3 } from '@catalogue/content';
import { CATALOGUE_TYPE_OF, defaultDesign } from '@catalogue/content-store';
import {
  catalogueRepository,
  contentRepository,
  wlEntitiesRepository,
  type Eshop,
  type Knex,
  type LangMap,
  type WlEntity,
  type WlEntityType,
} from '@catalogue/db';
import { registrationDesign, toMap } from '@catalogue/generation';
import { invalidTextErrors } from '../schemas/valid-text.schema';

export { requireEntityOrItem } from '@catalogue/generation';

/** The registered entity of the eshop, or 404: content operations need a registered entity. */
export async function requireEntity(
  db: Knex | Knex.Transaction,
  eshopId: number,
  type: WlEntityType,
  entityId: string,
): Promise<WlEntity> {
  const entity = await wlEntitiesRepository.find(db, eshopId, type, entityId);
  if (!entity) throw new NotFoundError(`Entity ${type} "${entityId}" is not registered`);
  return entity;
}


/** The `default` text, else the first language (canonical order) that has one, else ''. */
function firstText(map: LangMap): string {
  for (const lang of CONTENT_LANGUAGES) {
    const value = map[lang];
    if (typeof value === 'string' && value !== '') return value;
  }
  return '';
}

export function entityView(entity: WlEntity): v3.EntityView {
  return {
    id: entity.id,
    entity_id: entity.entityId,
    type: entity.type,
    design_id: entity.designId,
    old_description: firstText(entity.oldDescription),
    title: firstText(entity.title),
    created_at: entity.createdAt,
    updated_at: entity.updatedAt,
  };
}

export interface RegisterEntityInput {
  entity_id: string;
  type: WlEntityType;
  old_description?: Text | null;
  title?: Text | null;
}



/**
 * Creates the entity, or updates it when the eshop registered this id and type before. A text
 * that is sent replaces the stored one (all its languages); a text that is not sent is kept, so
 * a host can re-register an entity with only its new title. The description is HTML and is
 * sanitised before it is stored; the title is plain text, kept as sent (it only ever leaves
 * the service inside JSON). An entity without a design gets the default design of its type.
 */
export async function registerEntity(
  db: Knex,
  eshopId: number,
  input: RegisterEntityInput,
  /**
   * Called in the registration's transaction with its result: an Idempotency-Key's outcome
   * commits with the write (a retry after a crash is answered "created", not "updated").
   */
  recordOutcome?: (trx: Knex, result: { entity: v3.EntityView; created: boolean }) => Promise<void>,
): Promise<{ entity: v3.EntityView; created: boolean }> {
  // Only the fields that are stored: fields the service ignores cannot make a request fail.
  const { entity_id, old_description, title } = input;
  const textErrors = invalidTextErrors({ entity_id, old_description, title });
  if (Object.keys(textErrors).length > 0) throw new ValidationError(textErrors);
  return db.transaction(async (trx) => {
    const existing = await wlEntitiesRepository.find(trx, eshopId, input.type, input.entity_id);
    const { entity, created } = await wlEntitiesRepository.upsert(trx, eshopId, {
      entityId: input.entity_id,
      type: input.type,
      oldDescription:
        input.old_description === undefined
          ? (existing?.oldDescription ?? {})
          : toMap(input.old_description, sanitizeHtml),
      title: input.title === undefined ? (existing?.title ?? {}) : toMap(input.title, (v) => v),
      // An entity without a design gets its type's default; one it has (filled) is kept.
      designId: existing?.designId ?? (await registrationDesign(trx, eshopId, input.type)),
    });
    const result = { entity: entityView(entity), created };
    await recordOutcome?.(trx, result);
    return result;
  });
}

export async function listEntities(
  db: Knex,
  eshopId: number,
  query: { type?: WlEntityType; page: number; per_page: number },
): Promise<v3.Page<v3.EntityView>> {
  const filter = query.type ? { type: query.type } : {};
  const [entities, total] = await Promise.all([
    wlEntitiesRepository.list(db, eshopId, {
      ...filter,
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
    }),
    wlEntitiesRepository.count(db, eshopId, filter),
  ]);
  return {
    data: entities.map(entityView),
    meta: { total, current_page: query.page, per_page: query.per_page },
  };
}

/** The stored rendered HTML of a registered entity: every eshop language, '' without content. */
export async function entityHtml(
  db: Knex,
  eshop: Pick<Eshop, 'id' | 'languages'>,
  type: WlEntityType,
  entityId: string,
): Promise<v3.EntityHtml> {
  await requireEntity(db, eshop.id, type, entityId);
  const content = await contentRepository.find(db, {
    eshopId: eshop.id,
    entityType: type,
    externalId: entityId,
  });
  return { html: Object.fromEntries(eshop.languages.map((lang) => [lang, content?.html[lang] ?? ''])) };
}
